#include "lite/api/optimizer.h"

#include <chrono>

#include "lite/api/arm_fp16.h"
#include "lite/api/build_targets.h"
#include "lite/backends/npu/plugin/plugin_loader.h"
#include "lite/optimizer/dot.h"
#include "lite/optimizer/ssa_graph.h"
#include "lite/optimizer/sub_block_passes.h"

namespace lite {

namespace {

bool TargetsNpu(const std::vector<Place>& places) {
  for (const Place& p : places) {
    if (p.target == TargetType::kNPU) return true;
  }
  return false;
}

Status CheckOptions(const OptimizeOptions& options) {
  if (options.valid_places.empty()) return InvalidArgument("no valid places given");
  RETURN_IF_ERROR(CheckPlacesInBuild(options.valid_places));
  if (options.enable_fp16) RETURN_IF_ERROR(CheckArmFp16(options.valid_places));
  if (!options.npu.driver_paths.empty() && !TargetsNpu(options.valid_places)) {
    return InvalidArgument("npu driver paths are set but no valid place targets npu");
  }
  return Status::OK();
}

// What the manager hands its passes and how it instruments them.
mir::PassManagerOptions ManagerOptions(const OptimizeOptions& options) {
  mir::PassManagerOptions pm;
  pm.pass_options.Set(options.npu);
  pm.disabled_passes.insert(options.disabled_passes.begin(), options.disabled_passes.end());
  pm.dot_mode = options.dot_mode;
  pm.dot_pass = options.dot_pass;
  pm.on_pass_done = options.on_pass_done;
  return pm;
}

}  // namespace

StatusOr<OptimizeResult> OptimizeProgram(const cpp::ProgramDesc& program,
                                         Scope* root_scope,
                                         const OptimizeOptions& options) {
  RETURN_IF_ERROR(CheckOptions(options));
  // Plugins register their drivers before the subgraph pass asks for one.
  if (TargetsNpu(options.valid_places)) {
    RETURN_IF_ERROR(npu::LoadPluginDrivers(options.npu.driver_paths));
  }
  const auto& pipeline = options.pipeline.empty() ? mir::DefaultPipeline() : options.pipeline;
  // 0. The pipeline's host-safe rewrites inside control-flow sub-blocks
  //    (no DOT snapshots there: those show the main block).
  cpp::ProgramDesc rewritten = program;
  mir::PassManagerOptions sub_options = ManagerOptions(options);
  sub_options.dot_mode = mir::DotDumpMode::kNone;
  sub_options.on_pass_done = nullptr;  // reported below, named by block
  mir::PassManager sub_manager(sub_options);
  mir::PassReport sub_report;
  RETURN_IF_ERROR(mir::RunSubBlockPasses(&rewritten, root_scope, &sub_manager,
                                         mir::SubBlockPasses(pipeline), &sub_report));
  mir::SSAGraph graph;
  RETURN_IF_ERROR(graph.Build(rewritten, 0, root_scope, options.valid_places));
  OptimizeResult result;
  if (options.dot_mode != mir::DotDumpMode::kNone) {
    result.dot_before = mir::GraphToDot(graph, "loaded graph");
  }
  mir::PassManager manager(ManagerOptions(options));

  // 1. Graph passes: the pipeline list, rewriting the SSA graph (block 0).
  ASSIGN_OR_RETURN(result.report, manager.Run(&graph, pipeline));
  for (mir::PassRecord& rec : sub_report.passes) {
    rec.index = static_cast<int>(result.report.passes.size()) + 1;
    if (options.on_pass_done) options.on_pass_done(rec);
    result.report.passes.push_back(std::move(rec));
  }
  // 2. Lowering: the graph becomes the program (ops in execution order, each
  //    carrying its picked kernel).
  ASSIGN_OR_RETURN(result.program, manager.Lower(graph, &result.report));
  if (options.enable_fp16) {
    const auto start = std::chrono::steady_clock::now();
    ASSIGN_OR_RETURN(const ArmFp16Summary fp16,
                     ApplyArmFp16(&result.program, graph.block_idx(), root_scope));
    // Reported as a program step: "arm_fp16 ... fp16_convs=N
    // kept_f32_subnormal_filter=M" in opt's pass list.
    mir::PassRecord rec;
    rec.name = "arm_fp16";
    rec.kind = mir::StepKind::kProgramStep;
    rec.ran = true;
    rec.millis = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() -
                                                           start).count();
    rec.changed = fp16.fp16_convs > 0;
    rec.counters = {{"fp16_convs", fp16.fp16_convs},
                    {"kept_f32_subnormal_filter", fp16.kept_f32_subnormal_filter}};
    rec.ops_after = static_cast<int>(result.program.blocks[graph.block_idx()].ops.size());
    rec.index = static_cast<int>(result.report.passes.size()) + 1;
    if (options.on_pass_done) options.on_pass_done(rec);
    result.report.passes.push_back(std::move(rec));
  }
  // 3. Program steps: memory planning on the program.
  RETURN_IF_ERROR(manager.RunProgramSteps(&result.program, graph.block_idx(),
                                          mir::DefaultProgramSteps(), &result.report));
  return result;
}

}  // namespace lite
