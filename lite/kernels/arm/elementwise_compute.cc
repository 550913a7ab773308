// arm elementwise_{add, sub, mul, div} (float32) on XNNPACK's
// add / subtract / multiply / divide_nd_f32, which broadcast either operand
// numpy-style; Paddle's axis rule is resolved by the op (ElementwiseParam's
// aligned dims), and a fused activation is the operator's output clamp
// (relu, relu6) or applied in place after it (epilogue.h). Registered at layout NHWC: when the
// output is a rank-4 activation the shapes are given to XNNPACK in NHWC
// order; an operand held in plain order there (a weight, or one of lower
// rank) is used as it is when its NCHW and NHWC orders coincide (it varies
// along C only, or not along C), else through a permuted copy. The operator
// is created once; it is set up again when a shape or pointer changes.
// Declines at kernel pick: an activation on Y (the SE gate).
#include <vector>

#include "lite/kernels/arm/arm_kernel.h"
#include "lite/kernels/arm/epilogue.h"
#include "lite/operators/elementwise_ops.h"

namespace lite {
namespace kernels {
namespace arm {

namespace {

using operators::ElementwiseKind;

class ElementwiseCompute : public ArmKernel {
 public:
  Status Run() override {
    const auto& p = Param<operators::ElementwiseParam>();
    if (!op_) RETURN_IF_ERROR(Create(p));
    if (p.out_dims.size() > XNN_MAX_TENSOR_DIMS) {
      return Unimplemented(What() + ": rank " + std::to_string(p.out_dims.size()) +
                           " above XNNPACK's " + std::to_string(XNN_MAX_TENSOR_DIMS));
    }
    const bool nhwc_out = Nhwc(*p.out);
    std::vector<size_t> xs, ys;
    const float* x = Operand(*p.x, p.x_dims, nhwc_out, &xs, &x_copy_);
    const float* y = Operand(*p.y, p.y_dims, nhwc_out, &ys, &y_copy_);
    float* out = p.out->mutable_data<float>();
    xnn_status s = xnn_status_success;
    const char* call = "";
    switch (p.kind) {
      case ElementwiseKind::kAdd:
        s = xnn_setup_add_nd_f32(op_.get(), xs.size(), xs.data(), ys.size(), ys.data(), x, y, out,
                                 pool());
        call = "xnn_setup_add_nd_f32";
        break;
      case ElementwiseKind::kSub:
        s = xnn_setup_subtract_nd_f32(op_.get(), xs.size(), xs.data(), ys.size(), ys.data(), x, y,
                                      out, pool());
        call = "xnn_setup_subtract_nd_f32";
        break;
      case ElementwiseKind::kMul:
        s = xnn_setup_multiply_nd_f32(op_.get(), xs.size(), xs.data(), ys.size(), ys.data(), x, y,
                                      out, pool());
        call = "xnn_setup_multiply_nd_f32";
        break;
      case ElementwiseKind::kDiv:
        s = xnn_setup_divide_nd_f32(op_.get(), xs.size(), xs.data(), ys.size(), ys.data(), x, y,
                                    out, pool());
        call = "xnn_setup_divide_nd_f32";
        break;
      default: return Unimplemented(What() + ": no XNNPACK operator for this kind");
    }
    RETURN_IF_ERROR(Check(s, call));
    RETURN_IF_ERROR(Check(xnn_run_operator(op_.get(), pool()), "xnn_run_operator (elementwise)"));
    return epilogue_.Run(out, static_cast<size_t>(p.out->numel()), pool());
  }

 private:
  Status Create(const operators::ElementwiseParam& p) {
    RETURN_IF_ERROR(epilogue_.Init(p.act, What()));
    const lite::arm::Clamp c = epilogue_.clamp();
    xnn_operator_t op = nullptr;
    switch (p.kind) {
      case ElementwiseKind::kAdd:
        RETURN_IF_ERROR(Check(xnn_create_add_nd_f32(c.lo, c.hi, 0, &op), "xnn_create_add_nd_f32"));
        break;
      case ElementwiseKind::kSub:
        RETURN_IF_ERROR(Check(xnn_create_subtract_nd_f32(c.lo, c.hi, 0, &op),
                              "xnn_create_subtract_nd_f32"));
        break;
      case ElementwiseKind::kMul:
        RETURN_IF_ERROR(Check(xnn_create_multiply_nd_f32(c.lo, c.hi, 0, &op),
                              "xnn_create_multiply_nd_f32"));
        break;
      case ElementwiseKind::kDiv:
        RETURN_IF_ERROR(Check(xnn_create_divide_nd_f32(c.lo, c.hi, 0, &op),
                              "xnn_create_divide_nd_f32"));
        break;
      default: return Unimplemented(What() + ": no XNNPACK operator for this kind");
    }
    op_.reset(op);
    return Status::OK();
  }

  // `t` (aligned dims `d`) as XNNPACK sees it: its shape in the output's
  // memory order and its data, a permuted copy in `copy` when needed.
  const float* Operand(const Tensor& t, const DDim& d, bool nhwc_out, std::vector<size_t>* shape,
                       std::vector<float>* copy) const {
    shape->clear();
    if (!nhwc_out) {
      for (int64_t v : d) shape->push_back(static_cast<size_t>(v));
      return t.data<float>();
    }
    for (int i : {0, 2, 3, 1}) shape->push_back(static_cast<size_t>(d[i]));
    if (Nhwc(t) || d[1] == 1 || d[2] * d[3] == 1) return t.data<float>();
    copy->resize(static_cast<size_t>(t.numel()));
    PermuteNchw(t.data<float>(), copy->data(), d[0], d[1], d[2] * d[3], true);
    return copy->data();
  }

  lite::arm::XnnOperator op_;
  Epilogue epilogue_;
  std::vector<float> x_copy_, y_copy_;
};

bool ElementwiseAccepts(const cpp::OpDesc& desc) {
  return operators::FusedActivation::FromOpDesc(desc).ok() &&
         desc.GetAttr<std::string>("y_activation", "").empty();
}

}  // namespace
}  // namespace arm
}  // namespace kernels
}  // namespace lite

#define LITE_REGISTER_ARM_ELEMENTWISE(op)                                              \
  REGISTER_LITE_KERNEL(op, kARM, kFloat, kNHWC, lite::kernels::arm::ElementwiseCompute, \
                       def)                                                            \
      .SetAccepts(lite::kernels::arm::ElementwiseAccepts)                             \
      .Finalize()

LITE_REGISTER_ARM_ELEMENTWISE(elementwise_add);
LITE_REGISTER_ARM_ELEMENTWISE(elementwise_sub);
LITE_REGISTER_ARM_ELEMENTWISE(elementwise_mul);
LITE_REGISTER_ARM_ELEMENTWISE(elementwise_div);
