// Instruction and RuntimeProgram: what a predictor executes.
//
// An Instruction owns one attached op and its picked kernel. On first run it
// checks shapes and prepares the kernel; before every run it re-infers output
// shapes (and LoD) when any input's dims or LoD changed (dynamic shapes, a
// new sequence split with the same row count). Ops whose output
// shape depends on input *values* (Shape/ShapeTensor/OutSize inputs) also
// resize their outputs in the kernel, since equal dims do not re-infer. RuntimeProgram owns
// the instructions in execution order; tensors live in the exec scope the
// program was built against (not owned).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "lite/base/arena_plan.h"
#include "lite/core/kernel.h"
#include "lite/core/op_lite.h"
#include "lite/core/profile.h"
#include "lite/base/scope.h"
#include "lite/utils/status.h"

namespace lite {

// Attribute under which an optimized program records each op's picked kernel
// (KernelDef::Key()).
inline constexpr const char* kKernelKeyAttr = "__kernel__";

class Instruction {
 public:
  // CheckShape + InferShape now, without touching the run-time state (the
  // first Run still checks and infers): used to learn shapes ahead of the
  // first run.
  Status InferShapeAhead();
  Instruction(std::unique_ptr<OpLite> op, std::unique_ptr<KernelBase> kernel)
      : op_(std::move(op)), kernel_(std::move(kernel)) {}

  Status Run();
  const OpLite& op() const { return *op_; }
  OpLite* mutable_op() { return op_.get(); }
  const KernelBase& kernel() const { return *kernel_; }
  KernelBase* mutable_kernel() { return kernel_.get(); }
  // Tensors whose buffers go back to the pool after this instruction
  // (memory_optimize_pass's plan, kReleaseAfterAttr).
  void set_release_after(std::vector<Tensor*> t) { release_after_ = std::move(t); }
  const std::vector<Tensor*>& release_after() const { return release_after_; }
  // The next Run re-infers shapes whatever its inputs (after shapes were
  // inferred outside a run: RuntimeProgram::ActivationBytesAhead).
  void ForgetShapes() { inferred_once_ = false; }

 private:
  // True on the first call and whenever an input's dims or LoD differ from
  // the previous call.
  bool InputsChanged();
  // Every output's element count fits the per-tensor limit (tensor.h).
  Status CheckOutputSizes() const;
  // Every input with elements has a buffer: a var read before anything
  // wrote it is an error naming the var, not a kernel reading through null.
  Status CheckInputsHaveData() const;

  std::unique_ptr<OpLite> op_;
  std::unique_ptr<KernelBase> kernel_;
  bool checked_ = false;
  bool prepared_ = false;
  bool inferred_once_ = false;  // ops without inputs still infer once
  std::vector<int64_t> last_input_dims_;  // per input: rank, then dims
  std::vector<LoD> last_input_lods_;
  std::vector<Tensor*> release_after_;
};

class RuntimeProgram {
 public:
  RuntimeProgram(std::vector<std::unique_ptr<Instruction>> instructions,
                 Scope* exec_scope, std::unique_ptr<KernelContext> ctx)
      : instructions_(std::move(instructions)),
        exec_scope_(exec_scope),
        ctx_(std::move(ctx)) {}

  // Runs every instruction in order; the first failure stops the run and is
  // returned with the failing op named. `input_signature` (the inputs' dims
  // and LoD as text; empty: none) keys the arena memory plan
  // (arena_plan.h): the first run of a signature records and plans, later
  // ones run in the planned arena. `input_elements` (the inputs' element
  // count; 0: unknown) scales the previous plan into a guess for the first
  // run of a new signature.
  Status Run(const std::string& input_signature = "", int64_t input_elements = 0);
  // The current arena plan (nullptr before a planned signature ran twice).
  const ArenaPlan* arena_plan() const { return arena_.get(); }
  // The warm arena buffer every plan binds into (arena_plan.h), kept across
  // signatures; DropWarmArena frees it once no plan uses it (the memory
  // budget's release).
  size_t warm_arena_bytes() const { return warm_ ? warm_->size() : 0; }
  void DropWarmArena();
  // A dry planning pass for the inputs as now fed, before running them (the
  // memory budget's estimate of a new size, memory_budget.h): every op's
  // shapes inferred in order, no kernel run, and the largest sum of
  // activation bytes live at once (an op's outputs from its step until
  // memory_optimize_pass releases them; outputs never released stay), which
  // the arena plan of a run at these shapes is about. -1 when the shapes
  // cannot be known ahead: an op whose shapes may depend on input values
  // (shape-giving inputs, integer activations), an op that rejects the
  // shapes (the run then reports it), or an op with a sub-block whose kernel
  // cannot infer ahead (KernelBase::InferAhead; a device subgraph can, and
  // adds its inner need at its step). Every instruction re-infers on the
  // next Run, so the pass leaves no shape behind. `*inner` (may be null):
  // of the result, the bytes kernels added at the peak's step (InferAhead),
  // an estimate of RSS already rather than of activations.
  int64_t ActivationBytesAhead(int64_t* inner = nullptr);

