// The full predictor: loads a Paddle model, runs the pass pipeline, and
// executes the optimized program. It can save what it optimized.
#include <exception>
#include <new>

#include "lite/api/optimizer.h"
#include "lite/api/paddle_api.h"
#include "lite/api/predictor_runtime.h"
#include "lite/core/program_validator.h"
#include "lite/utils/file_util.h"
#include "lite/model_parser/model_loader.h"

namespace paddle {
namespace lite_api {

namespace {

lite::mir::DotDumpMode ToDotMode(DotDump mode) {
  switch (mode) {
    case DotDump::kNone: return lite::mir::DotDumpMode::kNone;
    case DotDump::kNamedPass: return lite::mir::DotDumpMode::kNamedPass;
    case DotDump::kEveryPass: return lite::mir::DotDumpMode::kEveryPass;
    case DotDump::kChangedPasses: return lite::mir::DotDumpMode::kChangedPasses;
  }
  return lite::mir::DotDumpMode::kNone;
}

StatusOr<std::shared_ptr<PaddlePredictor>> CreateFull(const CxxConfig& config) {
  lite::ModelSource source;
  source.model_dir = config.model_dir();
  source.model_file = config.model_file();
  source.params_file = config.param_file();
  source.model_buffer = config.model_buffer();
  source.params_buffer = config.params_buffer();
  auto root = std::make_shared<lite::Scope>();
  lite::cpp::ProgramDesc program;
  RETURN_IF_ERROR(lite::LoadModel(source, &program, root.get()));
  RETURN_IF_ERROR(lite::ValidateProgram(program));
  lite::OptimizeOptions options;
  options.valid_places = config.valid_places();
  options.disabled_passes = config.disabled_passes();
  options.dot_mode = ToDotMode(config.dot_mode());
  options.dot_pass = config.dot_pass();
  options.npu = config.npu_options();
  options.enable_fp16 = config.fp16_enabled();
  if (!config.npu_partition_file().empty()) {
    RETURN_IF_ERROR(lite::ReadFileToString(config.npu_partition_file(),
                                           &options.npu.partition_text)
                        .WithContext("npu partition file"));
  }
  if (options.npu.save_compiled && !options.npu.compiled) {
    options.npu.compiled = std::make_shared<lite::CompiledSubgraphStore>();
  }
  ASSIGN_OR_RETURN(auto result, lite::OptimizeProgram(program, root.get(), options));
  std::vector<PassDot> dots;
  if (!result.dot_before.empty()) dots.push_back({"(loaded)", false, result.dot_before});
  for (const auto& rec : result.report.passes) {
    if (!rec.dot_after.empty()) dots.push_back({rec.name, rec.changed, rec.dot_after});
  }
  ASSIGN_OR_RETURN(auto runtime, lite::PredictorRuntime::Create(result.program, root,
                                                                config.threads(), options.npu));
  runtime->set_profiling(config.profiling());
  runtime->set_adaptive_threads(config.adaptive_threads());
  RETURN_IF_ERROR(runtime->set_memory_limit_mb(config.memory_limit_mb()));
  RETURN_IF_ERROR(runtime->set_shape_buckets(config.shape_buckets()));
  runtime->set_pass_log(result.report.ToString(), std::move(dots));
  return std::shared_ptr<PaddlePredictor>(std::move(runtime));
}

}  // namespace

template <>
StatusOr<std::shared_ptr<PaddlePredictor>> CreatePaddlePredictor<CxxConfig>(
    const CxxConfig& config) {
  try {
    return CreateFull(config);
  } catch (const std::bad_alloc&) {
    return lite::Internal("out of memory while creating the predictor");
  } catch (const std::exception& e) {
    return lite::Internal(std::string("predictor creation failed: ") + e.what());
  }
}

}  // namespace lite_api
}  // namespace paddle
