// The transposed conv's own GEMM strategy: a non-overlapping strided
// transpose with no activation, relu or relu6 runs our 1x1 GEMM
// (lite/backends/x86/pointwise_conv.h, via RowGemms) per input row and
// kernel row i, writing the row's kw x C_out blocks straight into output
// row h * kh + i (near the core's fp32 roof on det's 160x160 24 -> 24
// layer, where oneDNN's batched matmul is slower). Rows are split over
// threads here, each GEMM runs on one. impl_info() "lite:pointwise_rows".
#include <string>

#include "lite/backends/x86/omp_ranges.h"
#include "lite/backends/x86/pointwise_conv.h"
#include "lite/kernels/x86/conv_transpose_compute.h"

namespace lite {
namespace kernels {
namespace x86 {
namespace {

using PC = lite::x86::PointwiseConv;

class RowGemmStrategy : public ConvTransposeStrategy {
 public:
  const char* name() const override { return "own_row_gemm"; }

  Verdict Accepts(const ConvTransposeContext& c) const override {
    Verdict v = NonOverlappingStrided(c);
    if (!v.accepted) return v;
    if (!PC::Available()) return Verdict::Decline("not in this build or on this CPU");
    if (!PC::Supports(c.p.act)) return Verdict::Decline("activation it does not compute");
    return Verdict::Accept();
  }

  Status Plan(ConvTransposeContext& c) override {
    if (!row_gemms_.ready()) row_gemms_.Pack(c.p);
    return Status::OK();
  }

  Status Run(ConvTransposeContext& c) override {
    const operators::ConvTransposeParam& p = c.p;
    const DDim& in = p.input->dims();
    const DDim& f = p.filter->dims();  // [C_in, C_out, kh, kw]
    const int64_t k = f[0], kh = f[2], wd = in[3], cols = f[3] * f[1];
    const float* x = p.input->data<float>();
    float* out = p.output->mutable_data<float>();
    const int64_t rows = in[0] * in[2];
    const int64_t work = rows * wd * k * cols * kh;
    lite::x86::OmpForRanges(c.kernel.threads(), rows, work, [&](int64_t r0, int64_t r1) {
      for (int64_t r = r0; r < r1; ++r) {
        row_gemms_.RunRow(p, x + r * wd * k, wd, out + r * kh * wd * cols);
      }
    });
    return Status::OK();
  }

  const std::string& impl_info() const override { return impl_info_; }

 private:
  const std::string impl_info_ = "lite:pointwise_rows";
  RowGemms row_gemms_;
};

}  // namespace

std::unique_ptr<ConvTransposeStrategy> MakeConvTransposeRowGemmStrategy() {
  return std::make_unique<RowGemmStrategy>();
}

}  // namespace x86
}  // namespace kernels
}  // namespace lite
