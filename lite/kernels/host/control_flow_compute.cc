// Host kernels for while and conditional_block (each owns the instructions
// of its sub-block, built once at Init in a child scope of the exec scope
// and run there), select_input / select_output (copies chosen by Mask) and
// increment (float32, float64, int32, int64).
#include <memory>
#include <vector>

#include "lite/core/kernel.h"
#include "lite/core/program.h"
#include "lite/operators/control_flow_ops.h"

namespace lite {
namespace kernels {
namespace host {

namespace {

StatusOr<bool> ConditionHolds(const Tensor& cond) {
  if (cond.dtype() != DataType::kBool || cond.numel() != 1 || !cond.raw_data()) {
    return InvalidArgument("the condition must be one bool element, is " +
                           std::string(DataTypeName(cond.dtype())) + " " +
                           DimsToString(cond.dims()));
  }
  return cond.data<bool>()[0];
}

}  // namespace

class SubBlockCompute : public KernelBase {
 public:
  Status Init() override { return Build(); }

  Status Run() override {
    auto& p = Param<operators::SubBlockParam>();
    if (!built_) RETURN_IF_ERROR(Build());
    if (p.is_while) {
      for (;;) {
        ASSIGN_OR_RETURN(bool go, ConditionHolds(*p.conds[0]));
        if (!go) return Status::OK();
        RETURN_IF_ERROR(RunBlock());
      }
    }
    bool run = true;
    if (p.is_scalar_condition) {
      ASSIGN_OR_RETURN(run, ConditionHolds(*p.conds[0]));
    } else {
      for (const Tensor* c : p.conds) run = run && c->numel() != 0;
    }
    return run ? RunBlock() : Status::OK();
  }

 private:
  Status Build() {
    auto& p = Param<operators::SubBlockParam>();
    Scope* block_scope = p.scope->NewScope();
    ASSIGN_OR_RETURN(block_, BuildInstructions(*p.program, p.block_idx, block_scope, ctx()));
    for (auto& inst : block_) RETURN_IF_ERROR(inst->mutable_kernel()->Init());
    built_ = true;
    return Status::OK();
  }

  Status RunBlock() {
    for (auto& inst : block_) {
      RETURN_IF_ERROR(inst->Run().WithContext(
          "in block " + std::to_string(Param<operators::SubBlockParam>().block_idx)));
    }
    return Status::OK();
  }

  bool built_ = false;
  std::vector<std::unique_ptr<Instruction>> block_;
};

class SelectCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::BranchParam>();
    const bool input = def().op_type == "select_input";
    const size_t choices = input ? p.xs.size() : p.outs.size();
    ASSIGN_OR_RETURN(int64_t m, operators::ScalarIndex(*p.mask, "Mask"));
    if (m < 0 || m >= static_cast<int64_t>(choices)) {
      return InvalidArgument("Mask " + std::to_string(m) + " is out of range for " +
                             std::to_string(choices) + " choices");
    }
    const Tensor& from = input ? *p.xs[m] : *p.xs[0];
    Tensor* to = input ? p.outs[0] : p.outs[m];
    if (!from.raw_data() && from.numel() > 0) {
      return InvalidArgument("the selected tensor #" + std::to_string(m) +
                             " has no data (nothing wrote it)");
    }
    to->CopyDataFrom(from);
    return Status::OK();
  }
};

class IncrementCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::BranchParam>();
    const Tensor& x = *p.xs[0];
    Tensor* out = p.outs[0];
    out->Resize(x.dims());
    switch (x.dtype()) {
      case DataType::kFloat32: return Add<float>(x, out, p.step);
      case DataType::kFloat64: return Add<double>(x, out, p.step);
      case DataType::kInt32: return Add<int32_t>(x, out, p.step);
      case DataType::kInt64: return Add<int64_t>(x, out, p.step);
      default:
        return Unimplemented(std::string("increment of ") + DataTypeName(x.dtype()));
    }
  }

 private:
  template <typename T>
  static Status Add(const Tensor& x, Tensor* out, float step) {
    const T v = x.data<T>()[0];  // read before writing: Out may be X
    out->mutable_data<T>()[0] = static_cast<T>(v + static_cast<T>(step));
    return Status::OK();
  }
};

}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(while, kHost, kAny, kNCHW, lite::kernels::host::SubBlockCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(conditional_block, kHost, kAny, kNCHW,
                     lite::kernels::host::SubBlockCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(select_input, kHost, kAny, kNCHW, lite::kernels::host::SelectCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(select_output, kHost, kAny, kNCHW, lite::kernels::host::SelectCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(increment, kHost, kAny, kNCHW, lite::kernels::host::IncrementCompute, def)
    .Finalize();
