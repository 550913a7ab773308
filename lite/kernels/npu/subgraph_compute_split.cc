// SubgraphCompute's split fallback: when the driver's Compile refuses the
// whole subgraph, the ops are bisected into ranges that compile (device
// parts) and single ops that do not (host parts), in block order; then
// neighbouring device parts are compiled as one where the driver accepts
// it, so each run of device ops between host ops is one part.
#include <functional>
#include <set>

#include "lite/kernels/npu/subgraph_compute.h"
#include "lite/utils/logging.h"

namespace lite {
namespace kernels {
namespace npu {

using operators::SubgraphParam;

void SubgraphCompute::PartBoundary(size_t begin, size_t end, std::vector<std::string>* inputs,
                                   std::vector<std::string>* outputs) const {
  const auto& p = Param<SubgraphParam>();
  const Scope* weights = p.scope->parent() ? p.scope->parent() : p.scope;
  auto is_weight = [&](const std::string& var) {
    const Variable* v = weights->FindVar(var);
    return v && v->GetTensor().IsInitialized();
  };
  std::set<std::string> produced, listed;
  std::vector<std::string> written;
  for (size_t k = begin; k < end; ++k) {
    const cpp::OpDesc& desc = origin_[k]->op().op_desc();
    for (const auto& kv : desc.inputs()) {
      for (const std::string& var : kv.second) {
        if (var.empty() || produced.count(var) || is_weight(var) || listed.count(var)) continue;
        listed.insert(var);
        inputs->push_back(var);
      }
    }
    for (const auto& kv : desc.outputs()) {
      for (const std::string& var : kv.second) {
        if (!var.empty() && produced.insert(var).second) written.push_back(var);
      }
    }
  }
  std::set<std::string> needed(p.output_names.begin(), p.output_names.end());
  for (size_t k = end; k < origin_.size(); ++k) {
    for (const auto& kv : origin_[k]->op().op_desc().inputs()) {
      needed.insert(kv.second.begin(), kv.second.end());
    }
  }
  for (const std::string& var : written) {
    if (needed.count(var)) outputs->push_back(var);
  }
}

StatusOr<SubgraphCompute::Part> SubgraphCompute::BuildRange(size_t begin, size_t end,
                                                             std::vector<std::string>* notes) {
  Part part;
  part.begin = begin;
  part.end = end;
  PartBoundary(begin, end, &part.inputs, &part.outputs);
  std::vector<std::string> part_notes;
  RETURN_IF_ERROR(BuildPart(&part, &part_notes));
  notes->insert(notes->end(), part_notes.begin(), part_notes.end());
  return part;
}

std::vector<SubgraphCompute::Part> SubgraphCompute::MergeDeviceRuns(
    std::vector<Part> parts, std::vector<std::string>* notes) {
  // Bisection cuts a run of device ops wherever a half was refused, so
  // neighbouring device parts with no host op between them are common
  // ("ops 1-6 device, ops 7-7 device, ops 8-8 device"). Each run is compiled
  // as one part; where that union is refused too, the parts merge pairwise
  // from the left as far as the driver accepts.
  std::vector<Part> out;
  for (size_t i = 0; i < parts.size();) {
    size_t j = i + 1;
    while (parts[i].executable && j < parts.size() && parts[j].executable) ++j;
    if (j - i > 1) {
      auto whole = BuildRange(parts[i].begin, parts[j - 1].end, notes);
      if (whole.ok()) {
        out.push_back(std::move(whole).value());
        i = j;
        continue;
      }
      for (size_t k = i; k < j; ++k) {
        if (k > i) {
          auto joined = BuildRange(out.back().begin, parts[k].end, notes);
          if (joined.ok()) {
            out.back() = std::move(joined).value();
            continue;
          }
        }
        out.push_back(std::move(parts[k]));
      }
      i = j;
      continue;
    }
    out.push_back(std::move(parts[i]));
    i = j;
  }
  return out;
}

StatusOr<std::vector<SubgraphCompute::Part>> SubgraphCompute::Split(
    const Status& whole, std::vector<std::string>* notes) {
  std::vector<Part> parts;
  std::vector<std::string> refused;  // "#6 reshape (output: x): reason"
  // Ranges that compile become device parts; a single op that does not
  // becomes a host part. Recursion depth is log2(ops).
  std::function<void(size_t, size_t)> place = [&](size_t begin, size_t end) {
    auto built = BuildRange(begin, end, notes);
    if (built.ok()) {
      parts.push_back(std::move(built).value());
      return;
    }
    const Status s = built.status();
    if (end - begin > 1) {
      const size_t mid = begin + (end - begin) / 2;
      place(begin, mid);
      place(mid, end);
      return;
    }
    record_.host_ops[static_cast<int>(begin)] = s.message();
    refused.push_back("#" + std::to_string(begin + 1) + " " + record_.ops[begin] + ": " +
                      s.message());
    if (!parts.empty() && !parts.back().executable) {
      parts.back().end = end;  // extend the preceding host part
    } else {
      Part host;
      host.begin = begin;
      host.end = end;
      parts.push_back(std::move(host));
    }
  };
  const size_t mid = origin_.size() / 2;
  place(0, mid);
  place(mid, origin_.size());
  parts = MergeDeviceRuns(std::move(parts), notes);
  size_t on_device = 0;
  for (const Part& part : parts) on_device += part.executable ? part.end - part.begin : 0;
  if (on_device == 0) {
    record_.host_ops.clear();
    return Status(whole.code(), whole.message() + " (and no part of it compiles alone)");
  }
  std::string layout;
  for (const Part& part : parts) {
    layout += (layout.empty() ? "" : ", ") + std::string("ops ") + std::to_string(part.begin + 1) +
              "-" + std::to_string(part.end) + (part.executable ? " device" : " host");
  }
  record_.split = "split into " + std::to_string(parts.size()) + " parts (" + layout +
                  ") around " + std::to_string(refused.size()) + " op(s) the driver refused: ";
  for (size_t i = 0; i < refused.size(); ++i) record_.split += (i ? "; " : "") + refused[i];
  LogMessage(LogSeverity::kWarning, "npu: subgraph " + std::to_string(record_.id) + " " +
                                        record_.split);
  return parts;
}

}  // namespace npu
}  // namespace kernels
}  // namespace lite
