// x86 pixel_shuffle and pixel_unshuffle on float32 NHWC activations
// (registered at layout NHWC): the small map [N, C*r*r, H, W] and the big
// map [N, C, H*r, W*r] are both in NHWC element order, so each small pixel's
// C*r*r channels hold its r x r big pixels' C channels at a stride of r*r.
// One pass over the small map, gathering (shuffle) or scattering (unshuffle)
// each big pixel's channels; the host kernel needs NCHW, which put two
// layout casts around every upsampling step of NAFNet-style decoders.
// space_to_depth (Paddle's reorg order) stays on host.
#include "lite/core/kernel.h"
#include "lite/operators/pixel_shuffle_ops.h"

namespace lite {
namespace kernels {
namespace x86 {

namespace {

class PixelShuffleCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::PixelShuffleParam>();
    if (p.x->dtype() != DataType::kFloat32 || p.x->dims().size() != 4) {
      return Unimplemented("pixel_shuffle on x86: float32 rank-4 X only, got " +
                           std::string(DataTypeName(p.x->dtype())) + " " +
                           DimsToString(p.x->dims()));
    }
    const DDim& small = p.unshuffle ? p.out->dims() : p.x->dims();  // [N, C*r*r, H, W]
    const int64_t r = p.factor, n = small[0], c = small[1] / (r * r), h = small[2], w = small[3];
    const int64_t rr = r * r;
    const float* x = p.x->data<float>();
    float* out = p.out->mutable_data<float>();
    for (int64_t b = 0; b < n; ++b) {
      for (int64_t y = 0; y < h; ++y) {
        for (int64_t xx = 0; xx < w; ++xx) {
          const int64_t s = ((b * h + y) * w + xx) * c * rr;  // the small pixel
          for (int64_t i = 0; i < r; ++i) {
            for (int64_t j = 0; j < r; ++j) {
              const int64_t big = ((b * h * r + y * r + i) * w * r + xx * r + j) * c;
              const int64_t k = i * r + j;
              if (p.unshuffle) {
                for (int64_t ch = 0; ch < c; ++ch) out[s + ch * rr + k] = x[big + ch];
              } else {
                for (int64_t ch = 0; ch < c; ++ch) out[big + ch] = x[s + ch * rr + k];
              }
            }
          }
        }
      }
    }
    return Status::OK();
  }
};

}  // namespace
}  // namespace x86
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(pixel_shuffle, kX86, kFloat, kNHWC, lite::kernels::x86::PixelShuffleCompute,
                     def)
    .Finalize();
REGISTER_LITE_KERNEL(pixel_unshuffle, kX86, kFloat, kNHWC,
                     lite::kernels::x86::PixelShuffleCompute, def)
    .Finalize();
