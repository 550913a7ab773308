// The light predictor: loads an optimized naive-buffer model (.nb, written by
// tools/opt or SaveOptimizedModel) and executes it as recorded - no passes,
// every op runs the kernel picked at optimization time. Shares the runtime
// (feeds, fetches, input checks) with the full predictor.
#include "lite/api/paddle_api.h"
#include "lite/api/predictor_runtime.h"
#include "lite/api/saving.h"
#include "lite/model_parser/naive_buffer/naive_buffer.h"

namespace paddle {
namespace lite_api {

namespace {

class LightPredictor : public PaddlePredictor {
 public:
  Status Init(const MobileConfig& config) {
    const bool file = !config.model_file().empty();
    const bool buffer = !config.model_buffer().empty();
    if (file == buffer) {
      return lite::InvalidArgument(
          file ? "MobileConfig: set either a model file or a model buffer, not both"
               : "MobileConfig: no model set (set_model_from_file or set_model_from_buffer)");
    }
    root_ = std::make_shared<lite::Scope>();
    lite::cpp::ProgramDesc program;
    if (file) {
      RETURN_IF_ERROR(
          lite::naive_buffer::LoadFromFile(config.model_file(), &program, root_.get()));
    } else {
      RETURN_IF_ERROR(lite::naive_buffer::LoadFromBuffer(
          config.model_buffer(), lite::naive_buffer::kNbBufferName, &program, root_.get()));
    }
    const std::string name = file ? config.model_file() : lite::naive_buffer::kNbBufferName;
    auto rt = lite::PredictorRuntime::Create(program, root_, config.threads());
    if (!rt.ok()) return rt.status().WithContext(name);
    runtime_ = std::move(rt).value();
    return Status::OK();
  }

  std::unique_ptr<Tensor> GetInput(int i) override { return runtime_->GetInput(i); }
  std::unique_ptr<const Tensor> GetOutput(int i) const override {
    return runtime_->GetOutput(i);
  }
  StatusOr<std::unique_ptr<Tensor>> GetInputByName(const std::string& name) override {
    return runtime_->GetInputByName(name);
  }
  std::vector<std::string> GetInputNames() const override { return runtime_->input_names(); }
  std::vector<std::string> GetOutputNames() const override {
    return runtime_->output_names();
  }
  Status Run() override { return runtime_->Run(); }
  // Re-saves the loaded (already optimized) program; the weights are the
  // ones loaded, never modified by a run.
  Status SaveOptimizedModel(const std::string& path, ModelType type) override {
    return lite::SaveOptimized(runtime_->program(), runtime_->root_scope(), path, type);
  }
  std::string GetPassLog() const override { return ""; }
  std::vector<PassDot> GetPassDots() const override { return {}; }

 private:
  std::shared_ptr<lite::Scope> root_;
  std::unique_ptr<lite::PredictorRuntime> runtime_;
};

}  // namespace

template <>
StatusOr<std::shared_ptr<PaddlePredictor>> CreatePaddlePredictor<MobileConfig>(
    const MobileConfig& config) {
  auto predictor = std::make_shared<LightPredictor>();
  RETURN_IF_ERROR(predictor->Init(config));
  return std::shared_ptr<PaddlePredictor>(predictor);
}

}  // namespace lite_api
}  // namespace paddle
