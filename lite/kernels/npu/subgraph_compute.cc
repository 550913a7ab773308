#include "lite/kernels/npu/subgraph_compute.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "lite/kernels/npu/compiled_cache.h"
#include "lite/kernels/npu/npu_context.h"
#include "lite/kernels/npu/subgraph_converter.h"
#include "lite/utils/file_util.h"
#include "lite/utils/logging.h"
#include "lite/utils/memory.h"

namespace lite {
namespace kernels {
namespace npu {

using operators::SubgraphParam;

Status SubgraphCompute::Init() {
  auto& p = Param<SubgraphParam>();
  record_.id = p.subgraph_id;
  const NpuOptions& options = NpuContextOf(ctx())->options;
  record_.driver = options.driver.empty() ? p.driver : options.driver;
  ASSIGN_OR_RETURN(driver_, lite::npu::DriverRegistry::Global().Create(record_.driver));
  ASSIGN_OR_RETURN(origin_, BuildInstructions(*p.program, p.block_idx, p.scope, ctx()));
  for (const auto& inst : origin_) record_.ops.push_back(inst->op().DebugName());
  NpuContextOf(ctx())->subgraphs.push_back(&record_);
  NpuContextOf(ctx())->releasers.push_back([this] { return EvictDownTo(1); });
  NpuContextOf(ctx())->cached.push_back([this] { return static_cast<int>(compiled_.size()); });
  const std::string& cache_dir = NpuContextOf(ctx())->options.cache_dir;
  if (!cache_dir.empty()) RETURN_IF_ERROR(lite::npu::PrepareCompiledCacheDir(cache_dir));
  if (!InputsKnown()) {
    record_.reason = "input shapes are known only at the first run";
    return Status::OK();
  }
  auto compiled = CompileCurrent();
  compile_rss_before_ = -1;  // no run follows to measure it
  if (!compiled.ok()) return FallBack(compiled.status().message());
  record_.state = SubgraphRecord::State::kOnDevice;
  record_.reason.clear();
  return Status::OK();
}

std::vector<DDim> SubgraphCompute::InputSignature() const {
  std::vector<DDim> sig;
  for (const Tensor* t : Param<SubgraphParam>().inputs) sig.push_back(t->dims());
  return sig;
}

bool SubgraphCompute::InputsKnown() const {
  for (const Tensor* t : Param<SubgraphParam>().inputs) {
    if (t->dims().empty() || Product(t->dims()) < 0) return false;
  }
  return true;
}

Status SubgraphCompute::InferOriginShapes() {
  for (auto& inst : origin_) {
    RETURN_IF_ERROR(inst->InferShapeAhead().WithContext("shape inference"));
  }
  return Status::OK();
}

StatusOr<SubgraphCompute::Compiled*> SubgraphCompute::CompileCurrent() {
  std::vector<DDim> sig = InputSignature();
  auto it = compiled_.find(sig);
  if (it != compiled_.end()) {
    it->second.last_used = ++use_clock_;
    return &it->second;
  }
  // Room for the new executable before compiling it: the evicted ones'
  // workspaces are freed before the new one allocates its own. At most
  // max_cached_shapes, and all of them together (the new one included) no
  // larger than 1.5x the largest compiled so far: a stream of large sizes
  // then holds about one large executable, as a run of the largest alone
  // does, while a size alternating with one at most half its size, or a few
  // small sizes, still stay compiled together.
  NpuContext* npu = NpuContextOf(ctx());
  const size_t capacity = static_cast<size_t>(std::max(1, npu->max_cached_shapes));
  npu->evictions += EvictDownTo(capacity - 1);
  auto& p = Param<SubgraphParam>();
  RETURN_IF_ERROR(InferOriginShapes());
  const int64_t bytes = ActivationBytes();
  largest_bytes_ = std::max(largest_bytes_, bytes);
  npu->evictions += EvictToBytes(largest_bytes_ * 3 / 2 - bytes);
  compile_rss_before_ = ProcessRssBytes();
  compile_bytes_ = bytes;
  Compiled compiled;
  compiled.parts.resize(1);
  Part& whole = compiled.parts[0];
  whole.end = origin_.size();
  whole.inputs = p.input_names;
  whole.outputs = p.output_names;
  std::vector<std::string> notes;
  bool refused = false;
  Status s = BuildPart(&whole, &notes, &refused);
  record_.split.clear();
  record_.host_ops.clear();
  if (!s.ok()) {
    // Only a driver's refusal to compile is worth a split; a bridge failure
    // would repeat in every part.
    if (!refused || origin_.size() < 2) return s;
    notes.clear();
    auto parts = Split(s, &notes);
    if (!parts.ok()) return parts.status();
    compiled.parts = std::move(parts).value();
  }
  record_.compiled_note.clear();
  for (const auto& n : notes) {
    record_.compiled_note += (record_.compiled_note.empty() ? "" : "; ") + n;
  }
  if (!record_.compiled_note.empty()) {
    LogMessage(LogSeverity::kWarning, "npu: subgraph " + std::to_string(record_.id) +
                                          " compiles: " + record_.compiled_note);
  }
  compiled.last_used = ++use_clock_;
  compiled.bytes = bytes;
  return &(compiled_[sig] = std::move(compiled));
}

int64_t SubgraphCompute::InferAhead() {
  int64_t bytes = -1;
  if (InputsKnown() && InferOriginShapes().ok()) bytes = ActivationBytes();
  // The origin instructions re-infer on their next run (a fallback's): the
  // shapes set here, for a run the budget may refuse, are not taken as
  // that run's.
  for (auto& inst : origin_) inst->ForgetShapes();
  if (bytes < 0 || fell_back_) return bytes;
  if (compiled_.count(InputSignature())) return 0;
  const double ratio = compile_ratio_ > 0 ? compile_ratio_ : kFirstCompileRatio;
  return static_cast<int64_t>(ratio * static_cast<double>(bytes));
}

int64_t SubgraphCompute::ActivationBytes() const {
  int64_t bytes = 0;
  for (const auto& inst : origin_) {
    for (const auto& out : inst->op().output_tensors()) {
      if (out.second) bytes += std::max<int64_t>(0, Product(out.second->dims())) * 4;
    }
  }
  return bytes;
}

int SubgraphCompute::EvictToBytes(int64_t bytes) {
  int dropped = 0;
  for (;;) {
    int64_t held = 0;
    auto oldest = compiled_.end();
    for (auto it = compiled_.begin(); it != compiled_.end(); ++it) {
      held += it->second.bytes;
      if (oldest == compiled_.end() || it->second.last_used < oldest->second.last_used) oldest = it;
    }
    if (held <= bytes || oldest == compiled_.end()) return dropped;
    compiled_.erase(oldest);
    ++dropped;
  }
}

int SubgraphCompute::EvictDownTo(size_t keep) {
  int dropped = 0;
  while (compiled_.size() > keep) {
    auto oldest = compiled_.begin();
    for (auto it = compiled_.begin(); it != compiled_.end(); ++it) {
      if (it->second.last_used < oldest->second.last_used) oldest = it;
    }
    compiled_.erase(oldest);
    ++dropped;
  }
  return dropped;
}

Status SubgraphCompute::BuildPart(Part* part, std::vector<std::string>* notes,
                                  bool* refused) {
  auto& p = Param<SubgraphParam>();
  std::vector<OpLite*> ops;
  for (size_t k = part->begin; k < part->end; ++k) ops.push_back(origin_[k]->mutable_op());
  const Scope* weights = p.scope->parent() ? p.scope->parent() : p.scope;
  ASSIGN_OR_RETURN(lite::npu::Model model,
                   lite::npu::ConvertToModel(ops, p.scope, weights, part->inputs, part->outputs,
                                             &weight_cache_));
  part->output_dims.clear();
  for (int idx : model.outputs) part->output_dims.push_back(model.operands[idx].dims);
  lite::npu::CompileOptions options;
  options.threads = ctx()->threads;
  const NpuOptions& npu = NpuContextOf(ctx())->options;
  const bool keyed = (npu.compiled && npu.compiled->size() > 0) || !npu.cache_dir.empty() ||
                     npu.save_compiled;
  lite::npu::KeyIngredients key;
  if (keyed) key = lite::npu::IngredientsOf(model, *driver_);
  std::string why_not;
  if (keyed) part->executable = LoadSaved(model, key, options, &why_not);
  if (part->executable) {
    ++record_.deserializations;
    return Status::OK();
  }
  if (!why_not.empty()) notes->push_back(why_not);
  auto exe = driver_->Compile(model, options);
  if (!exe.ok()) {
    if (refused) *refused = true;
    return exe.status().WithContext("driver " + driver_->name() + " compile");
  }
  part->executable = std::move(exe).value();
  ++record_.compiles;
  const std::string how = part->executable->Describe();
  if (!how.empty() && impl_info_.find(how) == std::string::npos) {
    impl_info_ += (impl_info_.empty() ? "" : "; ") + how;
    LogMessage(LogSeverity::kInfo, "npu: subgraph " + std::to_string(record_.id) + " runs as " + how);
  }
  if (keyed) SaveCompiled(*part->executable, key);
  return Status::OK();
}

std::unique_ptr<lite::npu::Executable> SubgraphCompute::LoadSaved(
    const lite::npu::Model& model, const lite::npu::KeyIngredients& key,
    const lite::npu::CompileOptions& options, std::string* why_not) {
  const NpuOptions& npu = NpuContextOf(ctx())->options;
  const std::string want = lite::npu::KeyOf(key);
  // Candidates: this subgraph's .nb entries (the matching one first), then
  // the cache-dir file of the key.
  std::vector<CompiledSubgraph> entries;
  if (npu.compiled) entries = npu.compiled->ForSubgraph(record_.id);
  std::stable_partition(entries.begin(), entries.end(),
                        [&](const CompiledSubgraph& e) { return e.key == want; });
  const std::string cache_file =
      npu.cache_dir.empty() ? "" : lite::npu::CachedCompiledPath(npu.cache_dir, want);
  const bool in_cache = !cache_file.empty() && IsRegularFile(cache_file);
  if (entries.empty() && !in_cache) return nullptr;
  const std::string where = !entries.empty() ? "the model file" : "the cache dir";
  if (!npu.trust_compiled_code) {
    *why_not = where + " holds compiled code for it, not loaded without the " +
               "trust_compiled_code option";
    return nullptr;
  }
  if (!driver_->can_serialize()) {
    *why_not = "driver " + driver_->name() + " cannot deserialize the compiled code in " + where;
    return nullptr;
  }
  // Deserialize only after the key and the bytes' digest were checked.
  auto deserialize = [&](const std::vector<uint8_t>& blob)
      -> StatusOr<std::unique_ptr<lite::npu::Executable>> {
    auto exe = driver_->Deserialize(model, blob, options);
    if (!exe.ok()) return exe.status().WithContext("driver " + driver_->name() + " deserialize");
    return exe;
  };
  if (!entries.empty()) {
    Status s = lite::npu::CheckCompiledEntry(entries.front(), key);
    if (s.ok()) {
      auto exe = deserialize(entries.front().blob);
      if (exe.ok()) return std::move(exe).value();
      s = exe.status();
    }
    *why_not = "compiled code in the model file not used: " + s.message();
  }
  if (in_cache) {
    auto blob = lite::npu::ReadCachedCompiled(npu.cache_dir, want);
    Status s = blob.status();
    if (s.ok()) {
      auto exe = deserialize(*blob);
      if (exe.ok()) return std::move(exe).value();
      s = exe.status();
    }
    *why_not += (why_not->empty() ? "" : "; ") + std::string("cache entry ignored: ") +
                s.message();
  }
  return nullptr;
}

void SubgraphCompute::SaveCompiled(const lite::npu::Executable& exe,
                                   const lite::npu::KeyIngredients& key) {
  const NpuOptions& npu = NpuContextOf(ctx())->options;
  const bool to_store = npu.save_compiled && npu.compiled;
  if (!to_store && npu.cache_dir.empty()) return;
  auto bytes = driver_->can_serialize()
                   ? driver_->Serialize(exe)
                   : StatusOr<std::vector<uint8_t>>(Unimplemented(
                         "driver " + driver_->name() + " cannot serialize executables"));
  if (!bytes.ok()) {
    LogMessage(LogSeverity::kWarning, "npu: subgraph " + std::to_string(record_.id) +
                                          ": compiled code not saved: " + bytes.status().message());
    return;
  }
  if (!npu.cache_dir.empty()) {
    Status s = lite::npu::WriteCachedCompiled(npu.cache_dir, lite::npu::KeyOf(key), *bytes);
    if (!s.ok()) {
      LogMessage(LogSeverity::kWarning, "npu: subgraph " + std::to_string(record_.id) +
                                            ": cache entry not written: " + s.message());
    }
  }
  if (to_store) npu.compiled->Put(lite::npu::MakeCompiledEntry(record_.id, key, std::move(*bytes)));
}

Status SubgraphCompute::FallBack(const std::string& reason) {
  fell_back_ = true;
  compiled_.clear();
  record_.split.clear();
  record_.host_ops.clear();
  record_.state = SubgraphRecord::State::kFellBack;
  record_.reason = reason;
  std::string first = record_.ops.empty() ? "" : record_.ops.front();
  LogMessage(LogSeverity::kWarning, "npu: subgraph " + std::to_string(record_.id) + " (" +
                                        std::to_string(record_.ops.size()) + " ops from " + first +
                                        ") runs on host: " + reason);
  if (NpuContextOf(ctx())->options.strict) {
    return FailedPrecondition("npu strict mode: subgraph " + std::to_string(record_.id) + " (" +
                              std::to_string(record_.ops.size()) + " ops from " + first +
                              ") cannot run on driver " + record_.driver + ": " + reason);
  }
  return Status::OK();
}

Status SubgraphCompute::RunOrigin(size_t begin, size_t end) {
  for (size_t k = begin; k < end; ++k) RETURN_IF_ERROR(origin_[k]->Run());
  return Status::OK();
}

Status SubgraphCompute::RunOnDevice(Compiled* compiled) {
  auto& p = Param<SubgraphParam>();
  auto tensor = [&](const std::string& name) -> Tensor* {
    Variable* v = p.scope->FindVar(name);
    return v ? v->GetMutableTensor() : nullptr;
  };
  for (Part& part : compiled->parts) {
    if (!part.executable) {
      RETURN_IF_ERROR(RunOrigin(part.begin, part.end));
      continue;
    }
    std::vector<lite::npu::HostTensor> ins, outs;
    for (const std::string& name : part.inputs) {
      Tensor* t = tensor(name);
      if (!t || t->dtype() != DataType::kFloat32 || !t->IsInitialized()) {
        return InvalidArgument("subgraph input '" + name + "' is not float32 data");
      }
      ins.push_back({t->raw_mutable_data(), t->memory_size(), t->dims()});
    }
    for (size_t i = 0; i < part.outputs.size(); ++i) {
      Tensor* t = tensor(part.outputs[i]);
      if (!t) return Internal("subgraph output '" + part.outputs[i] + "' has no variable");
      t->Resize(part.output_dims[i]);
      void* data = t->mutable_data<float>();
      outs.push_back({data, t->memory_size(), t->dims()});
    }
    RETURN_IF_ERROR(driver_->Execute(part.executable.get(), ins, outs));
  }
  ++record_.device_runs;
  return Status::OK();
}

Status SubgraphCompute::CrossCheck(Compiled* compiled) {
  auto& p = Param<SubgraphParam>();
  RETURN_IF_ERROR(RunOrigin());
  std::vector<std::vector<float>> host;
  for (const Tensor* t : p.outputs) {
    host.emplace_back(t->data<float>(), t->data<float>() + t->numel());
  }
  RETURN_IF_ERROR(RunOnDevice(compiled));
  for (size_t i = 0; i < p.outputs.size(); ++i) {
    const float* d = p.outputs[i]->data<float>();
    for (size_t k = 0; k < host[i].size(); ++k) {
      double diff = std::fabs(static_cast<double>(d[k]) - host[i][k]);
      double rel = diff / std::max(1e-6, std::fabs(static_cast<double>(host[i][k])));
      if (!(diff <= record_.max_abs_diff)) record_.max_abs_diff = diff;  // NaN sticks
      if (!(rel <= record_.max_rel_diff)) record_.max_rel_diff = rel;
    }
  }
  ++record_.cross_checked_runs;
  return Status::OK();
}

Status SubgraphCompute::Run() {
  if (fell_back_) return RunOrigin();
  auto compiled = CompileCurrent();
  if (!compiled.ok()) {
    RETURN_IF_ERROR(FallBack(compiled.status().message()));
    return RunOrigin();
  }
  record_.state = SubgraphRecord::State::kOnDevice;
  record_.reason.clear();
  Status s = NpuContextOf(ctx())->options.cross_check ? CrossCheck(*compiled) : RunOnDevice(*compiled);
  if (compile_rss_before_ >= 0 && s.ok() && compile_bytes_ > 0) {
    const int64_t growth = ProcessRssBytes() - compile_rss_before_;
    compile_ratio_ = std::max(compile_ratio_, static_cast<double>(growth) / compile_bytes_);
  }
  compile_rss_before_ = -1;
  if (s.ok()) return s;
  RETURN_IF_ERROR(FallBack("driver " + driver_->name() + " execute: " + s.message()));
  return RunOrigin();
}

}  // namespace npu
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(subgraph, kNPU, kFloat, kNCHW, lite::kernels::npu::SubgraphCompute, def)
    .BindInput("Inputs", lite::Place(TARGET(kHost)))
    .BindOutput("Outputs", lite::Place(TARGET(kHost)))
    .Finalize();
