// PlacementReport: built from the optimized program (which ops the subgraph
// pass cut into which subgraph, and why the others stayed on host) and the
// subgraph kernels' records (compiled, pending or fell back, cross-check).
#include <cstdio>
#include <map>
#include <sstream>

#include "lite/api/predictor_runtime.h"
#include "lite/backends/npu/placement.h"
#include "lite/kernels/npu/npu_context.h"
#include "lite/operators/subgraph_op.h"

namespace lite {

paddle::lite_api::PlacementReport PredictorRuntime::GetPlacementReport() const {
  paddle::lite_api::PlacementReport report;
  std::map<int, const SubgraphRecord*> records;
  for (const SubgraphRecord* r : kernels::npu::SubgraphRecordsOf(*runtime_->context())) {
    records[r->id] = r;
  }
  for (const cpp::OpDesc& op : program_.blocks[0].ops) {
    if (op.Type() == "feed" || op.Type() == "fetch") continue;
    if (op.Type() != "subgraph") {
      report.ops.push_back({op.DebugName(), -1, false, op.GetAttr<std::string>(kHostReasonAttr, "")});
      continue;
    }
    const int id = op.GetAttr<int32_t>(operators::kSubgraphIdAttr, 0);
    const cpp::Attribute* block = op.FindAttr(operators::kSubBlockAttr);
    const int idx = block ? std::get<int32_t>(block->value) : -1;
    paddle::lite_api::SubgraphPlacement sub;
    sub.id = id;
    sub.driver = op.GetAttr<std::string>(operators::kNpuDriverAttr, "");
    auto it = records.find(id);
    const SubgraphRecord* rec = it == records.end() ? nullptr : it->second;
    if (rec) {
      sub.driver = rec->driver;
      sub.state = SubgraphStateName(rec->state);
      sub.reason = rec->reason;
      sub.compiles = rec->compiles;
      sub.deserializations = rec->deserializations;
      sub.compiled_note = rec->compiled_note;
      sub.split = rec->split;
      sub.cross_checked_runs = rec->cross_checked_runs;
      sub.max_abs_diff = rec->max_abs_diff;
      sub.max_rel_diff = rec->max_rel_diff;
    }
    const bool on_device = rec && rec->state != SubgraphRecord::State::kFellBack;
    if (idx > 0 && idx < static_cast<int>(program_.blocks.size())) {
      const auto& inner_ops = program_.blocks[idx].ops;
      for (size_t j = 0; j < inner_ops.size(); ++j) {
        const cpp::OpDesc& inner = inner_ops[j];
        sub.ops.push_back(inner.DebugName());
        const auto host = rec ? rec->host_ops.find(static_cast<int>(j))
                              : std::map<int, std::string>::const_iterator();
        if (on_device && host != rec->host_ops.end()) {  // on_device implies rec
          report.ops.push_back({inner.DebugName(), id, false,
                                "subgraph " + std::to_string(id) + " split: " + host->second});
          continue;
        }
        report.ops.push_back({inner.DebugName(), id, on_device,
                              on_device ? "" : "subgraph " + std::to_string(id) + " fell back"});
      }
    }
    report.subgraphs.push_back(std::move(sub));
  }
  return report;
}

}  // namespace lite

namespace paddle {
namespace lite_api {

std::string PlacementReport::Summary() const {
  if (subgraphs.empty()) {
    return "npu: no subgraphs (" + std::to_string(ops.size()) + " ops on host)";
  }
  size_t on_device = 0;
  for (const auto& op : ops) on_device += op.on_device ? 1 : 0;
  std::ostringstream os;
  os << "npu/" << subgraphs.front().driver << ": " << on_device << " of " << ops.size()
     << " ops in " << subgraphs.size() << " subgraph" << (subgraphs.size() == 1 ? "" : "s");
  int fell = 0, pending = 0;
  std::string why;
  for (const auto& s : subgraphs) {
    if (s.state == "host") {
      ++fell;
      why += "; #" + std::to_string(s.id) + " (" + std::to_string(s.ops.size()) + " ops from " +
             (s.ops.empty() ? "" : s.ops.front()) + "): " + s.reason;
    }
    pending += s.state == "pending";
  }
  if (pending) os << " (" << pending << " compile at the first run)";
  if (fell) {
    os << "; " << fell << " subgraph" << (fell == 1 ? "" : "s") << " fell back" << why;
  } else {
    os << "; no fallback";
  }
  return os.str();
}

std::string PlacementReport::ToString() const {
  std::ostringstream os;
  os << Summary() << "\n";
  for (const auto& s : subgraphs) {
    os << "  subgraph " << s.id << ": " << s.ops.size() << " ops, " << s.driver << ", "
       << s.state;
    if (!s.reason.empty()) os << " (" << s.reason << ")";
    if (s.compiles + s.deserializations > 0) {
      os << ", compiled " << s.compiles << ", loaded " << s.deserializations;
    }
    if (!s.compiled_note.empty()) os << " (" << s.compiled_note << ")";
    if (!s.split.empty()) os << "; " << s.split;
    if (s.cross_checked_runs > 0) {
      char buf[128];
      std::snprintf(buf, sizeof(buf), ", cross-check over %d run(s): max abs %.3g, max rel %.3g",
                    s.cross_checked_runs, s.max_abs_diff, s.max_rel_diff);
      os << buf;
    }
    os << "\n";
  }
  for (const auto& op : ops) {
    if (!op.on_device && op.subgraph < 0) {
      os << "  host: " << op.op << (op.reason.empty() ? "" : ": " + op.reason) << "\n";
    }
  }
  return os.str();
}

}  // namespace lite_api
}  // namespace paddle
