// PassManager: runs the optimizer's steps and owns all instrumentation, so
// steps stay free of it. Three calls, in this order (lite/api/optimizer.cc):
// Run (the graph passes of a pipeline over an SSAGraph), Lower (the graph to
// a program, generate_program.h) and RunProgramSteps (steps on that
// program). Each records into one PassReport: per-step timing, changed flag
// and counters, graph verification after every pass that changed the graph
// ("failed after <pass>"), skipping by target or by user request, and DOT
// snapshots of the graph (after a named pass, after every pass, or only after
// passes that changed something). Steps are created with the manager's
// PassOptions.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "lite/optimizer/pass.h"
#include "lite/optimizer/ssa_graph.h"
#include "lite/utils/status.h"

namespace lite {
namespace mir {

enum class DotDumpMode { kNone, kNamedPass, kEveryPass, kChangedPasses };

struct PassManagerOptions {
  // Handed to every pass and program step factory.
  PassOptions pass_options;
  // Graph passes or program steps to skip.
  std::set<std::string> disabled_passes;
  DotDumpMode dot_mode = DotDumpMode::kNone;
  std::string dot_pass;  // for kNamedPass
  // Called once per pass with its record as soon as it finished (e.g. to
  // print a log line); may be empty.
  std::function<void(const struct PassRecord&)> on_pass_done;
};

enum class StepKind { kGraphPass, kLowering, kProgramStep };

struct PassRecord {
  int index = 0;               // position in the run (graph passes first)
  std::string name;
  StepKind kind = StepKind::kGraphPass;
  bool ran = false;
  std::string skip_reason;     // when !ran
  bool changed = false;
  double millis = 0;
  std::map<std::string, int64_t> counters;
  std::string dot_after;       // graph passes, when a snapshot was requested
  int ops_after = 0;           // ops of the graph, or of the program's block
};

struct PassReport {
  std::vector<PassRecord> passes;
  // "01 conv_bn_fuse_pass changed 1.2 ms matched=49" lines.
  std::string ToString() const;
};

class PassManager {
 public:
  explicit PassManager(PassManagerOptions options = {})
      : options_(std::move(options)) {}
  // Runs the graph passes of `pipeline` in order. A pass error or a verifier
  // failure stops the run; the error names the pass ("pass <pass> failed" /
  // "failed after <pass>").
  StatusOr<PassReport> Run(SSAGraph* graph, const std::vector<std::string>& pipeline);
  // Lowers the graph to a program (GenerateProgram), recorded in `report`.
  StatusOr<cpp::ProgramDesc> Lower(const SSAGraph& graph, PassReport* report);
  // Runs the program steps `steps` in order over block `block_idx`.
  Status RunProgramSteps(cpp::ProgramDesc* program, int block_idx,
                         const std::vector<std::string>& steps, PassReport* report);

 private:
  bool ShouldSnapshot(const PassRecord& r) const;
  Status CheckDisabledNames() const;
  // Fills the record's number, reports it and appends it to `report`.
  void Finish(PassRecord rec, PassReport* report) const;
  PassManagerOptions options_;
};

}  // namespace mir
}  // namespace lite
