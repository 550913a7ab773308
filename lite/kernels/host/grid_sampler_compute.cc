// Host kernel for grid_sampler (grid_sampler_op.h): per output location the
// source coordinates are unnormalised and padded once, then every channel
// is sampled.
#include <algorithm>
#include <cmath>

#include "lite/core/kernel.h"
#include "lite/operators/grid_sampler_op.h"

namespace lite {
namespace kernels {
namespace host {

namespace {

using operators::GridSamplerParam;

// Reflects v into [lo2 / 2, hi2 / 2] (bounds given doubled, so half-pixel
// edges stay integers).
float Reflect(float v, int64_t lo2, int64_t hi2) {
  if (lo2 == hi2) return 0.f;
  const float lo = lo2 / 2.f, span = (hi2 - lo2) / 2.f;
  v = std::fabs(v - lo);
  const float extra = std::fmod(v, span);
  const int64_t flips = static_cast<int64_t>(std::floor(v / span));
  return flips % 2 == 0 ? extra + lo : span - extra + lo;
}

// Grid value g in [-1, 1] -> a source coordinate along an axis of `size`.
float SourceCoord(float g, int64_t size, const GridSamplerParam& p) {
  float v = p.align_corners ? (g + 1.f) / 2.f * (size - 1) : ((g + 1.f) * size - 1.f) / 2.f;
  if (p.padding_mode == "zeros") return v;
  if (p.padding_mode == "reflection") {
    v = p.align_corners ? Reflect(v, 0, 2 * (size - 1)) : Reflect(v, -1, 2 * size - 1);
  }
  return std::min(std::max(v, 0.f), static_cast<float>(size - 1));
}

class GridSamplerCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<GridSamplerParam>();
    const DDim& xd = p.x->dims();
    const int64_t n = xd[0], c = xd[1], h = xd[2], w = xd[3];
    const int64_t ho = p.out->dims()[2], wo = p.out->dims()[3];
    const float* x = p.x->data<float>();
    const float* grid = p.grid->data<float>();
    float* out = p.out->mutable_data<float>();
    auto at = [&](const float* plane, int64_t yy, int64_t xx) {
      return (yy < 0 || yy >= h || xx < 0 || xx >= w) ? 0.f : plane[yy * w + xx];
    };
    for (int64_t b = 0; b < n; ++b) {
      for (int64_t i = 0; i < ho * wo; ++i) {
        const float* g = grid + (b * ho * wo + i) * 2;
        const float sx = SourceCoord(g[0], w, p), sy = SourceCoord(g[1], h, p);
        for (int64_t ch = 0; ch < c; ++ch) {
          const float* plane = x + (b * c + ch) * h * w;
          float v;
          if (p.bilinear) {
            const int64_t x0 = static_cast<int64_t>(std::floor(sx));
            const int64_t y0 = static_cast<int64_t>(std::floor(sy));
            const float fx = sx - x0, fy = sy - y0;
            v = at(plane, y0, x0) * (1 - fx) * (1 - fy) + at(plane, y0, x0 + 1) * fx * (1 - fy) +
                at(plane, y0 + 1, x0) * (1 - fx) * fy + at(plane, y0 + 1, x0 + 1) * fx * fy;
          } else {
            v = at(plane, static_cast<int64_t>(std::nearbyint(sy)),
                   static_cast<int64_t>(std::nearbyint(sx)));
          }
          out[((b * c + ch) * ho * wo) + i] = v;
        }
      }
    }
    return Status::OK();
  }
};

}  // namespace

}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(grid_sampler, kHost, kFloat, kNCHW, lite::kernels::host::GridSamplerCompute,
                     def)
    .Finalize();
