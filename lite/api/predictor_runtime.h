// PredictorRuntime: the PaddlePredictor both CreatePaddlePredictor<CxxConfig>
// and <MobileConfig> return once they have loaded (and, for the full one,
// optimized) a model: the exec scope, the RuntimeProgram, the feed/fetch
// columns, the input checks before a run, the Tensor handles, saving,
// cloning, the placement report and the pass log.
//
// A runtime shares ownership of the root scope (weights), owns its exec scope
// (a child of the root) and its program. Clones share the root scope and the
// program text but own their exec scopes, so they can run on other threads.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "lite/api/memory_budget.h"
#include "lite/api/paddle_api.h"
#include "lite/api/shape_buckets.h"
#include "lite/core/program.h"
#include "lite/core/thread_governor.h"
#include "lite/base/scope.h"
#include "lite/base/program_desc.h"

namespace lite {

// Whether a feed of `shape` fits the model's declared dims: same rank and
// equal fixed dims (-1 = any), except the spatial dims of a 4-D (NCHW) input,
// which are the export-time size and not a contract (PaddleOCR's slim
// classifier declares 32x100 and runs at 48x192). Every run applies it to the
// feeds; the Python binding checks with it before copying. Empty declared
// dims accept any feed.
bool FeedShapeFits(const std::vector<int64_t>& declared, const std::vector<int64_t>& shape);

class PredictorRuntime : public paddle::lite_api::PaddlePredictor {
 public:
  // `program` is optimized (block 0 in execution order with kernel keys).
  // Device subgraphs compile here (see BuildRuntimeProgram) with `npu`'s
  // run-time settings; when any exist, one summary line is logged.
  // `threads` is capped to the CPUs the process may use (cpu_budget.h, one
  // line when it is); with more than one, a ThreadGovernor may run
  // single-threaded while the CPUs are shared (see Run).
  static StatusOr<std::unique_ptr<PredictorRuntime>> Create(
      const cpp::ProgramDesc& program, std::shared_ptr<Scope> root, int threads,
      const NpuOptions& npu = NpuOptions());

  std::unique_ptr<paddle::lite_api::Tensor> GetInput(int i) override;
  std::unique_ptr<const paddle::lite_api::Tensor> GetOutput(int i) const override;
  std::unique_ptr<paddle::lite_api::Tensor> GetMutableOutput(int i) override;
  std::vector<paddle::lite_api::TensorInfo> GetInputInfos() const override {
    return InfosOf(input_names_);
  }
  std::vector<paddle::lite_api::TensorInfo> GetOutputInfos() const override {
    return InfosOf(output_names_);
  }
  StatusOr<std::unique_ptr<paddle::lite_api::Tensor>> GetInputByName(
      const std::string& name) override;
  StatusOr<std::unique_ptr<const paddle::lite_api::Tensor>> GetOutputByName(
      const std::string& name) const override;
  std::vector<std::string> GetInputNames() const override { return input_names_; }
  std::vector<std::string> GetOutputNames() const override { return output_names_; }
  Status Run() override;
  Status SaveOptimizedModel(const std::string& path,
                            paddle::lite_api::ModelType type) override;
  // A runtime of its own on the same root scope, program and settings.
  StatusOr<std::shared_ptr<paddle::lite_api::PaddlePredictor>> Clone() override;
  std::string GetPassLog() const override { return pass_log_; }
  std::vector<paddle::lite_api::PassDot> GetPassDots() const override { return dots_; }
  paddle::lite_api::PlacementReport GetPlacementReport() const override;
  // The profile of the runs on `threads()`, followed (under a header line)
  // by that of the runs the governor sent to one thread, if any.
  std::string GetProfileSummary() const override;
  std::string GetProfileDetail() const override;
  void ResetProfile() override;
  paddle::lite_api::MemoryStats GetMemoryStats() const override;
  // ConfigBase::set_memory_limit_mb (MemoryBudget); negative is an error.
  Status set_memory_limit_mb(int mb);
  // ConfigBase::set_shape_buckets (ShapeBucketer); errors as Validate's.
  Status set_shape_buckets(const paddle::lite_api::ShapeBuckets& options);

  // The full predictor's optimizer report (clones keep it).
  void set_pass_log(std::string log, std::vector<paddle::lite_api::PassDot> dots) {
    pass_log_ = std::move(log);
    dots_ = std::move(dots);
  }
  void set_profiling(bool on);
  const cpp::ProgramDesc& program() const { return program_; }
  // The program being run (tests inspect its arena plan).
  const RuntimeProgram& runtime_program() const { return *runtime_; }
  const Scope& root_scope() const { return *root_; }
  // Threads after the CPU cap, and those the next run will use.
  int threads() const { return threads_; }
  int active_threads() const { return governor_ ? governor_->threads() : threads_; }
  // Adaptive threads (ConfigBase::set_adaptive_threads): a governor or none.
  void set_adaptive_threads(bool on);
  bool adaptive_threads() const { return governor_ != nullptr; }
  // Replaces the governor (tests drive it with made-up counters).
  void set_thread_governor(std::unique_ptr<ThreadGovernor> governor) {
    governor_ = std::move(governor);
  }

 private:
  Status CheckInputs() const;
  // One run of the feeds as they are (Run pads and crops around it).
  Status RunFeeds();
  // Runs the program once on `signature` (`elements`: the inputs' element
  // count, RuntimeProgram::Run), turning exceptions into Status.
  Status RunProgram(RuntimeProgram* program, const std::string& signature, int64_t elements);
  // One run on the single-threaded twin (built on first need in a sibling
  // exec scope: the main scope's tensors hold the last run's dims, which
  // kernels building ahead must not see): the feeds are shared into the
  // twin's feed list and its fetches shared back into ours, so the handles
  // callers hold stay valid.
  Status RunSingleThreaded(const std::string& signature, int64_t elements);
  std::vector<paddle::lite_api::TensorInfo> InfosOf(const std::vector<std::string>& names) const;

  cpp::ProgramDesc program_;
  std::shared_ptr<Scope> root_;
  int threads_ = 1;
  NpuOptions npu_;
  Scope* exec_scope_ = nullptr;
  std::unique_ptr<RuntimeProgram> runtime_;
  bool profiling_ = false;
  std::unique_ptr<ThreadGovernor> governor_;     // null with one thread
  std::unique_ptr<RuntimeProgram> single_thread_;  // the twin, once needed
  Scope* single_thread_scope_ = nullptr;           // its exec scope (child of root,
                                                   // made at creation with threads > 1)
  std::vector<std::string> input_names_;   // by feed col
  std::vector<std::string> output_names_;  // by fetch col
  std::string feed_var_, fetch_var_;  // names of the feed and fetch lists
  std::vector<Tensor>* feed_list_ = nullptr;
  std::vector<Tensor>* fetch_list_ = nullptr;
  std::string pass_log_;
  std::vector<paddle::lite_api::PassDot> dots_;
  MemoryBudget budget_;
  std::unique_ptr<ShapeBucketer> buckets_;  // null: buckets off
};

}  // namespace lite
