// What the x86 transpose kernels (conv_transpose_compute.h,
// conv_transpose_pair_compute.cc) share: RowGemms, a non-overlapping
// transpose as our 1x1 GEMM per kernel row, and InPlaceActivationKernel, an
// activation run in place after an own kernel.
#pragma once

#include <vector>

#include "lite/backends/x86/pointwise_conv.h"
#include "lite/backends/x86/post_ops.h"
#include "lite/kernels/x86/dnnl_kernel.h"
#include "lite/operators/conv_transpose_op.h"

namespace lite {
namespace kernels {
namespace x86 {

// A non-overlapping transpose (kernel == stride) as our 1x1 GEMM per kernel
// row i (lite/backends/x86/pointwise_conv.h): input row r's kw x C_out
// blocks go straight into output row r * kh + i.
class RowGemms {
 public:
  bool ready() const { return !gemms_.empty(); }
  // Packs filter [C_in, C_out, kh, kw] (and the bias, repeated per j).
  void Pack(const operators::ConvTransposeParam& p) {
    const DDim& f = p.filter->dims();
    const int64_t k = f[0], oc = f[1], kh = f[2], kw = f[3], cols = kw * oc;
    std::vector<float> w(cols * k);  // [(j, oc)][C_in] of kernel row i
    gemms_.clear();
    for (int64_t i = 0; i < kh; ++i) {
      for (int64_t j = 0; j < kw; ++j)
        for (int64_t o = 0; o < oc; ++o)
          for (int64_t c = 0; c < k; ++c)
            w[(j * oc + o) * k + c] = p.filter->data<float>()[((c * oc + o) * kh + i) * kw + j];
      gemms_.emplace_back();
      gemms_.back().SetFilter(w.data(), cols, k);
    }
    bias_.clear();
    if (p.bias) {
      bias_.resize(cols);
      for (int64_t j = 0; j < kw; ++j)
        for (int64_t o = 0; o < oc; ++o) bias_[j * oc + o] = p.bias->data<float>()[o];
    }
  }
  // Input row `x` (wd pixels of C_in) into the kh output rows at `out`
  // (wd * kw * C_out floats each, one after the other), on this thread.
  void RunRow(const operators::ConvTransposeParam& p, const float* x, int64_t wd,
              float* out) const {
    const DDim& f = p.filter->dims();
    const int64_t k = f[0], cols = f[3] * f[1];
    const float* bias = bias_.empty() ? nullptr : bias_.data();
    for (size_t i = 0; i < gemms_.size(); ++i) {
      gemms_[i].Run(wd, x, k, bias, p.act, out + static_cast<int64_t>(i) * wd * cols, cols, 1);
    }
  }

 private:
  std::vector<lite::x86::PointwiseConv> gemms_;
  std::vector<float> bias_;
};

// What both transpose kernels share: an activation run in place after an
// own kernel (oneDNN eltwise steps, made again when the dims change).
class InPlaceActivationKernel : public DnnlKernel {
 public:
  using memory = dnnl::memory;

  void ActivateInPlace(const operators::FusedActivation& act, Tensor* out) {
    if (!act.enabled()) return;
    const memory::desc md = Desc(*out);
    if (out->dims() != act_dims_) {
      dnnl::post_ops ops;
      lite::x86::AppendActivation(act, &ops);
      act_steps_ = lite::x86::EltwiseChain(ops, md);
      act_dims_ = out->dims();
    }
    memory dst = Mem(DNNL_ARG_DST, md, out->mutable_data<float>());
    for (const auto& step : act_steps_) Execute(step, {{DNNL_ARG_SRC, dst}, {DNNL_ARG_DST, dst}});
  }

 private:
  DDim act_dims_;
  std::vector<dnnl::eltwise_forward> act_steps_;
};

}  // namespace x86
}  // namespace kernels
}  // namespace lite
