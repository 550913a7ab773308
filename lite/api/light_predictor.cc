// The light predictor: loads an optimized naive-buffer model (.nb, written by
// tools/opt or SaveOptimizedModel) and executes it as recorded - no passes,
// every op runs the kernel picked at optimization time. Shares the runtime
// (feeds, fetches, input checks) with the full predictor.
#include <exception>
#include <new>

#include "lite/api/paddle_api.h"
#include "lite/api/predictor_runtime.h"
#include "lite/backends/npu/plugin/plugin_loader.h"
#include "lite/model_parser/naive_buffer/naive_buffer.h"

namespace paddle {
namespace lite_api {

namespace {

StatusOr<std::shared_ptr<PaddlePredictor>> CreateLight(const MobileConfig& config) {
  const bool file = !config.model_file().empty();
  const bool buffer = !config.model_buffer().empty();
  if (file == buffer) {
    return lite::InvalidArgument(
        file ? "MobileConfig: set either a model file or a model buffer, not both"
             : "MobileConfig: no model set (set_model_from_file or set_model_from_buffer)");
  }
  // Subgraph kernels may name a plugin's driver: load plugins first.
  RETURN_IF_ERROR(lite::npu::LoadPluginDrivers(config.npu_options().driver_paths));
  auto root = std::make_shared<lite::Scope>();
  lite::cpp::ProgramDesc program;
  std::vector<lite::DeviceRecord> compiled;
  if (file) {
    RETURN_IF_ERROR(lite::naive_buffer::LoadFromFile(config.model_file(), &program, root.get(),
                                                     nullptr, &compiled));
  } else {
    RETURN_IF_ERROR(lite::naive_buffer::LoadFromBuffer(config.model_buffer(),
                                                       lite::naive_buffer::kNbBufferName,
                                                       &program, root.get(), nullptr, &compiled));
  }
  const std::string name = file ? config.model_file() : lite::naive_buffer::kNbBufferName;
  // The file's compiled subgraphs; the kernels decide (trust, key) whether
  // to use them, and a re-saved .nb keeps them.
  lite::NpuOptions npu = config.npu_options();
  if (!compiled.empty()) {
    npu.compiled = std::make_shared<lite::CompiledSubgraphStore>();
    for (const lite::DeviceRecord& record : compiled) {
      auto entry = lite::FromDeviceRecord(record);
      if (!entry.ok()) return entry.status().WithContext(name);
      npu.compiled->Put(std::move(*entry));
    }
  }
  auto rt = lite::PredictorRuntime::Create(program, root, config.threads(), npu);
  if (!rt.ok()) return rt.status().WithContext(name);
  (*rt)->set_profiling(config.profiling());
  (*rt)->set_adaptive_threads(config.adaptive_threads());
  RETURN_IF_ERROR((*rt)->set_memory_limit_mb(config.memory_limit_mb()));
  RETURN_IF_ERROR((*rt)->set_shape_buckets(config.shape_buckets()));
  return std::shared_ptr<PaddlePredictor>(std::move(rt).value());
}

}  // namespace

template <>
StatusOr<std::shared_ptr<PaddlePredictor>> CreatePaddlePredictor<MobileConfig>(
    const MobileConfig& config) {
  try {
    return CreateLight(config);
  } catch (const std::bad_alloc&) {
    return lite::Internal("out of memory while creating the predictor");
  } catch (const std::exception& e) {
    return lite::Internal(std::string("predictor creation failed: ") + e.what());
  }
}

}  // namespace lite_api
}  // namespace paddle
