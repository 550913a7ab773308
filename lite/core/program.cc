#include "lite/core/program.h"

#include "lite/base/buffer_pool.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <new>
#include <sstream>
#include <tuple>

namespace lite {

bool Instruction::InputsChanged() {
  // last_input_dims_ holds, per input, its rank then its dims, in one array:
  // this check runs before every op of every inference, and comparing
  // against one contiguous array of our own (inline, no memcmp call per
  // input) instead of a vector per input was a measurable share of a small
  // model's run on the arm target, which runs one instruction per op.
  const auto& inputs = op_->input_tensors();
  bool changed = !inferred_once_ || last_input_lods_.size() != inputs.size();
  size_t k = 0;
  for (size_t i = 0; i < inputs.size() && !changed; ++i) {
    const DDim& d = inputs[i]->dims();
    if (k + d.size() >= last_input_dims_.size() ||
        last_input_dims_[k] != static_cast<int64_t>(d.size())) {
      changed = true;
      break;
    }
    for (size_t j = 0; j < d.size(); ++j) {
      if (d[j] != last_input_dims_[k + 1 + j]) changed = true;
    }
    k += 1 + d.size();
    const LoD& lod = inputs[i]->lod();
    if (!(lod.empty() && last_input_lods_[i].empty()) && lod != last_input_lods_[i]) changed = true;
  }
  if (changed) {
    inferred_once_ = true;
    last_input_dims_.clear();
    last_input_lods_.clear();
    for (const Tensor* t : inputs) {
      last_input_dims_.push_back(static_cast<int64_t>(t->dims().size()));
      last_input_dims_.insert(last_input_dims_.end(), t->dims().begin(), t->dims().end());
      last_input_lods_.push_back(t->lod());
    }
  }
  return changed;
}

Status Instruction::CheckOutputSizes() const {
  for (const auto& out : op_->output_tensors()) {
    const Tensor* t = out.second;
    if (t->persistable() || t->dims().empty()) continue;
    // The dtype may change when the kernel allocates; 8 bytes bounds every
    // element type a kernel writes.
    const int64_t bytes = TensorBytes(t->numel(), DataType::kInt64);
    if (bytes < 0) {
      return InvalidArgument("output var '" + out.first + "' has dims " +
                             DimsToString(t->dims()) + " whose element count overflows");
    }
    if (static_cast<uint64_t>(bytes) / 2 > MaxTensorBytes()) {
      return InvalidArgument("output var '" + out.first + "' with dims " +
                             DimsToString(t->dims()) + " would need " + std::to_string(bytes / 2) +
                             "+ bytes, above the per-tensor limit of " +
                             std::to_string(MaxTensorBytes()) + " (SetMaxTensorBytes)");
    }
  }
  return Status::OK();
}

Status Instruction::CheckInputsHaveData() const {
  for (const Tensor* t : op_->input_tensors()) {
    if (t->raw_data() != nullptr || t->numel() <= 0) continue;
    std::string name = "?";
    for (const auto& in : op_->op_desc().inputs()) {
      for (const auto& arg : in.second) {
        const Variable* v = op_->scope() ? op_->scope()->FindVar(arg) : nullptr;
        if (v != nullptr && &v->GetTensor() == t) name = arg;
      }
    }
    return InvalidArgument("input var '" + name + "' " + DimsToString(t->dims()) +
                           " has no data: it is not fed, not a weight, and no earlier "
                           "op writes it");
  }
  return Status::OK();
}

Status Instruction::Run() {
  // The op's name for messages, built only when something fails: formatting
  // it on every run was a measurable share of a small model's latency.
  auto where = [this](Status s) {
    return s.ok() ? s
                  : s.WithContext("op " + op_->DebugName() + " [" + kernel_->def().Key() + "]");
  };
  if (!checked_) {
    RETURN_IF_ERROR(where(op_->CheckShape()));
    checked_ = true;
  }
  if (InputsChanged()) {
    RETURN_IF_ERROR(where(op_->InferShape()));
    RETURN_IF_ERROR(where(CheckOutputSizes()));
  }
  RETURN_IF_ERROR(where(CheckInputsHaveData()));
  // A kernel's allocation that fails (std::bad_alloc) becomes an error naming
  // this op; the predictor turns one thrown elsewhere into the same text.
  try {
    if (!prepared_) {
      RETURN_IF_ERROR(where(kernel_->Prepare()));
      prepared_ = true;
    }
    return where(kernel_->Run());
  } catch (const std::bad_alloc&) {
    return where(Internal(OutOfMemoryWhileRunning()));
  }
}

void RuntimeProgram::DropWarmArena() {
  // A bound plan holds the buffer too; it goes when that plan is replaced.
  warm_.reset();
}

Status RuntimeProgram::Run(const std::string& input_signature, int64_t input_elements) {
  // Allocations during the run draw from the program's pool (or find their
  // arena slot bound); planned vars go back after their last use.
  ScopedBufferPool use_pool(&ctx_->buffers);
  const bool replay = arena_ && !input_signature.empty() && input_signature == arena_signature_;
  ArenaRecorder recorder;
  // Detaches the recorder however the run ends (a kernel may throw
  // std::bad_alloc through here; the API turns it into a Status).
  struct DetachRecorder {
    BufferPool* pool;
    ~DetachRecorder() { pool->set_recorder(nullptr); }
  } detach{&ctx_->buffers};
  // The first run of a new signature binds the previous plan scaled to this
  // input (arena_plan.h): most tensors then land in warm memory instead of
  // fresh pool mappings; the recorder still sees every one.
  std::unique_ptr<ArenaPlan> guess;
  if (replay) {
    arena_->Bind(&warm_);
  } else if (!input_signature.empty()) {
    if (arena_) {
      arena_->Unbind();
      if (input_elements > 0 && arena_elements_ > 0) {
        guess = arena_->Scaled(static_cast<double>(input_elements) / arena_elements_);
      }
    }
    arena_.reset();
    ctx_->buffers.set_recorder(&recorder);
    if (guess) guess->Bind(&warm_);
  }
  Status s = RunInstructions(&recorder);
  if (guess) guess->Unbind();  // what a failed run left in it
  if (s.ok() && !replay && !input_signature.empty()) {
    arena_ = ArenaPlan::Plan(recorder);
    arena_signature_ = input_signature;
    arena_elements_ = input_elements;
    ctx_->buffers.DropFree();  // the arena takes over from the next run
  }
  return s;
}

Status RuntimeProgram::RunInstructions(ArenaRecorder* recorder) {
  auto release = [this](const Instruction& inst) {
    for (Tensor* t : inst.release_after()) ctx_->buffers.Release(t);
  };
  if (!profiling_) {
    for (size_t i = 0; i < instructions_.size(); ++i) {
      recorder->set_step(static_cast<int>(i));
      RETURN_IF_ERROR(instructions_[i]->Run());
      release(*instructions_[i]);
    }
    return Status::OK();
  }
  op_millis_.resize(instructions_.size(), 0.0);
  for (size_t i = 0; i < instructions_.size(); ++i) {
    recorder->set_step(static_cast<int>(i));
    auto start = std::chrono::steady_clock::now();
    RETURN_IF_ERROR(instructions_[i]->Run());
    release(*instructions_[i]);
    op_millis_[i] += std::chrono::duration<double, std::milli>(
                         std::chrono::steady_clock::now() - start).count();
  }
  ++profiled_runs_;
  return Status::OK();
}

std::vector<ProfileRow> RuntimeProgram::ProfileRows(double* total_ms) const {
  // The per-instruction rows, summed per (op type, place, impl).
  double total = 0;
  std::map<std::tuple<std::string, std::string, std::string>, ProfileRow> by_key;
  for (const ProfileRow& op : InstructionProfileRows(&total)) {
    ProfileRow& r = by_key[std::make_tuple(op.op_type, op.place, op.impl)];
    r.op_type = op.op_type;
    r.place = op.place;
    r.impl = op.impl;
    r.ops += 1;
    r.ms += op.ms;
    r.flops += op.flops;
  }
  std::vector<ProfileRow> rows;
  for (auto& kv : by_key) {
    ProfileRow r = kv.second;
    r.percent = total > 0 ? 100.0 * r.ms / total : 0;
    if (r.flops > 0 && r.ms > 0) r.gflops = r.flops / (r.ms * 1e6);
    rows.push_back(r);
  }
  std::sort(rows.begin(), rows.end(), [](const ProfileRow& a, const ProfileRow& b) {
    return a.ms != b.ms ? a.ms > b.ms : a.op_type < b.op_type;
  });
  if (total_ms) *total_ms = total;
  return rows;
}

std::string RuntimeProgram::ProfileSummary() const {
  if (profiled_runs_ == 0) return "";
  double total = 0;
  auto rows = ProfileRows(&total);
  return FormatProfile(rows, total);
}

std::vector<ProfileRow> RuntimeProgram::InstructionProfileRows(double* total_ms) const {
  std::vector<ProfileRow> rows;
  double total = 0;
  for (size_t i = 0; i < op_millis_.size() && profiled_runs_ > 0; ++i) {
    const Instruction& inst = *instructions_[i];
    ProfileRow r;
    r.op_type = inst.op().Type();
    r.place = inst.kernel().def().place.DebugString();
    r.impl = inst.kernel().impl_info();
    const auto& outs = inst.op().output_tensors();
    r.output = outs.empty() ? "" : outs.front().first;
    r.ops = 1;
    r.ms = op_millis_[i] / profiled_runs_;
    r.flops = inst.op().Flops();
    if (r.flops > 0 && r.ms > 0) r.gflops = r.flops / (r.ms * 1e6);
    total += r.ms;
    rows.push_back(r);
  }
  for (ProfileRow& r : rows) r.percent = total > 0 ? 100.0 * r.ms / total : 0;
  if (total_ms) *total_ms = total;
  return rows;
}

std::string RuntimeProgram::ProfileDetail() const {
  if (profiled_runs_ == 0) return "";
  double total = 0;
  auto rows = InstructionProfileRows(&total);
  return FormatProfileDetail(rows, total);
}

StatusOr<std::vector<std::unique_ptr<Instruction>>> BuildInstructions(
    const cpp::ProgramDesc& optimized, int block_idx, Scope* exec_scope, KernelContext* ctx) {
  if (block_idx < 0 || block_idx >= static_cast<int>(optimized.blocks.size())) {
    return InvalidArgument("optimized program has no block " + std::to_string(block_idx));
  }
  std::vector<std::unique_ptr<Instruction>> insts;
  const cpp::BlockDesc& block = optimized.blocks[block_idx];
  // Every var the block names exists in the exec scope (weights are found
  // in the parent scope and not shadowed).
  for (const auto& v : block.vars) {
    if (!exec_scope->FindVar(v.name)) exec_scope->Var(v.name);
  }
  const std::string in_block = block_idx == 0 ? "" : " of block " + std::to_string(block_idx);
  for (size_t i = 0; i < block.ops.size(); ++i) {
    const cpp::OpDesc& desc = block.ops[i];
    const std::string where = "op #" + std::to_string(i) + in_block + " " + desc.Type();
    auto op = OpRegistry::Global().Create(desc.Type());
    if (!op) return Unimplemented(where + ": op type is not supported by this engine");
    op->SetProgram(&optimized);
    RETURN_IF_ERROR(op->Attach(desc, exec_scope));
    std::string key = desc.GetAttr<std::string>(kKernelKeyAttr, "");
    if (key.empty()) return InvalidArgument(where + ": no picked kernel recorded");
    const KernelDef* def = KernelRegistry::Global().FindByKey(key);
    if (!def) return NotFound(where + ": kernel " + key + " is not registered in this build");
    // A checksum catches corruption, not an edited file: a key naming another
    // op's kernel would read this op's params as that op's.
    if (def->op_type != desc.Type()) {
      return InvalidArgument(where + ": recorded kernel " + key + " belongs to op type " +
                             def->op_type);
    }
    auto kernel = def->factory();
    kernel->Bind(def, op->param(), ctx);
    insts.push_back(std::make_unique<Instruction>(std::move(op), std::move(kernel)));
    std::vector<Tensor*> release;
    for (const auto& var : desc.GetAttr<std::vector<std::string>>(kReleaseAfterAttr, {})) {
      Tensor* t = exec_scope->FindMutableTensor(var);
      if (!t) return InvalidArgument(where + ": planned var '" + var + "' is not in the scope");
      if (!t->persistable()) release.push_back(t);
    }
    insts.back()->set_release_after(std::move(release));
  }
  return insts;
}

Status Instruction::InferShapeAhead() {
  RETURN_IF_ERROR(op_->CheckShape());
  return op_->InferShape();
}

namespace {
bool IsIntegerType(DataType t) {
  return t == DataType::kInt32 || t == DataType::kInt64 || t == DataType::kInt16 ||
         t == DataType::kInt8 || t == DataType::kUInt8 || t == DataType::kBool;
}
// Input parameters whose values (not dims) decide output shapes.
bool IsValueShapeParam(const std::string& param) {
  return param.find("Tensor") != std::string::npos || param == "OutSize" ||
         param == "Scale" || param == "Shape" || param == "OutputSize";
}
}  // namespace

StatusOr<bool> InferShapeAheadStep(const cpp::BlockDesc& block, Instruction* inst,
                                   Scope* exec_scope) {
  const cpp::OpDesc& desc = inst->op().op_desc();
  if (desc.Type() == "feed") {
    const auto& outs = desc.Output("Out");
    const cpp::VarDesc* vd = outs.empty() ? nullptr : block.FindVar(outs.front());
    if (!vd || vd->dims.empty() || IsIntegerType(vd->dtype)) return false;
    DDim dims = vd->dims;
    if (dims[0] < 0) dims[0] = 1;
    for (int64_t d : dims) {
      if (d < 0) return false;
    }
    exec_scope->Var(outs.front())->GetMutableTensor()->Resize(dims);
    return true;
  }
  if (desc.Type() == "fetch") return true;
  for (const auto& param : desc.inputs()) {
    for (const auto& var : param.second) {
      const cpp::VarDesc* vd = block.FindVar(var);
      if (vd && vd->persistable) continue;
      // int8 / uint8 activations are quantized levels (int8_requantize_pass),
      // never shapes.
      const bool levels = vd && (vd->dtype == DataType::kInt8 || vd->dtype == DataType::kUInt8);
      if (IsValueShapeParam(param.first) || (vd && IsIntegerType(vd->dtype) && !levels)) {
        return false;
      }
      const Tensor* t = exec_scope->FindMutableTensor(var);
      if (!t || t->dims().empty()) return false;
      // An extent an earlier op left unknown (range of values computed at
      // run time gives [-1]) is no shape to check against.
      for (int64_t d : t->dims()) {
        if (d < 0) return false;
      }
    }
  }
  // Every input's dims are known from the declared feed shapes (batch 1 for
  // an unknown batch): an op that rejects them has attributes it cannot take
  // (axis out of range, groups not dividing channels, ...) - an error now
  // rather than at the first Run.
  Status s = inst->InferShapeAhead();
  if (!s.ok()) {
    return s.WithContext("checked at load with the model's declared input shapes (batch 1)");
  }
  return true;
}

int64_t RuntimeProgram::ActivationBytesAhead(int64_t* inner_at_peak) {
  std::map<const Tensor*, int64_t> live;  // lookup only, never iterated
  int64_t held = 0, peak = 0, peak_inner = 0;
  auto forget = [this] {
    for (auto& inst : instructions_) inst->ForgetShapes();
  };
  auto unknown = [&] {
    forget();
    return int64_t{-1};
  };
  for (auto& inst : instructions_) {
    OpLite* op = inst->mutable_op();
    const cpp::OpDesc& desc = op->op_desc();
    if (desc.Type() == "fetch") continue;
    std::vector<std::pair<std::string, Tensor*>> outs = op->output_tensors();
    if (desc.Type() == "feed") {
      // The feed kernel shares the caller's tensor (dims with the data): no
      // activation bytes of its own.
      const auto& x = desc.Input("X");
      const Variable* v = x.empty() ? nullptr : exec_scope_->FindVar(x.front());
      const size_t col = static_cast<size_t>(desc.GetAttr<int32_t>("col", 0));
      if (!v || col >= v->GetTensorList().size() || outs.empty() || !outs.front().second) {
        return unknown();
      }
      const Tensor& fed = v->GetTensorList()[col];
      outs.front().second->Resize(fed.dims());
      outs.front().second->set_dtype(fed.dtype());
      outs.front().second->set_lod(fed.lod());
      continue;
    }
    // As InferShapeAheadStep: where values may decide shapes, stop.
    for (const auto& param : desc.inputs()) {
      for (const auto& var : param.second) {
        const Tensor* t = exec_scope_->FindMutableTensor(var);
        if (!t || t->persistable()) continue;
        const DataType d = t->dtype();
        const bool levels = d == DataType::kInt8 || d == DataType::kUInt8;
        if (IsValueShapeParam(param.first) || (IsIntegerType(d) && !levels)) return unknown();
      }
    }
    // An op with a sub-block infers its outputs in its kernel: the kernel's
    // own dry pass sets them and says what its run needs beyond them.
    int64_t inner = 0;
    if (desc.HasAttr("sub_block")) {
      inner = inst->mutable_kernel()->InferAhead();
      if (inner < 0) return unknown();
    } else if (!op->CheckShape().ok() || !op->InferShape().ok()) {
      return unknown();
    }
    for (const auto& out : outs) {
      const Tensor* t = out.second;
      if (!t || t->persistable()) continue;
      const int64_t bytes = TensorBytes(t->numel(), t->dtype());
      if (bytes < 0) return unknown();
      int64_t& slot = live[t];
      held += std::max<int64_t>(0, bytes - slot);
      slot = std::max(slot, bytes);
    }
    if (held + inner > peak) {
      peak = held + inner;
      peak_inner = inner;
    }
    for (const Tensor* t : inst->release_after()) {
      auto it = live.find(t);
      if (it == live.end()) continue;
      held -= it->second;
      live.erase(it);
    }
  }
  forget();
  if (inner_at_peak) *inner_at_peak = peak_inner;
  return peak;
}

StatusOr<std::unique_ptr<RuntimeProgram>> BuildRuntimeProgram(
    const cpp::ProgramDesc& optimized, Scope* exec_scope, int threads,
    std::vector<std::unique_ptr<TargetContext>> targets) {
  if (optimized.blocks.empty()) return InvalidArgument("optimized program has no blocks");
  auto ctx = std::make_unique<KernelContext>();
  ctx->set_threads(threads);
  for (auto& target : targets) ctx->set_target_context(std::move(target));
  ASSIGN_OR_RETURN(auto insts, BuildInstructions(optimized, 0, exec_scope, ctx.get()));
  bool shapes_known = true;
  for (size_t i = 0; i < insts.size(); ++i) {
    if (shapes_known) {
      auto known = InferShapeAheadStep(optimized.blocks[0], insts[i].get(), exec_scope);
      if (!known.ok()) {
        return known.status().WithContext("op #" + std::to_string(i) + " " +
                                          insts[i]->op().DebugName());
      }
      shapes_known = *known;
    }
    RETURN_IF_ERROR(insts[i]->mutable_kernel()->Init().WithContext(
        "op #" + std::to_string(i) + " " + insts[i]->op().DebugName()));
  }
  return std::make_unique<RuntimeProgram>(std::move(insts), exec_scope, std::move(ctx));
}

}  // namespace lite
