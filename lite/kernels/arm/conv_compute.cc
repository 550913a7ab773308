// arm conv2d / depthwise_conv2d (float32, NHWC) on XNNPACK's
// convolution2d_nhwc_f32: grouped, depthwise (one input and one output
// channel per group, XNNPACK's dwconv kernels), strided and dilated convs,
// with any fused activation (epilogue.h: relu / relu6 as the operator's
// output clamp, the others applied in place after it).
// The filter [O, I/g, KH, KW] is repacked once to XNNPACK's [O, KH, KW, I/g]
// and packed by XNNPACK when the operator is created (first run, and again
// only when the resolved paddings change, e.g. SAME padding on new dims).
// ResidualData (conv_residual_fuse_pass) is added by a second XNNPACK
// operator (add_nd_f32) in place on the output, which then carries the
// clamp: act(conv + bias + r). The post-affine of conv_scale_fuse_pass
// (fuse_post_scale / fuse_post_bias) is a loop after the activation.
// Declines at kernel pick: NHWC data_format.
// With enable_fp16 (opt --enable_fp16) the conv runs convolution2d_nhwc_f16
// on filter and bias converted to half once: the float32 input is converted
// to half (convert_nc_f32_f16) and the result back (convert_nc_f16_f32)
// before the residual add and the epilogue, which stay float32. Init refuses
// the fp16 form on a CPU without half arithmetic (CheckFp16Arithmetic).
#include <cstdint>
#include <vector>

#include "lite/kernels/arm/arm_kernel.h"
#include "lite/kernels/arm/epilogue.h"
#include "lite/operators/conv_op.h"

namespace lite {
namespace kernels {
namespace arm {

namespace {

class ConvCompute : public ArmKernel {
 public:
  // Filter and bias are packed at the first run: they must be weights, set
  // before anything runs (a model computing them gets this error instead).
  Status Init() override {
    RETURN_IF_ERROR(ArmKernel::Init());
    const auto& p = Param<operators::ConvParam>();
    if (p.enable_fp16) RETURN_IF_ERROR(lite::arm::CheckFp16Arithmetic());
    return CheckConstantWeights(p.filter, p.bias);
  }

  Status Run() override {
    const auto& p = Param<operators::ConvParam>();
    if (!conv_ || p.eff_paddings != paddings_) RETURN_IF_ERROR(Create(p));
    const DDim& in = p.input->dims();
    const float* x = p.input->data<float>();
    float* y = p.output->mutable_data<float>();
    const bool pool_changed = PoolChanged();
    if (in != dims_ || x != x_ || y != y_ || pool_changed) {
      if (fp16_) {
        RETURN_IF_ERROR(SetupHalf(p, x, y));
      } else {
        RETURN_IF_ERROR(Check(xnn_setup_convolution2d_nhwc_f32(conv_.get(), in[0], in[2], in[3],
                                                               x, y, pool()),
                              "xnn_setup_convolution2d_nhwc_f32"));
      }
      dims_ = in;
      x_ = x;
      y_ = y;
    }
    if (fp16_) {
      RETURN_IF_ERROR(Check(xnn_run_operator(to_half_.get(), pool()), "xnn_run_operator (to f16)"));
    }
    RETURN_IF_ERROR(Check(xnn_run_operator(conv_.get(), pool()), "xnn_run_operator (conv)"));
    if (fp16_) {
      RETURN_IF_ERROR(Check(xnn_run_operator(to_float_.get(), pool()), "xnn_run_operator (to f32)"));
    }
    const size_t n = static_cast<size_t>(p.output->numel());
    if (p.residual) RETURN_IF_ERROR(RunResidualAdd(add_.get(), *p.residual, p.output->dims(), y));
    RETURN_IF_ERROR(epilogue_.Run(y, n, pool()));
    if (p.has_post_affine()) {
      // fuse_post_scale / fuse_post_bias after the activation, in place, as
      // the host kernel applies them (XNNPACK has no affine operator).
      const float a = p.post_scale, b = p.post_bias;
      for (size_t i = 0; i < n; ++i) y[i] = y[i] * a + b;
    }
    return Status::OK();
  }

