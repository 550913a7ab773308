// PassManager: runs an ordered list of passes over an SSAGraph and owns all
// instrumentation, so passes stay free of it: per-pass timing, changed flag
// and counters, graph verification after every pass that changed the graph
// ("failed after <pass>"), skipping by target or by user request, and DOT
// snapshots (after a named pass, after every pass, or only after passes that
// changed something).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "lite/core/mir/pass.h"
#include "lite/core/mir/ssa_graph.h"
#include "lite/utils/status.h"

namespace lite {
namespace mir {

enum class DotDumpMode { kNone, kNamedPass, kEveryPass, kChangedPasses };

struct PassManagerOptions {
  std::set<std::string> disabled_passes;
  DotDumpMode dot_mode = DotDumpMode::kNone;
  std::string dot_pass;  // for kNamedPass
  // Called once per pass with its record as soon as it finished (e.g. to
  // print a log line); may be empty.
  std::function<void(const struct PassRecord&)> on_pass_done;
};

struct PassRecord {
  int index = 0;               // position in the pipeline
  std::string name;
  bool ran = false;
  std::string skip_reason;     // when !ran
  bool changed = false;
  double millis = 0;
  std::map<std::string, int64_t> counters;
  std::string dot_after;       // when a snapshot was requested
  int ops_after = 0;
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
  // Runs `pipeline` in order. A pass error or a verifier failure stops the
  // run; the error names the pass ("failed in <pass>" / "failed after").
  StatusOr<PassReport> Run(SSAGraph* graph, const std::vector<std::string>& pipeline);

 private:
  bool ShouldSnapshot(const PassRecord& r) const;
  PassManagerOptions options_;
};

}  // namespace mir
}  // namespace lite
