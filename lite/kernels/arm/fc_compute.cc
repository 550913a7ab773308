// arm fc (float32) on XNNPACK's fully_connected_nc_f32: Input flattened to
// [m, k] at in_num_col_dims, the constant W [k, n] packed once when the
// operator is created (XNN_FLAG_TRANSPOSE_WEIGHTS: XNNPACK reads it as
// [input channels, output channels]), the bias and activation_type relu
// plus a fused activation (epilogue.h: relu / relu6 as the output clamp, the
// others applied in place after the operator).
// Registered at layout NCHW (Input is flattened in its logical order). The
// operator is created again only when k or n change; it is set up when m or a
// pointer changes.
#include <algorithm>

#include "lite/kernels/arm/arm_kernel.h"
#include "lite/kernels/arm/epilogue.h"
#include "lite/operators/matmul_ops.h"

namespace lite {
namespace kernels {
namespace arm {

namespace {

class FcCompute : public ArmKernel {
 public:
  // W and the bias are packed at the first run: they must be weights, set
  // before anything runs.
  Status Init() override {
    RETURN_IF_ERROR(ArmKernel::Init());
    const auto& p = Param<operators::FcParam>();
    return CheckConstantWeights(p.w, p.bias);
  }

  Status Run() override {
    const auto& p = Param<operators::FcParam>();
    if (!op_ || p.k != k_ || p.n != n_) RETURN_IF_ERROR(Create(p));
    const float* x = p.input->data<float>();
    float* y = p.out->mutable_data<float>();
    if (p.m != m_ || x != x_ || y != y_ || PoolChanged()) {
      RETURN_IF_ERROR(Check(xnn_setup_fully_connected_nc_f32(op_.get(), p.m, x, y, pool()),
                            "xnn_setup_fully_connected_nc_f32"));
      m_ = p.m;
      x_ = x;
      y_ = y;
    }
    RETURN_IF_ERROR(Check(xnn_run_operator(op_.get(), pool()), "xnn_run_operator (fc)"));
    return epilogue_.Run(y, static_cast<size_t>(p.out->numel()), pool());
  }

 private:
  Status Create(const operators::FcParam& p) {
    RETURN_IF_ERROR(epilogue_.Init(p.act, What()));
    lite::arm::Clamp c = epilogue_.clamp();
    // activation_type relu comes first, then the fused activation: a clamp
    // folds it (max(relu, clamp)); an epilogue needs the operator's relu.
    if (p.relu) c.lo = std::max(c.lo, 0.f);
    xnn_operator_t op = nullptr;
    RETURN_IF_ERROR(Check(xnn_create_fully_connected_nc_f32(
                              p.k, p.n, p.k, p.n, p.w->data<float>(),
                              p.bias ? p.bias->data<float>() : nullptr, c.lo, c.hi,
                              XNN_FLAG_TRANSPOSE_WEIGHTS, &op),
                          "xnn_create_fully_connected_nc_f32"));
    op_.reset(op);
    k_ = p.k;
    n_ = p.n;
    m_ = -1;
    return Status::OK();
  }

  lite::arm::XnnOperator op_;
  Epilogue epilogue_;
  int64_t m_ = -1, k_ = -1, n_ = -1;
  const float* x_ = nullptr;
  float* y_ = nullptr;
};

bool FcAccepts(const cpp::OpDesc& desc) {
  return operators::FusedActivation::FromOpDesc(desc).ok();
}

}  // namespace
}  // namespace arm
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(fc, kARM, kFloat, kNCHW, lite::kernels::arm::FcCompute, def)
    .SetAccepts(lite::kernels::arm::FcAccepts)
    .Finalize();
