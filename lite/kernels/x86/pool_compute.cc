// x86 pool2d on oneDNN's pooling primitive, only where oneDNN reproduces
// Paddle's windows exactly (host/pool_compute.cc states Paddle's rules):
// - adaptive pooling declines at kernel pick (Paddle's adaptive windows and
//   its adaptive-max quirk are not oneDNN's), except adaptive avg to 1x1,
//   which is the mean of each plane: a whole-plane window;
// - ceil_mode becomes extra right/bottom padding, which max ignores and
//   exclusive avg leaves out of the divisor, as Paddle does;
// - non-exclusive avg: Paddle divides by the window clipped at H + pad_top,
//   oneDNN always by kh * kw; equal unless a window reaches past that bound,
//   and such shapes run the host kernel (HostFallback on NCHW copies), as
//   do paddings of a whole window or more (an empty window);
// - an average of each whole plane (global_pooling, or adaptive avg to 1x1:
//   squeeze-excitation blocks) runs lite/backends/x86/plane_mean.h instead,
//   which has no per-shape state: the primitive, whose window is the plane,
//   was created again for every new input size.
// Registered at layout NHWC (layout_cast_pass). A global average of int8
// levels (kInt8 "levels_in") sums them exactly per channel.
#include <numeric>
#include <vector>

#include "lite/backends/x86/plane_mean.h"
#include "lite/kernels/x86/dnnl_kernel.h"
#include "lite/core/host_fallback.h"
#include "lite/operators/pool_op.h"

namespace lite {
namespace kernels {
namespace x86 {

namespace {

class PoolCompute : public DnnlKernel {
 protected:
  Status RunDnnl() override {
    const auto& p = Param<operators::PoolParam>();
    const DDim& in = p.x->dims();
    const DDim& out = p.out->dims();
    if (in.size() != 4 || !Exact(p, in, out)) return RunOnHost(p);
    if (p.pooling_type == "avg" && (p.global_pooling || p.adaptive) && out[2] == 1 &&
        out[3] == 1) {
      lite::x86::PlaneMeanNhwc(p.x->data<float>(), in[0], in[2] * in[3], in[1],
                               p.out->mutable_data<float>(), threads());
      return Status::OK();
    }
    if (in != dims_) {
      const bool plane = p.adaptive;  // adaptive avg to 1x1 (PoolAccepts)
      const int k[2] = {plane ? static_cast<int>(in[2]) : p.eff_ksize[0],
                        plane ? static_cast<int>(in[3]) : p.eff_ksize[1]};
      const int s[2] = {plane ? 1 : p.strides[0], plane ? 1 : p.strides[1]};
      dnnl::memory::dims pad_l{plane ? 0 : p.eff_paddings[0], plane ? 0 : p.eff_paddings[2]};
      dnnl::memory::dims pad_r(2);
      for (int i = 0; i < 2; ++i) {
        // oneDNN's output size is floor((in + l + r - k) / s) + 1.
        pad_r[i] = std::max<int64_t>(plane ? 0 : p.eff_paddings[2 * i + 1],
                                     (out[2 + i] - 1) * s[i] + k[i] - in[2 + i] - pad_l[i]);
      }
      const auto alg = p.pooling_type == "max"   ? dnnl::algorithm::pooling_max
                       : p.exclusive || plane ? dnnl::algorithm::pooling_avg_exclude_padding
                                              : dnnl::algorithm::pooling_avg_include_padding;
      dnnl::pooling_forward::desc d(dnnl::prop_kind::forward_inference, alg, Desc(*p.x),
                                    Desc(*p.out), {s[0], s[1]}, {k[0], k[1]}, pad_l, pad_r);
      pool_ = dnnl::pooling_forward(
          dnnl::pooling_forward::primitive_desc(d, lite::x86::CpuEngine()));
      dims_ = in;
    }
    Execute(pool_,
            {{DNNL_ARG_SRC, Mem(DNNL_ARG_SRC, Desc(*p.x), p.x->data<float>())},
             {DNNL_ARG_DST, Mem(DNNL_ARG_DST, Desc(*p.out), p.out->mutable_data<float>())}});
    return Status::OK();
  }

