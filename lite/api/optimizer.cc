#include "lite/api/optimizer.h"

#include "lite/backends/npu/plugin/plugin_loader.h"
#include "lite/core/mir/dot.h"
#include "lite/core/mir/ssa_graph.h"

namespace lite {

StatusOr<OptimizeResult> OptimizeProgram(const cpp::ProgramDesc& program,
                                         Scope* root_scope,
                                         const OptimizeOptions& options) {
  if (options.valid_places.empty()) {
    return InvalidArgument("no valid places given");
  }
  bool npu = false;
  for (const Place& p : options.valid_places) npu |= p.target == TargetType::kNPU;
  if (!options.npu.driver_paths.empty() && !npu) {
    return InvalidArgument("npu driver paths are set but no valid place targets npu");
  }
  // Plugins register their drivers before the subgraph pass asks for one.
  if (npu) RETURN_IF_ERROR(npu::LoadPluginDrivers(options.npu.driver_paths));
  mir::SSAGraph graph;
  RETURN_IF_ERROR(graph.Build(program, 0, root_scope, options.valid_places));
  graph.set_npu_options(options.npu);
  OptimizeResult result;
  if (options.dot_mode != mir::DotDumpMode::kNone) {
    result.dot_before = mir::GraphToDot(graph, "loaded graph");
  }
  mir::PassManagerOptions pm;
  pm.disabled_passes.insert(options.disabled_passes.begin(), options.disabled_passes.end());
  pm.dot_mode = options.dot_mode;
  pm.dot_pass = options.dot_pass;
  pm.on_pass_done = options.on_pass_done;
  mir::PassManager manager(pm);
  const auto& pipeline = options.pipeline.empty() ? mir::DefaultPipeline() : options.pipeline;
  ASSIGN_OR_RETURN(result.report, manager.Run(&graph, pipeline));
  if (!graph.has_generated()) {
    return FailedPrecondition("the pipeline did not run generate_program_pass");
  }
  result.program = *graph.generated();
  return result;
}

}  // namespace lite
