// Host kernel for pixel_shuffle, pixel_unshuffle and space_to_depth
// (pixel_shuffle_ops.h), any dtype, one element per step: the shuffles walk
// the small-map side [N, C, r, r, H, W]; space_to_depth walks X and writes
// Paddle's reorg position.
#include <cstring>

#include "lite/core/kernel.h"
#include "lite/operators/pixel_shuffle_ops.h"

namespace lite {
namespace kernels {
namespace host {

class PixelShuffleCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::PixelShuffleParam>();
    if (p.reorg) return RunReorg(p);
    const DDim& small = p.unshuffle ? p.out->dims() : p.x->dims();  // [N, C*r*r, H, W]
    const int64_t r = p.factor, n = small[0], c = small[1] / (r * r), h = small[2], w = small[3];
    const size_t elem = DataTypeSize(p.x->dtype());
    char* out = static_cast<char*>(p.out->mutable_data(p.x->dtype()));
    if (p.x->numel() == 0) return Status::OK();
    const char* x = static_cast<const char*>(p.x->raw_data());
    if (!x) return FailedPrecondition("pixel_shuffle: X has no data");
    for (int64_t b = 0; b < n; ++b) {
      for (int64_t ch = 0; ch < c; ++ch) {
        for (int64_t i = 0; i < r; ++i) {
          for (int64_t j = 0; j < r; ++j) {
            const int64_t sc = (ch * r + i) * r + j;  // the small map's channel
            for (int64_t y = 0; y < h; ++y) {
              for (int64_t xx = 0; xx < w; ++xx) {
                const int64_t s = ((b * c * r * r + sc) * h + y) * w + xx;
                const int64_t big = ((b * c + ch) * h * r + y * r + i) * w * r + xx * r + j;
                if (p.unshuffle) {
                  std::memcpy(out + s * elem, x + big * elem, elem);
                } else {
                  std::memcpy(out + big * elem, x + s * elem, elem);
                }
              }
            }
          }
        }
      }
    }
    return Status::OK();
  }

 private:
  // space_to_depth: X [N, C, H, W] element (b, k, y, x) to Out's flat
  // position in Paddle's order (pixel_shuffle_ops.h).
  static Status RunReorg(const operators::PixelShuffleParam& p) {
    const DDim& xd = p.x->dims();
    const int64_t r = p.factor, n = xd[0], c = xd[1], h = xd[2], w = xd[3];
    const int64_t oc = c / (r * r);
    const size_t elem = DataTypeSize(p.x->dtype());
    char* out = static_cast<char*>(p.out->mutable_data(p.x->dtype()));
    if (p.x->numel() == 0) return Status::OK();
    const char* x = static_cast<const char*>(p.x->raw_data());
    if (!x) return FailedPrecondition("space_to_depth: X has no data");
    int64_t s = 0;  // X's flat index
    for (int64_t b = 0; b < n; ++b) {
      for (int64_t k = 0; k < c; ++k) {
        const int64_t oh = k / oc;  // the block offset
        for (int64_t y = 0; y < h; ++y) {
          for (int64_t xx = 0; xx < w; ++xx, ++s) {
            const int64_t row = (b * oc + k % oc) * h * r + y * r + oh / r;
            std::memcpy(out + (row * w * r + xx * r + oh % r) * elem, x + s * elem, elem);
          }
        }
      }
    }
    return Status::OK();
  }
};

}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(pixel_shuffle, kHost, kAny, kNCHW,
                     lite::kernels::host::PixelShuffleCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(pixel_unshuffle, kHost, kAny, kNCHW,
                     lite::kernels::host::PixelShuffleCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(space_to_depth, kHost, kAny, kNCHW,
                     lite::kernels::host::PixelShuffleCompute, def)
    .Finalize();