 private:
  Status Create(const operators::ConvParam& p) {
    const DDim& f = p.filter->dims();
    if (f.size() != 4 || p.groups < 1 || f[0] % p.groups != 0) {
      return InvalidArgument(What() + ": filter dims " + DimsToString(f) + " with groups " +
                             std::to_string(p.groups));
    }
    RETURN_IF_ERROR(epilogue_.Init(p.act, What()));
    const lite::arm::Clamp clamp = epilogue_.clamp();
    const int64_t oc = f[0], icg = f[1], kh = f[2], kw = f[3], g = p.groups;
    const bool half_filter = p.filter->dtype() == DataType::kFloat16;
    if (half_filter && !p.enable_fp16) {
      return InvalidArgument(What() + ": a float16 filter needs enable_fp16");
    }
    // With ResidualData the clamp moves to the add (act(conv + r)).
    const lite::arm::Clamp conv_clamp = p.residual ? lite::arm::Clamp() : clamp;
    xnn_operator_t op = nullptr;
    const auto& pad = p.eff_paddings;  // top, bottom, left, right
    fp16_ = p.enable_fp16;
    if (fp16_) {
      RETURN_IF_ERROR(lite::arm::CheckFp16Arithmetic());
      std::vector<uint16_t> w16, b16;
      if (half_filter) {
        w16 = Repack(p.filter->data<uint16_t>(), oc, icg, kh * kw);
      } else {
        const std::vector<float> w = Repack(p.filter->data<float>(), oc, icg, kh * kw);
        RETURN_IF_ERROR(lite::arm::ToHalf(w.data(), w.size(), &w16));
      }
      if (p.bias) RETURN_IF_ERROR(lite::arm::ToHalf(p.bias->data<float>(), oc, &b16));
      RETURN_IF_ERROR(Check(
          xnn_create_convolution2d_nhwc_f16(
              pad[0], pad[3], pad[1], pad[2], kh, kw, p.strides[0], p.strides[1],
              p.eff_dilations[0], p.eff_dilations[1], g, icg, oc / g, icg * g, oc, w16.data(),
              p.bias ? b16.data() : nullptr, conv_clamp.lo, conv_clamp.hi, 0, &op),
          "xnn_create_convolution2d_nhwc_f16"));
      conv_.reset(op);
      RETURN_IF_ERROR(CreateConverts(icg * g, oc));
    } else {
      const std::vector<float> w = Repack(p.filter->data<float>(), oc, icg, kh * kw);
      RETURN_IF_ERROR(Check(
          xnn_create_convolution2d_nhwc_f32(
              pad[0], pad[3], pad[1], pad[2], kh, kw, p.strides[0], p.strides[1],
              p.eff_dilations[0], p.eff_dilations[1], g, icg, oc / g, icg * g, oc, w.data(),
              p.bias ? p.bias->data<float>() : nullptr, conv_clamp.lo, conv_clamp.hi, 0, &op),
          "xnn_create_convolution2d_nhwc_f32"));
      conv_.reset(op);
    }
    paddings_ = p.eff_paddings;
    dims_.clear();
    if (p.residual) RETURN_IF_ERROR(CreateResidualAdd(clamp, &add_));
    return Status::OK();
  }

  // [O, I/g, KH, KW] -> XNNPACK's [O, KH, KW, I/g] (float or half bits).
  template <typename T>
  static std::vector<T> Repack(const T* src, int64_t oc, int64_t icg, int64_t khw) {
    std::vector<T> w(static_cast<size_t>(oc * icg * khw));
    for (int64_t o = 0; o < oc; ++o)
      for (int64_t i = 0; i < icg; ++i)
        for (int64_t k = 0; k < khw; ++k) w[(o * khw + k) * icg + i] = src[(o * icg + i) * khw + k];
    return w;
  }

  // The fp16 form's float32 <-> half conversions of input and output.
  Status CreateConverts(size_t in_channels, size_t out_channels) {
    if (to_half_ && to_float_) return Status::OK();
    xnn_operator_t op = nullptr;
    RETURN_IF_ERROR(Check(xnn_create_convert_nc_f32_f16(in_channels, in_channels, in_channels, 0,
                                                        &op),
                          "xnn_create_convert_nc_f32_f16"));
    to_half_.reset(op);
    op = nullptr;
    RETURN_IF_ERROR(Check(xnn_create_convert_nc_f16_f32(out_channels, out_channels, out_channels,
                                                        0, &op),
                          "xnn_create_convert_nc_f16_f32"));
    to_float_.reset(op);
    return Status::OK();
  }

  // Binds x -> half buffer -> conv -> half buffer -> y (NHWC rows).
  Status SetupHalf(const operators::ConvParam& p, const float* x, float* y) {
    const DDim& in = p.input->dims();
    const DDim& o = p.output->dims();
    x16_.resize(static_cast<size_t>(p.input->numel()));
    y16_.resize(static_cast<size_t>(p.output->numel()));
    RETURN_IF_ERROR(Check(xnn_setup_convert_nc_f32_f16(to_half_.get(), in[0] * in[2] * in[3], x,
                                                       x16_.data(), pool()),
                          "xnn_setup_convert_nc_f32_f16"));
    RETURN_IF_ERROR(Check(xnn_setup_convolution2d_nhwc_f16(conv_.get(), in[0], in[2], in[3],
                                                           x16_.data(), y16_.data(), pool()),
                          "xnn_setup_convolution2d_nhwc_f16"));
    return Check(xnn_setup_convert_nc_f16_f32(to_float_.get(), o[0] * o[2] * o[3], y16_.data(), y,
                                              pool()),
                 "xnn_setup_convert_nc_f16_f32");
  }

  lite::arm::XnnOperator conv_, add_, to_half_, to_float_;
  bool fp16_ = false;
  std::vector<uint16_t> x16_, y16_;  // the fp16 form's half activations
  Epilogue epilogue_;
  std::vector<int> paddings_;
  DDim dims_;
  const float* x_ = nullptr;
  float* y_ = nullptr;
};

bool ConvAccepts(const cpp::OpDesc& desc) {
  return operators::FusedActivation::FromOpDesc(desc).ok() &&
         desc.GetAttr<std::string>("data_format", "NCHW") != "NHWC";
}

}  // namespace
}  // namespace arm
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(conv2d, kARM, kFloat, kNHWC, lite::kernels::arm::ConvCompute, def)
    .SetAccepts(lite::kernels::arm::ConvAccepts)
    .Finalize();
REGISTER_LITE_KERNEL(depthwise_conv2d, kARM, kFloat, kNHWC, lite::kernels::arm::ConvCompute, def)
    .SetAccepts(lite::kernels::arm::ConvAccepts)
    .Finalize();
