// Pass and ProgramStep: the two kinds of optimizer steps, and their registry.
//
// A Pass is one graph rewrite; `Run` returns whether it changed the graph.
// A ProgramStep works on the program lowered from the graph (e.g. memory
// planning); it runs after generate_program (lite/optimizer/generate_program.h).
// Both are created by name from the PassRegistry with the PassOptions of the
// run: a factory takes the settings its pass needs (e.g. the NPU subgraph
// pass its NpuOptions) and the pass keeps them; the graph carries no user
// settings. The PassManager owns the instances.
//
// Passes know nothing of concrete devices: a pass that only makes sense for
// some targets lists them in bound_targets(), and the PassManager skips it
// (with a log line) when no valid place has one of them. Steps bump named
// counters (e.g. "matched", "inserted") that the manager reports.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <typeindex>
#include <vector>

#include "lite/base/program_desc.h"
#include "lite/optimizer/ssa_graph.h"
#include "lite/utils/status.h"

namespace lite {
namespace mir {

// Settings handed to pass factories, one value per type (a device library's
// options struct, say). Plain values; copies share them.
class PassOptions {
 public:
  template <typename T>
  void Set(T value) {
    values_[std::type_index(typeid(T))] = std::make_shared<const T>(std::move(value));
  }
  // The value set for T, or a default-constructed T when none was.
  template <typename T>
  T Get() const {
    auto it = values_.find(std::type_index(typeid(T)));
    return it == values_.end() ? T() : *static_cast<const T*>(it->second.get());
  }

 private:
  std::map<std::type_index, std::shared_ptr<const void>> values_;
};

// Name and counters, shared by both kinds of steps. A step's name is written
// once, in its registration macro: PassRegistry::Create gives each instance
// the name it was registered under.
class StepBase {
 public:
  virtual ~StepBase() = default;
  // The registered name (a step built outside the registry, as tests do,
  // overrides it).
  virtual std::string name() const { return registered_name_; }
  void set_registered_name(std::string name) { registered_name_ = std::move(name); }

  const std::map<std::string, int64_t>& counters() const { return counters_; }
  void ResetCounters() { counters_.clear(); }

 protected:
  void Count(const std::string& counter, int64_t n = 1) { counters_[counter] += n; }
  int64_t Counted(const std::string& counter) const {
    auto it = counters_.find(counter);
    return it == counters_.end() ? 0 : it->second;
  }

 private:
  std::map<std::string, int64_t> counters_;
  std::string registered_name_;
};

class Pass : public StepBase {
 public:
  virtual StatusOr<bool> Run(SSAGraph* graph) = 0;
  // Empty: runs for any target.
  virtual std::vector<TargetType> bound_targets() const { return {}; }
  // Whether the pass also runs inside control-flow sub-blocks (the bodies of
  // while and conditional_block, whose ops run host kernels one by one):
  // true for rewrites that hold on host kernels. The one pipeline serves
  // every block; the optimizer runs on a sub-block only the passes that
  // say so (lite/optimizer/sub_block_passes.h).
  virtual bool runs_on_sub_blocks() const { return false; }
};

class ProgramStep : public StepBase {
 public:
  // Edits block `block_idx` of the lowered program (the graph's block).
  virtual Status Run(cpp::ProgramDesc* program, int block_idx) = 0;
};

using PassFactory = std::function<std::unique_ptr<Pass>(const PassOptions&)>;
using ProgramStepFactory = std::function<std::unique_ptr<ProgramStep>(const PassOptions&)>;

class PassRegistry {
 public:
  static PassRegistry& Global();
  bool Register(const std::string& name, PassFactory factory);
  bool RegisterProgramStep(const std::string& name, ProgramStepFactory factory);
  bool Has(const std::string& name) const { return passes_.count(name); }
  bool HasProgramStep(const std::string& name) const { return steps_.count(name); }
  std::unique_ptr<Pass> Create(const std::string& name, const PassOptions& options) const;
  std::unique_ptr<ProgramStep> CreateProgramStep(const std::string& name,
                                                 const PassOptions& options) const;
  // Sorted names of graph passes and program steps.
  std::vector<std::string> Names() const;

 private:
  bool Taken(const std::string& name) const;
  std::map<std::string, PassFactory> passes_;
  std::map<std::string, ProgramStepFactory> steps_;
};

// The default graph pipeline: one explicit ordered list of pass names. Every
// name must be registered in the binary that runs it (the manager refuses an
// unknown name); link //lite/optimizer/passes/subgraph for npu_subgraph_pass.
const std::vector<std::string>& DefaultPipeline();
// The program steps run on the lowered program, in order.
const std::vector<std::string>& DefaultProgramSteps();

}  // namespace mir
}  // namespace lite

// A pass built without settings.
#define REGISTER_MIR_PASS(name, PassClass)                                          \
  REGISTER_MIR_PASS_WITH_OPTIONS(name, [](const ::lite::mir::PassOptions&) {        \
    return std::unique_ptr<::lite::mir::Pass>(new PassClass);                       \
  })
// `factory`: std::unique_ptr<Pass>(const PassOptions&).
#define REGISTER_MIR_PASS_WITH_OPTIONS(name, factory)                  \
  static bool lite_mir_pass_registered_##name [[maybe_unused]] =       \
      ::lite::mir::PassRegistry::Global().Register(#name, factory)
#define REGISTER_PROGRAM_STEP(name, StepClass)                                      \
  static bool lite_program_step_registered_##name [[maybe_unused]] =                \
      ::lite::mir::PassRegistry::Global().RegisterProgramStep(                      \
          #name, [](const ::lite::mir::PassOptions&) {                              \
            return std::unique_ptr<::lite::mir::ProgramStep>(new StepClass);        \
          })
