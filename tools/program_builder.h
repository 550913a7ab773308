// ProgramBuilder: writes a one-block Paddle program and its weights op by op,
// for the models the tools generate in code (the quickstart's default model,
// the stand-in models of tools/standin_models.h). Weights are persistable
// float tensors filled from the tools' LCG with a seed that starts at the
// builder's seed and grows by one per weight, so a program built by the same
// calls is the same bytes every time. Activations are declared with their
// dims (-1 for extents known only at run time), as exported models do: some
// passes read declared dims. The builder checks nothing: the predictor's op
// checks report a malformed program.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "lite/base/program_desc.h"
#include "lite/base/scope.h"

namespace lite {
namespace tools {

// A generated model: the program and its weights (persistable, in `scope`).
struct BuiltProgram {
  cpp::ProgramDesc program;
  std::unique_ptr<Scope> scope;
};

class ProgramBuilder {
 public:
  explicit ProgramBuilder(uint32_t seed = 100);

  cpp::BlockDesc& block() { return prog_.blocks[0]; }

  // Declares a non-persistable variable.
  void Activation(const std::string& name, std::vector<int64_t> dims,
                  DataType dtype = DataType::kFloat32);

  // A persistable float weight filled from the LCG in [lo, hi).
  void Weight(const std::string& name, std::vector<int64_t> dims, double lo, double hi);

  // Declares input `name` (need_check_feed) and the feed op of the next column.
  void Feed(const std::string& name, std::vector<int64_t> dims);

  // The fetch op of the next column for the declared variable `name`.
  void Fetch(const std::string& name);

  // Appends an op; fill its inputs, outputs and attributes on the result
  // (valid until the next Op call).
  cpp::OpDesc& Op(const std::string& type);

  // The declared dims of `name`; empty when it is not declared.
  std::vector<int64_t> Dims(const std::string& name) const;

  BuiltProgram Finish();

 private:
  cpp::ProgramDesc prog_;
  std::unique_ptr<Scope> scope_;
  uint32_t seed_;
  int feeds_ = 0;
  int fetches_ = 0;
};

}  // namespace tools
}  // namespace lite
