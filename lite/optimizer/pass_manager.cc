#include "lite/optimizer/pass_manager.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <sstream>

#include "lite/optimizer/dot.h"
#include "lite/optimizer/generate_program.h"
#include "lite/optimizer/graph_verifier.h"

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
    const char* what = r.kind == StepKind::kLowering      ? "lowered"
                       : r.kind == StepKind::kProgramStep ? "program"
                       : r.changed                        ? "changed"
                                                          : "unchanged";
    char tail[64];
    std::snprintf(tail, sizeof(tail), "%-9s %8.2f ms  ops=%d", what, r.millis, r.ops_after);
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

namespace {

Status UnknownStep(const std::string& name, const std::string& where) {
  std::string known;
  for (const auto& n : PassRegistry::Global().Names()) known += (known.empty() ? "" : ", ") + n;
  return NotFound("unknown pass '" + name + "' in " + where + " (passes in this build: " + known +
                  ")");
}

// Runs `fn` and returns its duration in milliseconds.
template <typename Fn>
double TimedMillis(Fn&& fn) {
  auto start = std::chrono::steady_clock::now();
  fn();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

int OpsOf(const cpp::ProgramDesc& program, int block_idx) {
  return static_cast<int>(program.blocks[block_idx].ops.size());
}

}  // namespace

Status PassManager::CheckDisabledNames() const {
  const PassRegistry& registry = PassRegistry::Global();
  for (const auto& name : options_.disabled_passes) {
    if (!registry.Has(name) && !registry.HasProgramStep(name)) {
      return UnknownStep(name, "the disabled passes");
    }
  }
  return Status::OK();
}

void PassManager::Finish(PassRecord rec, PassReport* report) const {
  rec.index = static_cast<int>(report->passes.size()) + 1;
  if (options_.on_pass_done) options_.on_pass_done(rec);
  report->passes.push_back(std::move(rec));
}

StatusOr<PassReport> PassManager::Run(SSAGraph* graph,
                                      const std::vector<std::string>& pipeline) {
  PassReport report;
  const PassRegistry& registry = PassRegistry::Global();
  for (const auto& name : pipeline) {
    if (!registry.Has(name)) return UnknownStep(name, "the pipeline");
  }
  RETURN_IF_ERROR(CheckDisabledNames());
  if (options_.dot_mode == DotDumpMode::kNamedPass &&
      std::find(pipeline.begin(), pipeline.end(), options_.dot_pass) == pipeline.end()) {
    return InvalidArgument("DOT snapshot after '" + options_.dot_pass +
                           "' requested, but it is not a graph pass of the pipeline");
  }
  RETURN_IF_ERROR(VerifyGraph(*graph).WithContext("graph invalid before the first pass"));
  for (const std::string& name : pipeline) {
    PassRecord rec;
    rec.name = name;
    std::unique_ptr<Pass> pass = registry.Create(name, options_.pass_options);
    if (options_.disabled_passes.count(name)) {
      rec.skip_reason = "disabled by user";
    } else {
      rec.skip_reason = TargetSkipReason(*pass, *graph);
    }
    if (rec.skip_reason.empty()) {
      StatusOr<bool> changed = false;
      rec.millis = TimedMillis([&] { changed = pass->Run(graph); });
      if (!changed.ok()) return changed.status().WithContext("pass " + name + " failed");
      rec.ran = true;
      rec.changed = *changed;
      rec.counters = pass->counters();
      if (rec.changed) {
        RETURN_IF_ERROR(VerifyGraph(*graph).WithContext(
            "graph verification failed after " + name));
      }
      rec.ops_after = static_cast<int>(graph->StmtNodes().size());
      if (ShouldSnapshot(rec)) rec.dot_after = GraphToDot(*graph, "after " + name);
    }
    Finish(std::move(rec), &report);
  }
  return report;
}

StatusOr<cpp::ProgramDesc> PassManager::Lower(const SSAGraph& graph, PassReport* report) {
  PassRecord rec;
  rec.name = "generate_program";
  rec.kind = StepKind::kLowering;
  StatusOr<cpp::ProgramDesc> program = cpp::ProgramDesc();
  rec.millis = TimedMillis([&] { program = GenerateProgram(graph); });
  if (!program.ok()) return program.status().WithContext("lowering the graph to a program failed");
  rec.ran = true;
  rec.ops_after = OpsOf(*program, graph.block_idx());
  Finish(std::move(rec), report);
  return program;
}

Status PassManager::RunProgramSteps(cpp::ProgramDesc* program, int block_idx,
                                    const std::vector<std::string>& steps, PassReport* report) {
  const PassRegistry& registry = PassRegistry::Global();
  for (const auto& name : steps) {
    if (!registry.HasProgramStep(name)) return UnknownStep(name, "the program steps");
  }
  RETURN_IF_ERROR(CheckDisabledNames());
  for (const std::string& name : steps) {
    PassRecord rec;
    rec.name = name;
    rec.kind = StepKind::kProgramStep;
    if (options_.disabled_passes.count(name)) {
      rec.skip_reason = "disabled by user";
    } else {
      std::unique_ptr<ProgramStep> step = registry.CreateProgramStep(name, options_.pass_options);
      Status s;
      rec.millis = TimedMillis([&] { s = step->Run(program, block_idx); });
      RETURN_IF_ERROR(s.WithContext("program step " + name + " failed"));
      rec.ran = true;
      rec.counters = step->counters();
      rec.ops_after = OpsOf(*program, block_idx);
    }
    Finish(std::move(rec), report);
  }
  return Status::OK();
}

}  // namespace mir
}  // namespace lite
