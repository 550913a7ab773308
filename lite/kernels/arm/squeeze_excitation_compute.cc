// arm squeeze_excitation (float32, NHWC; the MobileNetV3 block
// se_gate_fuse_pass / se_block_fuse_pass form) as four XNNPACK operators:
// m = global_average_pooling_nwc_f32(X), h = act(fully_connected(m)),
// g = y_act(fully_connected(h)) (SqueezeFilter [R, C] and ExciteFilter
// [C, R] are XNNPACK's [output, input] weights as they are, packed once),
// Out = multiply_nd(X, g broadcast over H and W). The activations fold into
// the fully-connected clamps or run after them (epilogue.h). Operators are
// created at the first run; set up again when the dims, a pointer or the
// thread count change. The quantized form (Squeeze / Excite input scales,
// se_block_fuse_pass on int8 convs) quant-dequantizes m and h between the
// operators. With SqueezeExcitationParam::levels (int8_requantize_pass;
// registered as kInt8 "levels_out", as x86's) Out is int8 levels: the
// multiply is the engine's loop (int8_loops.h), each product x * g quantized
// by the int8 reader's rule as it is written, so the float product is the
// multiply operator's and no float Out is written and read back.
#include <limits>
#include <string>
#include <vector>

#include "lite/kernels/arm/arm_kernel.h"
#include "lite/kernels/arm/epilogue.h"
#include "lite/kernels/arm/int8_loops.h"
#include "lite/operators/elementwise_ops.h"
#include "lite/operators/squeeze_excitation_op.h"

namespace lite {
namespace kernels {
namespace arm {

namespace {

class SqueezeExcitationCompute : public ArmKernel {
 public:
  Status Init() override {
    RETURN_IF_ERROR(ArmKernel::Init());
    const auto& p = Param<operators::SqueezeExcitationParam>();
    RETURN_IF_ERROR(CheckConstantWeights(p.squeeze_filter, p.squeeze_bias));
    return CheckConstantWeights(p.excite_filter, p.excite_bias);
  }

  Status Run() override {
    const auto& p = Param<operators::SqueezeExcitationParam>();
    if (!pool_op_) RETURN_IF_ERROR(Create(p));
    const DDim& d = p.x->dims();
    if (d.size() != 4 || !Nhwc(*p.x)) {
      return InvalidArgument(What() + ": X must be a rank-4 activation, got " + DimsToString(d));
    }
    const int64_t n = d[0], c = d[1], hw = d[2] * d[3];
    m_.resize(static_cast<size_t>(n * c));
    h_.resize(static_cast<size_t>(n * r_));
    g_.resize(static_cast<size_t>(n * c));
    const float* x = p.x->data<float>();
    const bool levels = p.levels.enabled;
    void* y = levels ? static_cast<void*>(p.out->mutable_data<int8_t>())
                     : static_cast<void*>(p.out->mutable_data<float>());
    if (d != dims_ || x != x_ || y != y_ || PoolChanged()) {
      RETURN_IF_ERROR(Check(xnn_setup_global_average_pooling_nwc_f32(pool_op_.get(), n, hw, x,
                                                                     m_.data(), pool()),
                            "xnn_setup_global_average_pooling_nwc_f32"));
      RETURN_IF_ERROR(Check(xnn_setup_fully_connected_nc_f32(squeeze_.get(), n, m_.data(),
                                                             h_.data(), pool()),
                            "xnn_setup_fully_connected_nc_f32 (squeeze)"));
      RETURN_IF_ERROR(Check(xnn_setup_fully_connected_nc_f32(excite_.get(), n, h_.data(),
                                                             g_.data(), pool()),
                            "xnn_setup_fully_connected_nc_f32 (excite)"));
      const size_t xs[4] = {static_cast<size_t>(n), static_cast<size_t>(d[2]),
                            static_cast<size_t>(d[3]), static_cast<size_t>(c)};
      const size_t gs[4] = {static_cast<size_t>(n), 1, 1, static_cast<size_t>(c)};
      if (!levels) {
        RETURN_IF_ERROR(Check(xnn_setup_multiply_nd_f32(mul_.get(), 4, xs, 4, gs, x, g_.data(),
                                                        static_cast<float*>(y), pool()),
                              "xnn_setup_multiply_nd_f32"));
      }
      dims_ = d;
      x_ = x;
      y_ = y;
    }
    RETURN_IF_ERROR(Check(xnn_run_operator(pool_op_.get(), pool()), "xnn_run_operator (mean)"));
    // The quantized form: the int8 convs' input rule on m and h (no-ops
    // without the scales), as the host kernel does.
    operators::QuantDequantInPlace(p.squeeze_input_scale, p.squeeze_round_type, m_.data(),
                                   n * c);
    RETURN_IF_ERROR(Check(xnn_run_operator(squeeze_.get(), pool()), "xnn_run_operator (squeeze)"));
    RETURN_IF_ERROR(act_.Run(h_.data(), h_.size(), pool()));
    operators::QuantDequantInPlace(p.excite_input_scale, p.excite_round_type, h_.data(),
                                   n * r_);
    RETURN_IF_ERROR(Check(xnn_run_operator(excite_.get(), pool()), "xnn_run_operator (excite)"));
    RETURN_IF_ERROR(y_act_.Run(g_.data(), g_.size(), pool()));
    if (levels) {
      for (int64_t i = 0; i < n; ++i) {
        GateQuantizeLevels(x + i * hw * c, g_.data() + i * c, static_cast<int8_t*>(y) + i * hw * c,
                           static_cast<size_t>(hw), static_cast<size_t>(c), p.levels.scale,
                           p.levels.round_type);
      }
      return Status::OK();
    }
    return Check(xnn_run_operator(mul_.get(), pool()), "xnn_run_operator (multiply)");
  }

