#include "lite/api/predictor_runtime.h"

#include <algorithm>
#include <exception>
#include <new>
#include <map>

#include "lite/api/saving.h"
#include "lite/core/cpu_budget.h"
#include "lite/core/program_validator.h"
#include "lite/kernels/npu/npu_context.h"
#include "lite/utils/logging.h"
#include "lite/utils/memory.h"

namespace lite {

namespace {
// Collects var names by column for feed (outputs) or fetch (inputs) ops, and
// the name of the list var they use.
Status CollectColumns(const cpp::BlockDesc& block, const std::string& op_type,
                      std::vector<std::string>* names, std::string* list_var) {
  std::map<int, std::string> by_col;
  for (const auto& op : block.ops) {
    if (op.Type() != op_type) continue;
    int col = op.GetAttr<int32_t>("col", 0);
    const bool feed = op_type == "feed";
    const auto& var = feed ? op.Output("Out") : op.Input("X");
    const auto& list = feed ? op.Input("X") : op.Output("Out");
    if (var.empty() || list.empty()) return InvalidArgument(op_type + " op without X/Out");
    if (by_col.count(col)) {
      return InvalidArgument("two " + op_type + " ops use column " + std::to_string(col));
    }
    by_col[col] = var.front();
    *list_var = list.front();
  }
  int expect = 0;
  for (const auto& kv : by_col) {
    if (kv.first != expect++) {
      return InvalidArgument(op_type + " columns are not 0..n-1 (missing column " +
                             std::to_string(expect - 1) + ")");
    }
    names->push_back(kv.second);
  }
  return Status::OK();
}
}  // namespace

StatusOr<std::unique_ptr<PredictorRuntime>> PredictorRuntime::Create(
    const cpp::ProgramDesc& program, std::shared_ptr<Scope> root, int threads,
    const NpuOptions& npu) {
  constexpr int kMaxThreads = 256;
  if (threads > kMaxThreads) {
    return InvalidArgument("threads = " + std::to_string(threads) + " is above the maximum of " +
                           std::to_string(kMaxThreads));
  }
  RETURN_IF_ERROR(ValidateProgram(program));
  // Large activations mmapped and unmapped on free (lite/utils/memory.h).
  ConfigureHeap();
  auto rt = std::unique_ptr<PredictorRuntime>(new PredictorRuntime);
  rt->program_ = program;
  rt->root_ = std::move(root);
  rt->exec_scope_ = rt->root_->NewScope();
  const cpp::BlockDesc& block = program.blocks[0];
  std::string feed_var = "feed", fetch_var = "fetch";
  RETURN_IF_ERROR(CollectColumns(block, "feed", &rt->input_names_, &feed_var));
  RETURN_IF_ERROR(CollectColumns(block, "fetch", &rt->output_names_, &fetch_var));
  rt->feed_var_ = feed_var;
  rt->fetch_var_ = fetch_var;
  rt->feed_list_ = rt->exec_scope_->Var(feed_var)->GetMutableTensorList();
  rt->fetch_list_ = rt->exec_scope_->Var(fetch_var)->GetMutableTensorList();
  rt->feed_list_->resize(rt->input_names_.size());
  rt->fetch_list_->resize(rt->output_names_.size());
  const ThreadCap cap = CapThreads(threads);
  if (!cap.note.empty()) LogMessage(LogSeverity::kInfo, cap.note);
  rt->threads_ = cap.threads;
  rt->npu_ = npu;
  rt->set_adaptive_threads(true);
  // The twin's exec scope is made now, not when the twin is first needed:
  // clones share the root scope and may run on other threads, and adding a
  // child to it is not thread-safe.
  if (rt->threads_ > 1) rt->single_thread_scope_ = rt->root_->NewScope();
  std::vector<std::unique_ptr<TargetContext>> targets;
  targets.push_back(kernels::npu::MakeNpuContext(npu));
  ASSIGN_OR_RETURN(rt->runtime_, BuildRuntimeProgram(rt->program_, rt->exec_scope_, cap.threads,
                                                     std::move(targets)));
  if (!kernels::npu::SubgraphRecordsOf(*rt->runtime_->context()).empty()) {
    LogMessage(LogSeverity::kInfo, rt->GetPlacementReport().Summary());
  }
  return rt;
}

std::unique_ptr<paddle::lite_api::Tensor> PredictorRuntime::GetInput(int i) {
  if (i < 0 || i >= static_cast<int>(feed_list_->size())) return nullptr;
  return std::make_unique<paddle::lite_api::Tensor>(&(*feed_list_)[i]);
}

std::unique_ptr<const paddle::lite_api::Tensor> PredictorRuntime::GetOutput(int i) const {
  if (i < 0 || i >= static_cast<int>(fetch_list_->size())) return nullptr;
  return std::make_unique<const paddle::lite_api::Tensor>(&(*fetch_list_)[i]);
}

std::unique_ptr<paddle::lite_api::Tensor> PredictorRuntime::GetMutableOutput(int i) {
  if (i < 0 || i >= static_cast<int>(fetch_list_->size())) return nullptr;
  return std::make_unique<paddle::lite_api::Tensor>(&(*fetch_list_)[i]);
}

std::vector<paddle::lite_api::TensorInfo> PredictorRuntime::InfosOf(
    const std::vector<std::string>& names) const {
  std::vector<paddle::lite_api::TensorInfo> infos;
  for (const auto& name : names) {
    paddle::lite_api::TensorInfo info;
    info.name = name;
    if (const cpp::VarDesc* vd = program_.blocks[0].FindVar(name)) {
      info.shape = vd->dims;
      info.dtype = vd->dtype;
      info.lod_level = vd->lod_level;
    }
    infos.push_back(info);
  }
  return infos;
}

StatusOr<std::unique_ptr<paddle::lite_api::Tensor>> PredictorRuntime::GetInputByName(
    const std::string& name) {
  for (size_t i = 0; i < input_names_.size(); ++i) {
    if (input_names_[i] == name) return GetInput(static_cast<int>(i));
  }
  std::string known;
  for (const auto& n : input_names_) known += (known.empty() ? "" : ", ") + n;
  return NotFound("model has no input named '" + name + "' (inputs: " + known + ")");
}

StatusOr<std::unique_ptr<const paddle::lite_api::Tensor>> PredictorRuntime::GetOutputByName(
    const std::string& name) const {
  for (size_t i = 0; i < output_names_.size(); ++i) {
    if (output_names_[i] == name) return GetOutput(static_cast<int>(i));
  }
  std::string known;
  for (const auto& n : output_names_) known += (known.empty() ? "" : ", ") + n;
  return NotFound("model has no output named '" + name + "' (outputs: " + known + ")");
}

Status PredictorRuntime::CheckInputs() const {
  const cpp::BlockDesc& block = program_.blocks[0];
  for (size_t i = 0; i < input_names_.size(); ++i) {
    const std::string& name = input_names_[i];
    const Tensor& t = (*feed_list_)[i];
    const std::string which = "input '" + name + "' (feed col " + std::to_string(i) + ")";
    if (!t.IsInitialized()) return FailedPrecondition(which + " was not set before Run()");
    if (Product(t.dims()) < 0) {
      return InvalidArgument(which + " has negative dims " + DimsToString(t.dims()));
    }
    if (t.memory_size() > t.buffer_bytes()) {
      return InvalidArgument(which + " has shape " + DimsToString(t.dims()) + " (" +
                             std::to_string(t.memory_size()) + " bytes) but holds only " +
                             std::to_string(t.buffer_bytes()) +
                             " bytes of data: set the data after the last Resize");
    }
    const cpp::VarDesc* vd = block.FindVar(name);
    if (!vd) continue;
    if (vd->dtype != DataType::kUnknown && t.dtype() != vd->dtype) {
      return InvalidArgument(which + " has dtype " + DataTypeName(t.dtype()) +
                             " but the model expects " + DataTypeName(vd->dtype));
    }
    // Spatial dims of a 4-D input may differ (see FeedShapeFits); the ops
    // check the sizes they depend on.
    if (!FeedShapeFits(vd->dims, t.dims())) {
      return InvalidArgument(which + " has shape " + DimsToString(t.dims()) +
                             " but the model expects " + DimsToString(vd->dims) +
                             " (-1 = any)");
    }
  }
  return Status::OK();
}

bool FeedShapeFits(const std::vector<int64_t>& declared, const std::vector<int64_t>& shape) {
  if (declared.empty()) return true;
  if (declared.size() != shape.size()) return false;
  for (size_t d = 0; d < declared.size(); ++d) {
    const bool spatial = declared.size() == 4 && d >= 2;
    if (!spatial && declared[d] >= 0 && declared[d] != shape[d]) return false;
  }
  return true;
}

Status PredictorRuntime::SaveOptimizedModel(const std::string& path,
                                            paddle::lite_api::ModelType type) {
  std::vector<DeviceRecord> compiled;
  if (npu_.compiled) {
    for (const CompiledSubgraph& e : npu_.compiled->All()) compiled.push_back(ToDeviceRecord(e));
  }
  if (npu_.save_compiled && type != paddle::lite_api::ModelType::kNaiveBuffer) {
    return InvalidArgument(path + ": compiled subgraphs (save_compiled) are stored only in "
                           "naive_buffer (.nb) models");
  }
  return SaveOptimizedVerified(program_, *root_, path, type, VerifyWritten(), nullptr, compiled);
}

StatusOr<std::shared_ptr<paddle::lite_api::PaddlePredictor>> PredictorRuntime::Clone() {
  ASSIGN_OR_RETURN(std::unique_ptr<PredictorRuntime> clone,
                   PredictorRuntime::Create(program_, root_, threads_, npu_));
  clone->set_pass_log(pass_log_, dots_);
  clone->set_adaptive_threads(adaptive_threads());
  clone->budget_.set_limit_bytes(budget_.limit_bytes());
  if (buckets_) RETURN_IF_ERROR(clone->set_shape_buckets(buckets_->options()));
  return std::shared_ptr<paddle::lite_api::PaddlePredictor>(std::move(clone));
}

Status PredictorRuntime::Run() {
  RETURN_IF_ERROR(CheckInputs());
  if (!buckets_) return RunFeeds();
  // Shape buckets: the feed padded for the run, the caller's put back after
  // it, the outputs cropped (shape_buckets.h).
  RETURN_IF_ERROR(buckets_->Pad(feed_list_, *fetch_list_));
  Status status = RunFeeds();
  bool check_run = false;
  Status cropped = buckets_->Finish(feed_list_, fetch_list_, status.ok(), &check_run);
  if (status.ok() && cropped.ok() && check_run) {
    // The inferred crop's check: the input padded one bucket further.
    status = RunFeeds();
    cropped = buckets_->Checked(feed_list_, fetch_list_, status.ok());
  }
  RETURN_IF_ERROR(status);
  if (!cropped.ok()) {
    // The outputs are a padded run's: cleared, so none is read as cropped.
    for (Tensor& t : *fetch_list_) t = Tensor();
    return cropped;
  }
  return Status::OK();
}

Status PredictorRuntime::RunFeeds() {
  // Nothing may escape into the caller's process: an allocation beyond
  // memory (or the per-tensor limit) becomes an error naming no op, the
  // predictor stays usable.
  // The inputs' dims and LoD key the arena memory plan (arena_plan.h).
  std::string signature, feeds;
  int64_t elements = 0;
  for (size_t i = 0; i < feed_list_->size(); ++i) {
    const Tensor& t = (*feed_list_)[i];
    signature += DimsToString(t.dims());
    for (const auto& level : t.lod()) {
      signature += "/";
      for (uint64_t v : level) signature += std::to_string(v) + ",";
    }
    signature += ";";
    elements += std::max<int64_t>(0, t.numel());
    // Named only for the budget's refusal.
    if (budget_.limit_bytes() > 0) {
      feeds += (feeds.empty() ? "input '" : ", '") + input_names_[i] + "' " +
               DimsToString(t.dims());
    }
  }
  // The memory budget sees the program that runs (the single-threaded twin
  // once the governor picks it and it exists; it is built on its first run).
  const bool single = governor_ && governor_->threads() < threads_;
  auto program = [&] { return single && single_thread_ ? single_thread_.get() : runtime_.get(); };
  auto programs = [&] { return std::vector<RuntimeProgram*>{runtime_.get(), single_thread_.get()}; };
  const bool budget = budget_.limit_bytes() > 0;
  if (budget) RETURN_IF_ERROR(budget_.BeforeRun(program(), programs(), signature, elements, feeds));
  if (!governor_) {
    Status status = RunProgram(runtime_.get(), signature, elements);
    if (budget) budget_.AfterRun(program(), programs(), status.ok());
    return status;
  }
  governor_->BeginRun();
  Status status = single ? RunSingleThreaded(signature, elements)
                         : RunProgram(runtime_.get(), signature, elements);
  governor_->EndRun();
  if (budget) budget_.AfterRun(program(), programs(), status.ok());
  if (!governor_->change_note().empty()) {
    LogMessage(LogSeverity::kInfo, governor_->change_note());
  }
  return status;
}

Status PredictorRuntime::RunProgram(RuntimeProgram* program, const std::string& signature,
                                    int64_t elements) {
  try {
    return program->Run(signature, elements);
  } catch (const std::bad_alloc&) {
    return Internal(OutOfMemoryWhileRunning());
  } catch (const std::exception& e) {
    return Internal(std::string("run failed: ") + e.what());
  }
}

Status PredictorRuntime::RunSingleThreaded(const std::string& signature, int64_t elements) {
  if (!single_thread_scope_) return Internal("no exec scope for the single-threaded program");
  if (!single_thread_) {
    std::vector<std::unique_ptr<TargetContext>> targets;
    targets.push_back(kernels::npu::MakeNpuContext(npu_));
    ASSIGN_OR_RETURN(single_thread_, BuildRuntimeProgram(program_, single_thread_scope_, 1,
                                                         std::move(targets)));
    single_thread_->set_profiling(profiling_);
  }
  auto* feeds = single_thread_scope_->Var(feed_var_)->GetMutableTensorList();
  auto* fetches = single_thread_scope_->Var(fetch_var_)->GetMutableTensorList();
  feeds->resize(feed_list_->size());
  fetches->resize(fetch_list_->size());
  for (size_t i = 0; i < feed_list_->size(); ++i) (*feeds)[i].ShareDataWith((*feed_list_)[i]);
  RETURN_IF_ERROR(RunProgram(single_thread_.get(), signature, elements));
  for (size_t i = 0; i < fetch_list_->size(); ++i) (*fetch_list_)[i].ShareDataWith((*fetches)[i]);
  return Status::OK();
}

void PredictorRuntime::set_adaptive_threads(bool on) {
  governor_ = on && threads_ > 1 ? std::make_unique<ThreadGovernor>(threads_) : nullptr;
}

namespace {
std::string WithSingleThreaded(std::string main, const RuntimeProgram* single, bool detail) {
  if (!single) return main;
  const std::string extra = detail ? single->ProfileDetail() : single->ProfileSummary();
  if (extra.empty()) return main;
  return main + "runs on 1 thread (adaptive threads, another process was busy):\n" + extra;
}
}  // namespace

std::string PredictorRuntime::GetProfileSummary() const {
  return WithSingleThreaded(runtime_->ProfileSummary(), single_thread_.get(), false);
}

std::string PredictorRuntime::GetProfileDetail() const {
  return WithSingleThreaded(runtime_->ProfileDetail(), single_thread_.get(), true);
}

void PredictorRuntime::ResetProfile() {
  runtime_->ResetProfile();
  if (single_thread_) single_thread_->ResetProfile();
}

Status PredictorRuntime::set_memory_limit_mb(int mb) {
  if (mb < 0) {
    return InvalidArgument("memory_limit_mb = " + std::to_string(mb) +
                           " is negative (0 means no limit)");
  }
  budget_.set_limit_bytes(static_cast<int64_t>(mb) * 1024 * 1024);
  return Status::OK();
}

Status PredictorRuntime::set_shape_buckets(const paddle::lite_api::ShapeBuckets& options) {
  RETURN_IF_ERROR(ShapeBucketer::Validate(options, output_names_));
  buckets_ = options.multiple > 0
                 ? std::make_unique<ShapeBucketer>(options, input_names_, output_names_)
                 : nullptr;
  return Status::OK();
}

paddle::lite_api::MemoryStats PredictorRuntime::GetMemoryStats() const {
  paddle::lite_api::MemoryStats stats;
  stats.rss_bytes = ProcessRssBytes();
  for (const RuntimeProgram* p : {runtime_.get(), single_thread_.get()}) {
    if (!p) continue;
    if (p->arena_plan()) stats.arena_bytes += static_cast<int64_t>(p->arena_plan()->arena_bytes());
    const BufferPool& pool = p->context()->buffers;
    stats.pool_free_bytes += static_cast<int64_t>(pool.free_bytes());
    stats.pool_peak_bytes += static_cast<int64_t>(pool.peak_bytes());
    stats.npu_cached_shapes += kernels::npu::NpuCachedShapes(*p->context());
    if (auto* npu = p->context()->target_context<kernels::npu::NpuContext>(TargetType::kNPU)) {
      stats.npu_evictions += npu->evictions;
    }
  }
  budget_.Fill(&stats);
  if (buckets_) buckets_->Fill(&stats);
  stats.process_caches = DescribeProcessCaches();
  return stats;
}

void PredictorRuntime::set_profiling(bool on) {
  profiling_ = on;
  runtime_->set_profiling(on);
  if (single_thread_) single_thread_->set_profiling(on);
}

}  // namespace lite
