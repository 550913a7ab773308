// Host fp32 kernel for pool2d (see lite/operators/pool_op.h), following
// Paddle's Pool2dFunctor exactly:
//   non-adaptive window: hstart = oh*stride - pad_top,
//     hend = min(hstart + k, H + pad_top)  (Paddle bounds by the top padding),
//     full size = (hend - hstart) * (wend - wstart), then clipped to [0, H).
//   adaptive window: [floor(i*in/out), ceil((i+1)*in/out)).
//   avg divisor: the clipped window size when exclusive or adaptive, the full
//   size otherwise. Max starts from -FLT_MAX.
// Paddle's pool2d kernel ignores `adaptive` for max pooling (adaptive max is
// the separate max_pool2d_with_index op): the output is still ksize, but the
// windows are plain ksize windows at the attribute stride with no padding.
// We do the same, so Paddle-trained models see Paddle's numbers.
// Windows are reduced separably (rows, then columns). With a thread pool
// the planes are split across threads.
#include <algorithm>
#include <cfloat>
#include <cstdint>
#include <vector>

#include "lite/core/kernel.h"
#include "lite/backends/host/pool_window.h"
#include "lite/operators/pool_op.h"

namespace lite {
namespace kernels {
namespace host {

namespace {
// acc[x] = max (kMax) or sum of xp[y * w + x] over y in the window's rows;
// an empty window gives -FLT_MAX or 0.
template <bool kMax>
void ReduceRows(const float* xp, int w, const Window& r, float* __restrict acc) {
  std::fill(acc, acc + w, kMax ? -FLT_MAX : 0.f);
  for (int y = r.start; y < r.end; ++y) {
    const float* __restrict row = xp + static_cast<int64_t>(y) * w;
    for (int x = 0; x < w; ++x) {
      if (kMax) {
        acc[x] = acc[x] > row[x] ? acc[x] : row[x];
      } else {
        acc[x] += row[x];
      }
    }
  }
}

// Max of a[0..n) (-FLT_MAX when empty); the common 2- and 3-wide windows
// are unrolled.
inline float MaxOf(const float* a, int n) {
  if (n == 3) return std::max(std::max(a[0], a[1]), a[2]);
  if (n == 2) return std::max(a[0], a[1]);
  float m = -FLT_MAX;
  for (int t = 0; t < n; ++t) m = std::max(m, a[t]);
  return m;
}
}  // namespace

class PoolCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::PoolParam>();
    if (p.x->dtype() != DataType::kFloat32) {
      return Unimplemented("pool2d host kernel supports float32 only");
    }
    const DDim& in_dims = p.x->dims();
    const DDim& out_dims = p.out->dims();
    const int64_t planes = in_dims[0] * in_dims[1];
    const int h = static_cast<int>(in_dims[2]), w = static_cast<int>(in_dims[3]);
    const int oh = static_cast<int>(out_dims[2]), ow = static_cast<int>(out_dims[3]);
    const bool is_max = p.pooling_type == "max";
    const bool exclusive = p.exclusive || p.adaptive;
    const bool adaptive_windows = p.adaptive && !is_max;

    std::vector<Window> rows(oh), cols(ow);
    for (int i = 0; i < oh; ++i) {
      rows[i] = MakeWindow(i, h, oh, p.eff_ksize[0], p.strides[0], p.eff_paddings[0],
                           adaptive_windows);
    }
    for (int j = 0; j < ow; ++j) {
      cols[j] = MakeWindow(j, w, ow, p.eff_ksize[1], p.strides[1], p.eff_paddings[2],
                           adaptive_windows);
    }

    const float* x = p.x->data<float>();
    float* out = p.out->mutable_data<float>();
    const int64_t window = static_cast<int64_t>(p.eff_ksize[0]) * p.eff_ksize[1];
    const int64_t work = planes * (static_cast<int64_t>(h) * w + oh * ow * window);
    // Separable: for each output row, reduce its input rows into `acc`
    // (contiguous, vectorizes), then reduce each output column's window of
    // `acc`. Max is exact in any order; avg sums column sums.
    ParallelFor(ctx(), planes, work, [&](int64_t pl0, int64_t pl1) {
      std::vector<float> acc(w);
      for (int64_t pl = pl0; pl < pl1; ++pl) {
        const float* xp = x + pl * h * w;
        float* op = out + pl * oh * ow;
        for (int i = 0; i < oh; ++i) {
          const Window& r = rows[i];
          if (is_max) {
            ReduceRows<true>(xp, w, r, acc.data());
            for (int j = 0; j < ow; ++j) {
              op[i * ow + j] = MaxOf(acc.data() + cols[j].start, cols[j].end - cols[j].start);
            }
          } else {
            ReduceRows<false>(xp, w, r, acc.data());
            for (int j = 0; j < ow; ++j) {
              const Window& c = cols[j];
              float s = 0.f;
              for (int x0 = c.start; x0 < c.end; ++x0) s += acc[x0];
              const int size = exclusive ? (r.end - r.start) * (c.end - c.start)
                                         : r.full * c.full;
              op[i * ow + j] = s / static_cast<float>(size);
            }
          }
        }
      }
    });
    return Status::OK();
  }
};

}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(pool2d, kHost, kFloat, kNCHW, lite::kernels::host::PoolCompute, def)
    .Finalize();