 private:
  Status Create(const operators::SqueezeExcitationParam& p) {
    const DDim& sf = p.squeeze_filter->dims();
    const size_t r = static_cast<size_t>(sf[0]), c = static_cast<size_t>(sf[1]);
    r_ = static_cast<int64_t>(r);
    const float inf = std::numeric_limits<float>::infinity();
    RETURN_IF_ERROR(act_.Init(p.act, What()));
    RETURN_IF_ERROR(y_act_.Init(p.y_act, What()));
    xnn_operator_t op = nullptr;
    RETURN_IF_ERROR(Check(xnn_create_global_average_pooling_nwc_f32(c, c, c, -inf, inf, 0, &op),
                          "xnn_create_global_average_pooling_nwc_f32"));
    pool_op_.reset(op);
    op = nullptr;
    RETURN_IF_ERROR(Check(xnn_create_fully_connected_nc_f32(
                              c, r, c, r, p.squeeze_filter->data<float>(),
                              p.squeeze_bias ? p.squeeze_bias->data<float>() : nullptr,
                              act_.clamp().lo, act_.clamp().hi, 0, &op),
                          "xnn_create_fully_connected_nc_f32 (squeeze)"));
    squeeze_.reset(op);
    op = nullptr;
    RETURN_IF_ERROR(Check(xnn_create_fully_connected_nc_f32(
                              r, c, r, c, p.excite_filter->data<float>(),
                              p.excite_bias ? p.excite_bias->data<float>() : nullptr,
                              y_act_.clamp().lo, y_act_.clamp().hi, 0, &op),
                          "xnn_create_fully_connected_nc_f32 (excite)"));
    excite_.reset(op);
    if (p.levels.enabled) return Status::OK();  // the gate is GateQuantizeLevels' loop
    op = nullptr;
    RETURN_IF_ERROR(Check(xnn_create_multiply_nd_f32(-inf, inf, 0, &op),
                          "xnn_create_multiply_nd_f32"));
    mul_.reset(op);
    return Status::OK();
  }

  lite::arm::XnnOperator pool_op_, squeeze_, excite_, mul_;
  Epilogue act_, y_act_;
  int64_t r_ = 0;
  std::vector<float> m_, h_, g_;
  DDim dims_;
  const float* x_ = nullptr;
  void* y_ = nullptr;
};

bool ActivationsAccepted(const cpp::OpDesc& desc) {
  return operators::FusedActivation::FromOpDesc(desc).ok() &&
         operators::YActivationFromOpDesc(desc).ok();
}

bool SqueezeExcitationAccepts(const cpp::OpDesc& desc) {
  return desc.GetAttr<std::string>("Output_dtype", "float32") == "float32" &&
         ActivationsAccepted(desc);
}

bool SqueezeExcitationLevelsAccepts(const cpp::OpDesc& desc) {
  return desc.GetAttr<bool>("enable_int8", false) &&
         desc.GetAttr<std::string>("Output_dtype", "float32") == "int8" &&
         ActivationsAccepted(desc);
}

}  // namespace
}  // namespace arm
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(squeeze_excitation, kARM, kFloat, kNHWC,
                     lite::kernels::arm::SqueezeExcitationCompute, def)
    .SetAccepts(lite::kernels::arm::SqueezeExcitationAccepts)
    .Finalize();
REGISTER_LITE_KERNEL(squeeze_excitation, kARM, kInt8, kNHWC,
                     lite::kernels::arm::SqueezeExcitationCompute, levels_out)
    .BindInput("X", lite::Place(TARGET(kARM), PRECISION(kFloat), DATALAYOUT(kNHWC)))
    .BindInput("SqueezeFilter", lite::Place(TARGET(kARM), PRECISION(kFloat), DATALAYOUT(kNHWC)))
    .BindInput("SqueezeBias", lite::Place(TARGET(kARM), PRECISION(kFloat), DATALAYOUT(kNHWC)))
    .BindInput("ExciteFilter", lite::Place(TARGET(kARM), PRECISION(kFloat), DATALAYOUT(kNHWC)))
    .BindInput("ExciteBias", lite::Place(TARGET(kARM), PRECISION(kFloat), DATALAYOUT(kNHWC)))
    .BindOutput("Out", lite::Place(TARGET(kARM), PRECISION(kInt8), DATALAYOUT(kNHWC)))
    .SetAccepts(lite::kernels::arm::SqueezeExcitationLevelsAccepts)
    .Finalize();
