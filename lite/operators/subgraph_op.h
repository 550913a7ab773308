// subgraph: a cluster of ops cut out for an NPU device by npu_subgraph_pass.
//
// The op's `sub_block` attribute (a BLOCK) names the program block holding
// the original ops (each with its host kernel key, so the subgraph can fall
// back to them), `input_data_names` / `output_data_names` the vars crossing
// the boundary (bound as Inputs / Outputs), `npu_driver` the driver the pass
// checked support against and `subgraph_id` its stable number. The op only
// binds; its kernel (lite/kernels/npu) converts, compiles and runs the block,
// and infers output shapes through the block's ops. The program is the
// caller's and outlives the op.
#pragma once

#include <string>
#include <vector>

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

inline constexpr const char* kSubBlockAttr = "sub_block";
inline constexpr const char* kInputDataNamesAttr = "input_data_names";
inline constexpr const char* kOutputDataNamesAttr = "output_data_names";
inline constexpr const char* kNpuDriverAttr = "npu_driver";
inline constexpr const char* kSubgraphIdAttr = "subgraph_id";

struct SubgraphParam : OpParam {
  const cpp::ProgramDesc* program = nullptr;
  int block_idx = -1;
  std::vector<std::string> input_names;
  std::vector<std::string> output_names;
  std::vector<Tensor*> inputs;
  std::vector<Tensor*> outputs;
  std::string driver;
  int subgraph_id = 0;
  Scope* scope = nullptr;  // the exec scope the block's ops attach to
};

}  // namespace operators
}  // namespace lite
