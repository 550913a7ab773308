// arm softmax (float32) over the last axis on XNNPACK's softmax_nc_f32:
// outer rows of n values. Registered at layout NCHW, so the last axis is the
// innermost one in memory (W of a rank-4 tensor, C of a [N, C] one).
// The operator is created again only when n changes; set up when the row
// count or a pointer changes. Declines at kernel pick: any other axis
// (judged from the declared rank) and log_softmax (not registered).
#include "lite/kernels/arm/arm_kernel.h"
#include "lite/operators/softmax_op.h"

namespace lite {
namespace kernels {
namespace arm {

namespace {

class SoftmaxCompute : public ArmKernel {
 public:
  Status Run() override {
    const auto& p = Param<operators::SoftmaxParam>();
    if (p.inner != 1) {
      return Unimplemented(What() + ": axis " + std::to_string(p.axis) + " of " +
                           DimsToString(p.x->dims()) + " is not the last");
    }
    if (!op_ || p.n != n_) {
      xnn_operator_t op = nullptr;
      RETURN_IF_ERROR(Check(xnn_create_softmax_nc_f32(p.n, p.n, p.n, 0, &op),
                            "xnn_create_softmax_nc_f32"));
      op_.reset(op);
      n_ = p.n;
      outer_ = -1;
    }
    const float* x = p.x->data<float>();
    float* y = p.out->mutable_data<float>();
    if (p.outer != outer_ || x != x_ || y != y_ || PoolChanged()) {
      RETURN_IF_ERROR(Check(xnn_setup_softmax_nc_f32(op_.get(), p.outer, x, y, pool()),
                            "xnn_setup_softmax_nc_f32"));
      outer_ = p.outer;
      x_ = x;
      y_ = y;
    }
    return Check(xnn_run_operator(op_.get(), pool()), "xnn_run_operator (softmax)");
  }

 private:
  lite::arm::XnnOperator op_;
  int64_t n_ = -1, outer_ = -1;
  const float* x_ = nullptr;
  float* y_ = nullptr;
};

// axis -1, or the last axis of X's declared rank.
bool SoftmaxAcceptsDims(const cpp::OpDesc& desc, const VarDimsFn& dims) {
  const int axis = desc.GetAttr<int32_t>("axis", -1);
  if (axis == -1) return true;
  const auto& xs = desc.Input("X");
  if (xs.size() != 1) return false;
  const auto d = dims(xs[0]);
  return !d.empty() && axis == static_cast<int>(d.size()) - 1;
}

}  // namespace
}  // namespace arm
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(softmax, kARM, kFloat, kNCHW, lite::kernels::arm::SoftmaxCompute, def)
    .SetAcceptsDims(lite::kernels::arm::SoftmaxAcceptsDims)
    .Finalize();