 private:
  // The host kernel on NCHW views of X and Out.
  Status RunOnHost(const operators::PoolParam& p) {
    nchw_param_ = p;
    nchw_param_.x = NchwInput(*p.x);
    nchw_param_.out = NchwOutput(p.out);
    RETURN_IF_ERROR(fallback_.Run(*this, &nchw_param_));
    StoreNchwOutput(*nchw_param_.out, p.out);
    return Status::OK();
  }

  static bool Exact(const operators::PoolParam& p, const DDim& in, const DDim& out) {
    if (p.adaptive) return true;
    for (int i = 0; i < 2; ++i) {
      const int k = p.eff_ksize[i], s = p.strides[i];
      const int pad0 = p.eff_paddings[2 * i], pad1 = p.eff_paddings[2 * i + 1];
      if (pad0 >= k || pad1 >= k || s < 1) return false;
      const int64_t last_start = (out[2 + i] - 1) * s - pad0;
      if (last_start >= in[2 + i]) return false;  // an empty window
      if (p.pooling_type != "max" && !p.exclusive && last_start + k > in[2 + i] + pad0) {
        return false;
      }
    }
    return true;
  }

  DDim dims_;
  dnnl::pooling_forward pool_;
  operators::PoolParam nchw_param_;
  HostFallback fallback_;
};

// A global average pool of int8 levels (conv_resize_add_fuse_pass's pool
// of a conv's quantized input): per channel the exact int32 sum of an
// image's NHWC levels over its pixels, divided by the pixel count; the
// output is float32 [N, C, 1, 1].
class MeanOfLevelsCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<operators::PoolParam>();
    const DDim& in = p.x->dims();
    if (in.size() != 4 || p.x->dtype() != DataType::kInt8) {
      return InvalidArgument("pool2d of int8 levels needs a 4-D int8 X, got " +
                             std::string(DataTypeName(p.x->dtype())) + " " + DimsToString(in));
    }
    const int64_t n = in[0], c = in[1], pixels = in[2] * in[3], size = pixels * c;
    p.out->Resize({n, c, 1, 1});
    const int8_t* x = p.x->data<int8_t>();
    float* out = p.out->mutable_data<float>();
    // The image as a flat array in chunks of a period of whole pixels and
    // 64 bytes (at most 64 * C): one contiguous, vectorizable add per chunk
    // into `acc`, whose entry j then belongs to channel j % C.
    const int64_t period = c / std::gcd<int64_t>(c, 64) * 64;
    std::vector<int32_t> acc(period);
    for (int64_t b = 0; b < n; ++b) {
      std::fill(acc.begin(), acc.end(), 0);
      const int8_t* xb = x + b * size;
      const int64_t chunks = size / period;
      for (int64_t k = 0; k < chunks; ++k) {
        const int8_t* xk = xb + k * period;
#pragma omp simd
        for (int64_t j = 0; j < period; ++j) acc[j] += xk[j];
      }
      for (int64_t i = chunks * period; i < size; ++i) acc[i - chunks * period] += xb[i];
      for (int64_t k = 0; k < c; ++k) {
        int32_t sum = 0;
        for (int64_t j = k; j < period; j += c) sum += acc[j];
        out[b * c + k] = static_cast<float>(sum) / static_cast<float>(pixels);
      }
    }
    return Status::OK();
  }
};

bool PoolAccepts(const cpp::OpDesc& desc) {
  const std::string type = desc.GetAttr<std::string>("pooling_type", "");
  if (desc.GetAttr<bool>("adaptive", false)) {
    return type == "avg" && desc.GetAttr<std::vector<int>>("ksize", {}) == std::vector<int>{1, 1};
  }
  return type == "max" || type == "avg";
}

}  // namespace
}  // namespace x86
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(pool2d, kX86, kFloat, kNHWC, lite::kernels::x86::PoolCompute, def)
    .SetAccepts(lite::kernels::x86::PoolAccepts)
    .Finalize();
REGISTER_LITE_KERNEL(pool2d, kX86, kInt8, kNHWC, lite::kernels::x86::MeanOfLevelsCompute,
                     levels_in)
    .BindInput("X", lite::Place(TARGET(kX86), PRECISION(kInt8), DATALAYOUT(kNHWC)))
    .BindOutput("Out", lite::Place(TARGET(kX86), PRECISION(kFloat), DATALAYOUT(kNHWC)))
    .SetAccepts(lite::operators::AveragesWholePlanes)
    .Finalize();
