// x86 int8 conv2d_transpose (the int8 form of conv_transpose_op.h, made by
// quant_dequant_fuse_pass) for the layers whose windows do not overlap:
// kernel == stride, no padding or dilation, one group, the output exactly
// input * kernel (PP-OCR det's 2x2 stride-2 upsampling layers). Other
// layers are declined at kernel pick (Accepts), so they keep the float32
// simulation of their quant ops.
//
// As the float kernel's strided path (conv_transpose_rows_strategy.cc): per kernel
// row i, one batched matmul [N*H, W, C_in] x [C_in, kw*C_out] written
// through a strided destination straight into NHWC output rows h*kh + i.
// Here the float32 NHWC input is quantized once per run to s8 levels with
// Input_scale by the op's rule (operators/quant_math.h); oneDNN multiplies
// s8 x s8 with int32 sums and writes float32 through per-column output
// scales Input_scale / 127 * Filter_scales[o] / 127, then the bias (a
// binary-add post-op, after the scales) and the fused activation. The int32
// sums are exact, so the result differs from the simulation only by float
// rounding. Weights are rearranged once into [kh][C_in, (j, o)].
#include <string>
#include <vector>

#include "lite/backends/x86/post_ops.h"
#include "lite/kernels/x86/dnnl_kernel.h"
#include "lite/operators/conv_transpose_op.h"
#include "lite/base/quant_math.h"

namespace lite {
namespace kernels {
namespace x86 {

namespace {

using dnnl::memory;

class ConvTransposeInt8Compute : public DnnlKernel {
 public:
  const std::string& impl_info() const override { return impl_info_; }

 protected:
  Status RunDnnl() override {
    const auto& p = Param<operators::ConvTransposeParam>();
    const DDim& in = p.input->dims();
    const DDim& f = p.filter->dims();  // [C_in, C_out, kh, kw]
    const DDim& out = p.output->dims();
    if (p.input->dtype() != DataType::kFloat32 || out[2] != in[2] * f[2] ||
        out[3] != in[3] * f[3]) {
      return InvalidArgument("int8 conv2d_transpose: needs a float32 input and an output of "
                             "input * kernel, got " + DimsToString(in) + " -> " +
                             DimsToString(out));
    }
    const int64_t wd = in[3], k = f[0], kh = f[2], cols = f[3] * f[1];
    if (in != planned_dims_) Plan(p);
    memory src = Temp(src_md_);
    operators::quant::QuantizeToInt8(p.input->data<float>(),
                                     static_cast<int8_t*>(src.get_data_handle()),
                                     p.input->numel(), p.input_scale, 127, p.quant_round_type);
    float* dst = p.output->mutable_data<float>();
    for (int64_t i = 0; i < kh; ++i) {
      if (p.bias) {
        AddArg(DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1,
               Mem(DNNL_ARG_BIAS, bias_md_, bias_.data()));
      }
      Execute(matmul_,
              {{DNNL_ARG_SRC, src},
               {DNNL_ARG_WEIGHTS, Mem(DNNL_ARG_WEIGHTS, w_md_, weights_.data() + i * k * cols)},
               {DNNL_ARG_DST, Mem(DNNL_ARG_DST, dst_md_, dst + i * wd * cols)}});
    }
    return Status::OK();
  }