  // Per-instruction wall time, accumulated over runs while profiling is on.
  void set_profiling(bool on) { profiling_ = on; }
  const std::vector<double>& op_millis() const { return op_millis_; }
  int profiled_runs() const { return profiled_runs_; }
  // Forgets the runs profiled so far (warm-up runs, say).
  void ResetProfile() {
    op_millis_.assign(op_millis_.size(), 0.0);
    profiled_runs_ = 0;
  }
  // Time per (op type, kernel place), slowest first, with GFLOP/s for the
  // ops that count their FLOPs (OpLite::Flops); rows sum to *total_ms (ms per run).
  std::vector<ProfileRow> ProfileRows(double* total_ms = nullptr) const;
  // FormatProfile of ProfileRows ("" when nothing was profiled).
  std::string ProfileSummary() const;
  // One row per instruction, in program order (ops = 1, output = the op's
  // first output var); rows sum to *total_ms.
  std::vector<ProfileRow> InstructionProfileRows(double* total_ms = nullptr) const;
  // FormatProfileDetail of InstructionProfileRows ("" when nothing was
  // profiled).
  std::string ProfileDetail() const;
  const std::vector<std::unique_ptr<Instruction>>& instructions() const {
    return instructions_;
  }
  Scope* exec_scope() const { return exec_scope_; }
  KernelContext* context() const { return ctx_.get(); }

 private:
  std::vector<std::unique_ptr<Instruction>> instructions_;
  Scope* exec_scope_;
  std::unique_ptr<KernelContext> ctx_;
  bool profiling_ = false;
  int profiled_runs_ = 0;
  Status RunInstructions(ArenaRecorder* recorder);

  std::unique_ptr<ArenaPlan> arena_;
  std::string arena_signature_;
  int64_t arena_elements_ = 0;  // the input elements arena_ was planned for
  std::shared_ptr<Buffer> warm_;
  std::vector<double> op_millis_;
};

// Creates the instructions of block `block_idx` of an optimized program (ops
// in execution order, each carrying kKernelKeyAttr): creates and attaches
// every op against `exec_scope` (declaring the block's vars there), and
// instantiates and binds its recorded kernel to `ctx`. `optimized` must
// outlive the result (ops with sub-blocks keep a pointer). Fails naming the
// op when its type, attributes or kernel key are not supported here.
StatusOr<std::vector<std::unique_ptr<Instruction>>> BuildInstructions(
    const cpp::ProgramDesc& optimized, int block_idx, Scope* exec_scope, KernelContext* ctx);

// Best effort, one instruction of block 0 at a time in order: infers its
// output shapes ahead of the first run, the feed vars' from their declared
// dims (a leading -1 taken as batch 1). False when it cannot (dims still
// unknown or holding an unknown -1 extent, or an op reading an integer
// activation or a shape-giving input, whose values may decide shapes):
// later instructions are then not tried.
// An error when the op rejects shapes that are all known (its attributes
// cannot apply to the model's declared inputs).
StatusOr<bool> InferShapeAheadStep(const cpp::BlockDesc& block, Instruction* instruction,
                                   Scope* exec_scope);

// The executable form of block 0 of an optimized program: BuildInstructions
// on a new KernelContext (`threads`, and the device libraries' `targets`
// contexts, see TargetContext in kernel.h), then per instruction in order
// InferShapeAheadStep (while it succeeds) and the kernel's Init() (device
// subgraphs compile there when their input shapes are known).
StatusOr<std::unique_ptr<RuntimeProgram>> BuildRuntimeProgram(
    const cpp::ProgramDesc& optimized, Scope* exec_scope, int threads,
    std::vector<std::unique_ptr<TargetContext>> targets = {});

}  // namespace lite
