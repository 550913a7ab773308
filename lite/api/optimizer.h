// Optimizer: turns block 0 of a loaded program into the program predictors
// run, in explicit steps (OptimizeProgram reads as the list): the pipeline's
// host-safe rewrites inside control-flow sub-blocks
// (mir/sub_block_passes.h), the graph passes of the pipeline over block 0's
// SSA graph, lowering the graph to a program (mir::GenerateProgram), then
// the program steps (memory planning).
//
// Used by the full predictor and by tools/opt. The program and the root
// scope (weights) are the caller's; fusion passes may add or rewrite weights
// in that scope. The result is the optimized program (ops in execution order,
// each carrying its picked kernel) plus the pass report.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "lite/optimizer/pass_manager.h"
#include "lite/backends/npu/npu_options.h"
#include "lite/base/scope.h"
#include "lite/base/program_desc.h"
#include "lite/utils/status.h"

namespace lite {

struct OptimizeOptions {
  std::vector<Place> valid_places{Place(TargetType::kHost)};
  std::vector<std::string> disabled_passes;
  // Graph passes; empty: mir::DefaultPipeline(). The lowering and the
  // program steps (mir::DefaultProgramSteps()) always follow.
  std::vector<std::string> pipeline;
  mir::DotDumpMode dot_mode = mir::DotDumpMode::kNone;
  std::string dot_pass;
  std::function<void(const mir::PassRecord&)> on_pass_done;
  // NPU subgraph settings (used when a valid place targets npu), handed to
  // the subgraph pass when the manager creates it.
  NpuOptions npu;
  // opt --enable_fp16: the ops placed on arm whose kernels have an fp16 form
  // (kFp16ArmOps) get the attribute enable_fp16 and compute in half. Refused
  // (an error) without arm among the valid places or on a CPU without half
  // arithmetic.
  bool enable_fp16 = false;
};

struct OptimizeResult {
  cpp::ProgramDesc program;
  mir::PassReport report;
  std::string dot_before;  // the graph as loaded, when a dump mode is set
};

StatusOr<OptimizeResult> OptimizeProgram(const cpp::ProgramDesc& program,
                                         Scope* root_scope,
                                         const OptimizeOptions& options);

}  // namespace lite
