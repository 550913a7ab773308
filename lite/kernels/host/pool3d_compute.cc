// Host fp32 kernel for pool3d (lite/operators/pool_op.h, the NCDHW form),
// following Paddle's Pool3dFunctor: windows per dim by pool_window.h; the
// avg divisor is the clipped window volume when exclusive or adaptive, the
// full volume otherwise; max starts from -FLT_MAX. Like Paddle's pool
// kernel, max pooling ignores `adaptive` for the windows (plain ksize
// windows at the attribute stride, no padding) while the output size is
// still ksize. Planes (n, c) are split across the kernel's threads.
#include <cfloat>
#include <cstdint>
#include <vector>

#include "lite/core/kernel.h"
#include "lite/backends/host/pool_window.h"
#include "lite/operators/pool_op.h"

namespace lite {
namespace kernels {
namespace host {

class Pool3dCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::PoolParam>();
    const DDim& in = p.x->dims();
    const DDim& od = p.out->dims();
    const bool is_max = p.pooling_type == "max";
    const bool adaptive_windows = p.adaptive && !is_max;
    const bool exclusive = p.exclusive || p.adaptive;
    // Windows per spatial dim (depth, height, width).
    std::vector<Window> win[3];
    for (int d = 0; d < 3; ++d) {
      for (int64_t o = 0; o < od[2 + d]; ++o) {
        win[d].push_back(MakeWindow(static_cast<int>(o), static_cast<int>(in[2 + d]),
                                    static_cast<int>(od[2 + d]), p.eff_ksize[d], p.strides[d],
                                    p.eff_paddings[2 * d], adaptive_windows));
      }
    }
    const float* x = p.x->data<float>();
    float* out = p.out->mutable_data<float>();
    const int64_t planes = in[0] * in[1];
    const int64_t in_plane = in[2] * in[3] * in[4];
    const int64_t out_plane = od[2] * od[3] * od[4];
    int64_t window_volume = 1;
    for (int d = 0; d < 3; ++d) window_volume *= p.eff_ksize[d];
    ParallelFor(ctx(), planes, planes * out_plane * window_volume, [&](int64_t begin,
                                                                       int64_t end) {
      for (int64_t pl = begin; pl < end; ++pl) {
        const float* xp = x + pl * in_plane;
        float* op = out + pl * out_plane;
        for (const Window& wd : win[0]) {
          for (const Window& wh : win[1]) {
            for (const Window& ww : win[2]) {
              float acc = is_max ? -FLT_MAX : 0.f;
              for (int z = wd.start; z < wd.end; ++z) {
                for (int y = wh.start; y < wh.end; ++y) {
                  const float* row = xp + (static_cast<int64_t>(z) * in[3] + y) * in[4];
                  for (int i = ww.start; i < ww.end; ++i) {
                    acc = is_max ? (acc > row[i] ? acc : row[i]) : acc + row[i];
                  }
                }
              }
              if (!is_max) {
                const int64_t size =
                    exclusive ? static_cast<int64_t>(wd.end - wd.start) * (wh.end - wh.start) *
                                    (ww.end - ww.start)
                              : static_cast<int64_t>(wd.full) * wh.full * ww.full;
                acc = size > 0 ? acc / static_cast<float>(size) : 0.f;
              }
              *op++ = acc;
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

REGISTER_LITE_KERNEL(pool3d, kHost, kFloat, kNCHW, lite::kernels::host::Pool3dCompute, def)
    .Finalize();