 private:
  void Plan(const operators::ConvTransposeParam& p) {
    const DDim& in = p.input->dims();
    const DDim& f = p.filter->dims();
    const int64_t rows = in[0] * in[2], wd = in[3], k = f[0], oc = f[1], kh = f[2], kw = f[3];
    const int64_t cols = kw * oc;  // (j, o) of one kernel row
    if (weights_.empty()) {
      weights_.resize(kh * k * cols);
      const int8_t* levels = p.filter->data<int8_t>();
      for (int64_t i = 0; i < kh; ++i)
        for (int64_t c = 0; c < k; ++c)
          for (int64_t j = 0; j < kw; ++j)
            for (int64_t o = 0; o < oc; ++o)
              weights_[(i * k + c) * cols + j * oc + o] = levels[((c * oc + o) * kh + i) * kw + j];
      scales_.resize(cols);
      bias_.assign(cols, 0.f);
      for (int64_t j = 0; j < kw; ++j) {
        for (int64_t o = 0; o < oc; ++o) {
          scales_[j * oc + o] = p.input_scale / 127.f * (p.filter_scales[o] / 127.f);
          if (p.bias) bias_[j * oc + o] = p.bias->data<float>()[o];
        }
      }
    }
    const auto abc = memory::format_tag::abc;
    src_md_ = memory::desc({rows, wd, k}, memory::data_type::s8, abc);
    w_md_ = memory::desc({1, k, cols}, memory::data_type::s8, abc);
    bias_md_ = memory::desc({1, 1, cols}, memory::data_type::f32, abc);
    // Input row r = (n, h) writes output row r * kh + i: [w, (j, o)] is
    // contiguous there.
    dst_md_ = memory::desc({rows, wd, cols}, memory::data_type::f32,
                           memory::dims{kh * wd * cols, cols, 1});
    dnnl::post_ops ops;
    if (p.bias) ops.append_binary(dnnl::algorithm::binary_add, bias_md_);
    lite::x86::AppendActivation(p.act, &ops);
    dnnl::primitive_attr attr;
    attr.set_output_scales(1 << 2, scales_);
    attr.set_post_ops(ops);
    dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(src_md_, w_md_, dst_md_), attr,
                                    lite::x86::CpuEngine());
    impl_info_ = pd.impl_info_str();
    matmul_ = dnnl::matmul(pd);
    planned_dims_ = in;
  }

  DDim planned_dims_;
  std::vector<int8_t> weights_;  // [kh][C_in, (j, o)]
  std::vector<float> scales_, bias_;  // per column (j, o)
  dnnl::matmul matmul_;
  memory::desc src_md_, w_md_, bias_md_, dst_md_;
  std::string impl_info_;
};

// The non-overlapping layers (see the file comment), judged from the
// attributes and the filter's declared dims.
bool ConvTransposeInt8Accepts(const cpp::OpDesc& desc, const VarDimsFn& dims) {
  if (!desc.GetAttr<bool>("enable_int8", false) || !lite::x86::FusedActivationExpressible(desc) ||
      desc.HasInput("OutputSize") ||
      desc.GetAttr<std::string>("data_format", "NCHW") == "NHWC" ||
      desc.GetAttr<std::string>("padding_algorithm", "EXPLICIT") == "SAME" ||
      desc.GetAttr<int32_t>("groups", 1) != 1 || desc.Input("Filter").size() != 1) {
    return false;
  }
  for (const char* zeros : {"paddings", "output_padding"}) {
    for (int v : desc.GetAttr<std::vector<int>>(zeros, {})) {
      if (v != 0) return false;
    }
  }
  for (int v : desc.GetAttr<std::vector<int>>("dilations", {1, 1})) {
    if (v != 1) return false;
  }
  const std::vector<int64_t> f = dims(desc.Input("Filter").front());
  const std::vector<int> strides = desc.GetAttr<std::vector<int>>("strides", {1, 1});
  return f.size() == 4 && strides.size() == 2 && strides[0] == f[2] && strides[1] == f[3] &&
         desc.GetAttr<std::vector<int>>("output_size", {}).empty();
}

}  // namespace
}  // namespace x86
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(conv2d_transpose, kX86, kInt8, kNHWC,
                     lite::kernels::x86::ConvTransposeInt8Compute, def)
    .BindInput("Input", lite::Place(TARGET(kX86), PRECISION(kFloat), DATALAYOUT(kNHWC)))
    .BindInput("Bias", lite::Place(TARGET(kX86), PRECISION(kFloat), DATALAYOUT(kNHWC)))
    .BindOutput("Output", lite::Place(TARGET(kX86), PRECISION(kFloat), DATALAYOUT(kNHWC)))
    .SetAcceptsDims(lite::kernels::x86::ConvTransposeInt8Accepts)
    .Finalize();
