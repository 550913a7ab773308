// Host fp32 kernel for conv3d (lite/operators/conv3d_op.h): per image and
// group, vol2col builds the column matrix [C/g * kd*kh*kw, od*oh*ow] (0 in
// the padding) and the shared GEMM multiplies the group's filter rows
// [M/g, C/g * kd*kh*kw] by it.
#include <cstdint>
#include <vector>

#include "lite/core/kernel.h"
#include "lite/backends/host/gemm.h"
#include "lite/operators/conv3d_op.h"

namespace lite {
namespace kernels {
namespace host {

namespace {

// Window geometry of one spatial dim.
struct Axis {
  int64_t in, out;
  int k, stride, pad, dilation;
};

// im [channels, D, H, W] -> col [channels * kd*kh*kw, od*oh*ow].
void Vol2Col(const float* im, int64_t channels, const Axis a[3], float* col) {
  const int64_t plane = a[0].out * a[1].out * a[2].out;
  for (int64_t c = 0; c < channels; ++c) {
    const float* src = im + c * a[0].in * a[1].in * a[2].in;
    for (int i = 0; i < a[0].k; ++i) {
      for (int j = 0; j < a[1].k; ++j) {
        for (int l = 0; l < a[2].k; ++l, col += plane) {
          float* dst = col;
          for (int64_t od = 0; od < a[0].out; ++od) {
            const int64_t z = od * a[0].stride - a[0].pad + i * a[0].dilation;
            for (int64_t oh = 0; oh < a[1].out; ++oh) {
              const int64_t y = oh * a[1].stride - a[1].pad + j * a[1].dilation;
              const bool row_in = z >= 0 && z < a[0].in && y >= 0 && y < a[1].in;
              const float* row = src + (z * a[1].in + y) * a[2].in;
              for (int64_t ow = 0; ow < a[2].out; ++ow) {
                const int64_t x = ow * a[2].stride - a[2].pad + l * a[2].dilation;
                *dst++ = row_in && x >= 0 && x < a[2].in ? row[x] : 0.f;
              }
            }
          }
        }
      }
    }
  }
}

}  // namespace

class Conv3dCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::Conv3dParam>();
    const DDim& in = p.input->dims();
    const DDim& f = p.filter->dims();
    const DDim& od = p.output->dims();
    Axis a[3];
    for (int d = 0; d < 3; ++d) {
      a[d] = {in[2 + d], od[2 + d], static_cast<int>(f[2 + d]), p.strides[d],
              p.eff_paddings[2 * d], p.eff_dilations[d]};
    }
    const int64_t g = p.groups;
    const int64_t cg = in[1] / g, mg = f[0] / g;
    const int64_t kvol = cg * f[2] * f[3] * f[4];
    const int64_t opl = od[2] * od[3] * od[4];
    const int64_t in_img = in[1] * in[2] * in[3] * in[4];
    const int64_t in_group = cg * in[2] * in[3] * in[4];
    col_.resize(static_cast<size_t>(kvol * opl));
    const float* x = p.input->data<float>();
    const float* w = p.filter->data<float>();
    float* out = p.output->mutable_data<float>();
    for (int64_t n = 0; n < in[0]; ++n) {
      for (int64_t gi = 0; gi < g; ++gi) {
        Vol2Col(x + n * in_img + gi * in_group, cg, a, col_.data());
        float* o = out + (n * f[0] + gi * mg) * opl;
        Gemm(false, false, mg, opl, kvol, 1.f, w + gi * mg * kvol, kvol, col_.data(), opl, 0.f, o,
             opl);
      }
    }
    return Status::OK();
  }

 private:
  std::vector<float> col_;
};

}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(conv3d, kHost, kFloat, kNCHW, lite::kernels::host::Conv3dCompute, def)
    .Finalize();
