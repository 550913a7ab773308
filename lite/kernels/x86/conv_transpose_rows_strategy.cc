// The transposed conv's oneDNN matmul strategy for non-overlapping strided
// transposes that the own GEMM does not take (its activation, or a build
// without it): per kernel row i, one oneDNN batched matmul [N*H, W, C_in] x
// [C_in, kw*C_out] (bias and activation as post-ops) written through a
// strided destination straight into NHWC output rows h*kh + i, where the
// kw x C_out block of each input pixel is contiguous. impl_info() is the
// matmul's oneDNN name.
#include <string>
#include <vector>

#include "lite/backends/x86/post_ops.h"
#include "lite/kernels/x86/conv_transpose_compute.h"

namespace lite {
namespace kernels {
namespace x86 {
namespace {

using dnnl::memory;

class RowsStrategy : public ConvTransposeStrategy {
 public:
  const char* name() const override { return "onednn_rows"; }

  Verdict Accepts(const ConvTransposeContext& c) const override {
    return NonOverlappingStrided(c);
  }

  Status Plan(ConvTransposeContext& c) override {
    const operators::ConvTransposeParam& p = c.p;
    const DDim& in = p.input->dims();
    const DDim& f = p.filter->dims();  // [C_in, C_out, kh, kw]
    const int64_t rows = in[0] * in[2], wd = in[3], k = f[0], oc = f[1], kh = f[2], kw = f[3];
    const int64_t cols = kw * oc;  // (j, oc) of one kernel row
    const auto f32 = memory::data_type::f32;
    if (weights_.empty()) {  // per i: [C_in, (j, oc)]; bias repeated per j
      weights_.resize(kh * k * cols);
      for (int64_t i = 0; i < kh; ++i)
        for (int64_t ci = 0; ci < k; ++ci)
          for (int64_t j = 0; j < kw; ++j)
            for (int64_t o = 0; o < oc; ++o)
              weights_[(i * k + ci) * cols + j * oc + o] =
                  p.filter->data<float>()[((ci * oc + o) * kh + i) * kw + j];
      if (p.bias) {
        bias_.resize(cols);
        for (int64_t j = 0; j < kw; ++j)
          for (int64_t o = 0; o < oc; ++o) bias_[j * oc + o] = p.bias->data<float>()[o];
      }
    }
    src_ = memory::desc({rows, wd, k}, f32, memory::format_tag::abc);
    w_ = memory::desc({1, k, cols}, f32, memory::format_tag::abc);
    bias_md_ = memory::desc({1, 1, cols}, f32, memory::format_tag::abc);
    // Input row r = (n, h) writes output row r * kh + i: [w, (j, oc)] is
    // contiguous there.
    dst_ = memory::desc({rows, wd, cols}, f32, memory::dims{kh * wd * cols, cols, 1});
    dnnl::matmul::desc d = p.bias ? dnnl::matmul::desc(src_, w_, bias_md_, dst_)
                                  : dnnl::matmul::desc(src_, w_, dst_);
    dnnl::matmul::primitive_desc pd(d, lite::x86::ActivationAttr(p.act), lite::x86::CpuEngine());
    impl_info_ = pd.impl_info_str();
    matmul_ = dnnl::matmul(pd);
    return Status::OK();
  }

  Status Run(ConvTransposeContext& c) override {
    const operators::ConvTransposeParam& p = c.p;
    ConvTransposeCompute& kernel = c.kernel;
    const DDim& f = p.filter->dims();
    const int64_t wd = p.input->dims()[3], k = f[0], kh = f[2], cols = f[3] * f[1];
    float* out = p.output->mutable_data<float>();
    for (int64_t i = 0; i < kh; ++i) {
      if (p.bias) kernel.AddArg(DNNL_ARG_BIAS, kernel.Mem(DNNL_ARG_BIAS, bias_md_, bias_.data()));
      kernel.Execute(matmul_,
                     {{DNNL_ARG_SRC, kernel.Mem(DNNL_ARG_SRC, src_, p.input->data<float>())},
                      {DNNL_ARG_WEIGHTS,
                       kernel.Mem(DNNL_ARG_WEIGHTS, w_, weights_.data() + i * k * cols)},
                      {DNNL_ARG_DST, kernel.Mem(DNNL_ARG_DST, dst_, out + i * wd * cols)}});
    }
    return Status::OK();
  }

  const std::string& impl_info() const override { return impl_info_; }

 private:
  std::string impl_info_;
  std::vector<float> weights_, bias_;
  dnnl::matmul matmul_;
  memory::desc src_, w_, bias_md_, dst_;
};

}  // namespace

std::unique_ptr<ConvTransposeStrategy> MakeConvTransposeRowsStrategy() {
  return std::make_unique<RowsStrategy>();
}

}  // namespace x86
}  // namespace kernels
}  // namespace lite
