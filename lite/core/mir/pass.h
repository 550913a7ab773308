// Pass: one graph rewrite. `Run` returns whether it changed the graph.
//
// Passes know nothing of concrete devices: a pass that only makes sense for
// some targets lists them in bound_targets(), and the PassManager skips it
// (with a log line) when no valid place has one of them. Passes bump named
// counters (e.g. "matched", "inserted") that the manager reports. Passes are
// created by name from the PassRegistry; the manager owns the instances.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "lite/core/mir/ssa_graph.h"
#include "lite/utils/status.h"

namespace lite {
namespace mir {

class Pass {
 public:
  virtual ~Pass() = default;
  virtual std::string name() const = 0;
  virtual StatusOr<bool> Run(SSAGraph* graph) = 0;
  // Empty: runs for any target.
  virtual std::vector<TargetType> bound_targets() const { return {}; }

  const std::map<std::string, int64_t>& counters() const { return counters_; }
  void ResetCounters() { counters_.clear(); }

 protected:
  void Count(const std::string& counter, int64_t n = 1) { counters_[counter] += n; }

 private:
  std::map<std::string, int64_t> counters_;
};

using PassFactory = std::function<std::unique_ptr<Pass>()>;

class PassRegistry {
 public:
  static PassRegistry& Global();
  bool Register(const std::string& name, PassFactory factory);
  bool Has(const std::string& name) const { return factories_.count(name); }
  std::unique_ptr<Pass> Create(const std::string& name) const;
  std::vector<std::string> Names() const;  // sorted

 private:
  std::map<std::string, PassFactory> factories_;
};

// The default pipeline: one explicit ordered list of pass names. Every name
// must be registered in the binary that runs it (the manager refuses an
// unknown name); link //lite/core/mir/subgraph for npu_subgraph_pass.
const std::vector<std::string>& DefaultPipeline();

}  // namespace mir
}  // namespace lite

#define REGISTER_MIR_PASS(name, PassClass)                             \
  static bool lite_mir_pass_registered_##name [[maybe_unused]] =       \
      ::lite::mir::PassRegistry::Global().Register(#name, [] {         \
        return std::unique_ptr<::lite::mir::Pass>(new PassClass);      \
      })
