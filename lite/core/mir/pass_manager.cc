#include "lite/core/mir/pass_manager.h"

#include <chrono>
#include <cstdio>
#include <sstream>

#include "lite/core/mir/dot.h"
#include "lite/core/mir/graph_verifier.h"

namespace lite {
namespace mir {

namespace {
// The pass's bound targets against the graph's valid places: "" when the pass
// may run, else the reason it is skipped.
std::string TargetSkipReason(const Pass& pass, const SSAGraph& graph) {
  auto bound = pass.bound_targets();
  if (bound.empty()) return "";
  for (const Place& p : graph.valid_places()) {
    for (TargetType t : bound) {
      if (p.target == t) return "";
    }
  }
  std::string names;
  for (TargetType t : bound) names += std::string(names.empty() ? "" : ",") + TargetName(t);
  return "no valid place targets " + names;
}
}  // namespace

std::string PassReport::ToString() const {
  std::ostringstream os;
  for (const auto& r : passes) {
    char head[160];
    std::snprintf(head, sizeof(head), "%02d %-36s ", r.index, r.name.c_str());
    os << head;
    if (!r.ran) {
      os << "skipped (" << r.skip_reason << ")\n";
      continue;
    }
    char tail[64];
    std::snprintf(tail, sizeof(tail), "%-9s %8.2f ms  ops=%d", r.changed ? "changed" : "unchanged",
                  r.millis, r.ops_after);
    os << tail;
    for (const auto& kv : r.counters) os << " " << kv.first << "=" << kv.second;
    os << "\n";
  }
  return os.str();
}

bool PassManager::ShouldSnapshot(const PassRecord& r) const {
  switch (options_.dot_mode) {
    case DotDumpMode::kNone: return false;
    case DotDumpMode::kNamedPass: return r.name == options_.dot_pass;
    case DotDumpMode::kEveryPass: return true;
    case DotDumpMode::kChangedPasses: return r.changed;
  }
  return false;
}

StatusOr<PassReport> PassManager::Run(SSAGraph* graph,
                                      const std::vector<std::string>& pipeline) {
  PassReport report;
  const PassRegistry& registry = PassRegistry::Global();
  auto unknown = [&](const std::string& name, const std::string& where) {
    std::string known;
    for (const auto& n : registry.Names()) known += (known.empty() ? "" : ", ") + n;
    return NotFound("unknown pass '" + name + "' in " + where + " (passes in this build: " +
                    known + ")");
  };
  for (const auto& name : pipeline) {
    if (!registry.Has(name)) return unknown(name, "the pipeline");
  }
  for (const auto& name : options_.disabled_passes) {
    if (!registry.Has(name)) return unknown(name, "the disabled passes");
  }
  RETURN_IF_ERROR(VerifyGraph(*graph).WithContext("graph invalid before the first pass"));
  for (size_t i = 0; i < pipeline.size(); ++i) {
    PassRecord rec;
    rec.index = static_cast<int>(i) + 1;
    rec.name = pipeline[i];
    std::unique_ptr<Pass> pass = registry.Create(rec.name);
    if (options_.disabled_passes.count(rec.name)) {
      rec.skip_reason = "disabled by user";
    } else {
      rec.skip_reason = TargetSkipReason(*pass, *graph);
    }
    if (rec.skip_reason.empty()) {
      auto start = std::chrono::steady_clock::now();
      StatusOr<bool> changed = pass->Run(graph);
      rec.millis = std::chrono::duration<double, std::milli>(
                       std::chrono::steady_clock::now() - start).count();
      if (!changed.ok()) {
        return changed.status().WithContext("pass " + rec.name + " failed");
      }
      rec.ran = true;
      rec.changed = *changed;
      rec.counters = pass->counters();
      if (rec.changed) {
        RETURN_IF_ERROR(VerifyGraph(*graph).WithContext(
            "graph verification failed after " + rec.name));
      }
      rec.ops_after = static_cast<int>(graph->StmtNodes().size());
      if (ShouldSnapshot(rec)) {
        rec.dot_after = GraphToDot(*graph, "after " + rec.name);
      }
    }
    if (options_.on_pass_done) options_.on_pass_done(rec);
    report.passes.push_back(std::move(rec));
  }
  return report;
}

}  // namespace mir
}  // namespace lite
