// The full predictor: loads a Paddle model, runs the pass pipeline, and
// executes the optimized program. It can save what it optimized.
#include <sstream>

#include "lite/api/optimizer.h"
#include "lite/api/paddle_api.h"
#include "lite/api/predictor_runtime.h"
#include "lite/api/saving.h"
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

class CxxPredictor : public PaddlePredictor {
 public:
  Status Init(const CxxConfig& config) {
    lite::ModelSource source;
    source.model_dir = config.model_dir();
    source.model_file = config.model_file();
    source.params_file = config.param_file();
    source.model_buffer = config.model_buffer();
    source.params_buffer = config.params_buffer();
    root_ = std::make_shared<lite::Scope>();
    lite::cpp::ProgramDesc program;
    RETURN_IF_ERROR(lite::LoadModel(source, &program, root_.get()));
    lite::OptimizeOptions options;
    options.valid_places = config.valid_places();
    options.disabled_passes = config.disabled_passes();
    options.dot_mode = ToDotMode(config.dot_mode());
    options.dot_pass = config.dot_pass();
    options.device_options["npu.strict"] = config.npu_strict() ? "1" : "0";
    options.device_options["npu.driver"] = config.npu_driver();
    ASSIGN_OR_RETURN(auto result, lite::OptimizeProgram(program, root_.get(), options));
    report_ = std::move(result.report);
    if (!result.dot_before.empty()) dots_.push_back({"(loaded)", false, result.dot_before});
    for (const auto& rec : report_.passes) {
      if (!rec.dot_after.empty()) dots_.push_back({rec.name, rec.changed, rec.dot_after});
    }
    ASSIGN_OR_RETURN(runtime_, lite::PredictorRuntime::Create(result.program, root_,
                                                              config.threads()));
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
  Status SaveOptimizedModel(const std::string& path, ModelType type) override {
    return lite::SaveOptimized(runtime_->program(), runtime_->root_scope(), path, type);
  }
  std::string GetPassLog() const override { return report_.ToString(); }
  std::vector<PassDot> GetPassDots() const override { return dots_; }

 private:
  std::shared_ptr<lite::Scope> root_;
  std::unique_ptr<lite::PredictorRuntime> runtime_;
  lite::mir::PassReport report_;
  std::vector<PassDot> dots_;
};

}  // namespace

template <>
StatusOr<std::shared_ptr<PaddlePredictor>> CreatePaddlePredictor<CxxConfig>(
    const CxxConfig& config) {
  auto predictor = std::make_shared<CxxPredictor>();
  RETURN_IF_ERROR(predictor->Init(config));
  return std::shared_ptr<PaddlePredictor>(predictor);
}

}  // namespace lite_api
}  // namespace paddle
