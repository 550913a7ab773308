// The transposed conv's strategy for narrow rows: a non-overlapping strided
// transpose with fewer than ConvTransposeCompute::kMinStridedCols columns
// per kernel row (kw * C_out), where oneDNN's strided batched matmul is
// slow, runs one oneDNN matmul [N*H*W, C_in] x [C_in, kh*kw*C_out] (bias and
// activation as post-ops) into a temporary and a scattering reorder into the
// NHWC output. impl_info() is the matmul's oneDNN name.
#include <string>
#include <vector>

#include "lite/backends/x86/post_ops.h"
#include "lite/kernels/x86/conv_transpose_compute.h"

namespace lite {
namespace kernels {
namespace x86 {
namespace {

using dnnl::memory;
using lite::x86::PlainDesc;

class ScatterStrategy : public ConvTransposeStrategy {
 public:
  const char* name() const override { return "onednn_scatter"; }

  Verdict Accepts(const ConvTransposeContext& c) const override {
    Verdict v = NonOverlappingStrided(c);
    if (!v.accepted) return v;
    const DDim& f = c.p.filter->dims();  // [C_in, C_out, kh, kw]
    if (f[3] * f[1] >= ConvTransposeCompute::kMinStridedCols) {
      return Verdict::Decline("rows wide enough for the strided matmul");
    }
    return Verdict::Accept();
  }

  Status Plan(ConvTransposeContext& c) override {
    const operators::ConvTransposeParam& p = c.p;
    const DDim& in = p.input->dims();
    const DDim& f = p.filter->dims();
    const int64_t m = in[0] * in[2] * in[3], k = f[0], oc = f[1], kh = f[2], kw = f[3];
    const int64_t cols = kh * kw * oc;
    if (weights_.empty()) {  // [C_in, (i, j, oc)], bias repeated per (i, j)
      weights_.resize(k * cols);
      for (int64_t ci = 0; ci < k; ++ci)
        for (int64_t o = 0; o < oc; ++o)
          for (int64_t ij = 0; ij < kh * kw; ++ij)
            weights_[ci * cols + ij * oc + o] = p.filter->data<float>()[(ci * oc + o) * kh * kw + ij];
      if (p.bias) {
        bias_.resize(cols);
        for (int64_t ij = 0; ij < kh * kw; ++ij)
          for (int64_t o = 0; o < oc; ++o) bias_[ij * oc + o] = p.bias->data<float>()[o];
      }
    }
    const DDim src{m, k}, w{k, cols}, dst{m, cols}, bias{1, cols};
    dnnl::matmul::desc d = p.bias ? dnnl::matmul::desc(PlainDesc(src), PlainDesc(w),
                                                       PlainDesc(bias), PlainDesc(dst))
                                  : dnnl::matmul::desc(PlainDesc(src), PlainDesc(w),
                                                       PlainDesc(dst));
    dnnl::matmul::primitive_desc pd(d, lite::x86::ActivationAttr(p.act), lite::x86::CpuEngine());
    impl_info_ = pd.impl_info_str();
    matmul_ = dnnl::matmul(pd);
    // The same 6-D view (n, h, i, w, j, oc) of the matmul result and of the
    // NHWC output [n, h * kh + i, w * kw + j, oc].
    const memory::dims six{in[0], in[2], kh, in[3], kw, oc};
    const int64_t h = in[2], wd = in[3];
    scatter_src_ = memory::desc(six, memory::data_type::f32,
                                memory::dims{h * wd * cols, wd * cols, kw * oc, cols, oc, 1});
    scatter_dst_ = memory::desc(six, memory::data_type::f32, memory::format_tag::abcdef);
    scatter_ = dnnl::reorder(dnnl::reorder::primitive_desc(
        lite::x86::CpuEngine(), scatter_src_, lite::x86::CpuEngine(), scatter_dst_));
    return Status::OK();
  }

  Status Run(ConvTransposeContext& c) override {
    const operators::ConvTransposeParam& p = c.p;
    ConvTransposeCompute& kernel = c.kernel;
    const DDim& in = p.input->dims();
    const DDim& f = p.filter->dims();
    const int64_t m = in[0] * in[2] * in[3], k = f[0], cols = f[2] * f[3] * f[1];
    memory tmp = kernel.Temp(PlainDesc({m, cols}));
    if (p.bias) {
      kernel.AddArg(DNNL_ARG_BIAS, kernel.Mem(DNNL_ARG_BIAS, PlainDesc({1, cols}), bias_.data()));
    }
    kernel.Execute(
        matmul_,
        {{DNNL_ARG_SRC, kernel.Mem(DNNL_ARG_SRC, PlainDesc({m, k}), p.input->data<float>())},
         {DNNL_ARG_WEIGHTS, kernel.Mem(DNNL_ARG_WEIGHTS, PlainDesc({k, cols}), weights_.data())},
         {DNNL_ARG_DST, tmp}});
    kernel.Execute(scatter_,
                   {{DNNL_ARG_FROM, kernel.Mem(kScatterFrom, scatter_src_, tmp.get_data_handle())},
                    {DNNL_ARG_TO, kernel.Mem(kScatterTo, scatter_dst_,
                                             p.output->mutable_data<float>())}});
    return Status::OK();
  }

  const std::string& impl_info() const override { return impl_info_; }

 private:
  // Mem() slots of the scatter reorder (its FROM / TO are the matmul's SRC /
  // DST numbers, with other descriptors).
  static constexpr int kScatterFrom = 1 << 19;
  static constexpr int kScatterTo = kScatterFrom + 1;

  std::string impl_info_;
  std::vector<float> weights_, bias_;
  dnnl::matmul matmul_;
  memory::desc scatter_src_, scatter_dst_;
  dnnl::reorder scatter_;
};

}  // namespace

std::unique_ptr<ConvTransposeStrategy> MakeConvTransposeScatterStrategy() {
  return std::make_unique<ScatterStrategy>();
}

}  // namespace x86
}  // namespace kernels
}  // namespace lite
