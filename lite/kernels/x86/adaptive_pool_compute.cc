// x86 pool2d for adaptive average pooling to an output larger than 1 x 1
// (a segmentation net's pyramid pools to 2 x 2, 4 x 4, ...), on an NHWC
// activation: the oneDNN pool2d kernel (pool_compute.cc) declines these,
// since Paddle's adaptive windows are not oneDNN's, which left them on host
// with a layout cast on each side. Windows are Paddle's
// ([floor(o*in/out), ceil((o+1)*in/out)), lite/backends/host/pool_window.h,
// shared with the host kernel), summed the host kernel's way (the window's
// rows into a row of column sums, then its columns) with each pixel's
// channels as one vector, divided by the window's size.
#include <algorithm>
#include <string>
#include <vector>

#include "lite/backends/host/pool_window.h"
#include "lite/kernels/x86/dnnl_kernel.h"
#include "lite/operators/pool_op.h"

namespace lite {
namespace kernels {
namespace x86 {

namespace {

using host::MakeWindow;
using host::Window;

class AdaptivePoolCompute : public DnnlKernel {
 protected:
  Status RunDnnl() override {
    const auto& p = Param<operators::PoolParam>();
    const DDim& xd = p.x->dims();
    const DDim& od = p.out->dims();
    if (p.x->dtype() != DataType::kFloat32 || xd.size() != 4 || od.size() != 4) {
      return Unimplemented("x86 adaptive pool2d takes a rank-4 float32 X, got " +
                           std::string(DataTypeName(p.x->dtype())) + " " + DimsToString(xd));
    }
    const int64_t n = xd[0], c = xd[1];
    const int h = static_cast<int>(xd[2]), w = static_cast<int>(xd[3]);
    const int oh = static_cast<int>(od[2]), ow = static_cast<int>(od[3]);
    std::vector<Window> rows(oh), cols(ow);
    for (int i = 0; i < oh; ++i) rows[i] = MakeWindow(i, h, oh, 0, 1, 0, true);
    for (int j = 0; j < ow; ++j) cols[j] = MakeWindow(j, w, ow, 0, 1, 0, true);
    const float* x = p.x->data<float>();
    float* y = p.out->mutable_data<float>();
    std::vector<float> acc(static_cast<size_t>(w) * c);
    for (int64_t b = 0; b < n; ++b) {
      const float* xb = x + b * h * w * c;
      for (int i = 0; i < oh; ++i) {
        const Window& r = rows[i];
        std::fill(acc.begin(), acc.end(), 0.f);
        float* a = acc.data();
        for (int y0 = r.start; y0 < r.end; ++y0) {
          const float* row = xb + static_cast<int64_t>(y0) * w * c;
#pragma omp simd
          for (int64_t k = 0; k < w * c; ++k) a[k] += row[k];
        }
        for (int j = 0; j < ow; ++j) {
          const Window& col = cols[j];
          float* o = y + ((b * oh + i) * ow + j) * c;
          std::fill(o, o + c, 0.f);
          for (int x0 = col.start; x0 < col.end; ++x0) {
            const float* ac = a + static_cast<int64_t>(x0) * c;
#pragma omp simd
            for (int64_t k = 0; k < c; ++k) o[k] += ac[k];
          }
          const float size = static_cast<float>((r.end - r.start) * (col.end - col.start));
#pragma omp simd
          for (int64_t k = 0; k < c; ++k) o[k] /= size;
        }
      }
    }
    return Status::OK();
  }
};

// Adaptive avg to more than 1 x 1 (1 x 1 is pool_compute.cc's whole-plane
// mean). Adaptive max runs plain windows in Paddle: not this kernel.
bool AdaptiveAvgAccepts(const cpp::OpDesc& desc) {
  return desc.GetAttr<bool>("adaptive", false) && !desc.GetAttr<bool>("global_pooling", false) &&
         desc.GetAttr<std::string>("pooling_type", "") == "avg" &&
         desc.GetAttr<std::vector<int>>("ksize", {}) != std::vector<int>{1, 1};
}

}  // namespace
}  // namespace x86
}  // namespace kernels
}  // namespace lite

// Alias "own_adaptive": kernel pick asks Accepts, and keys sorting after
// "def" keep OpTester::Run (the first x86 kernel) on the oneDNN one.
REGISTER_LITE_KERNEL(pool2d, kX86, kFloat, kNHWC, lite::kernels::x86::AdaptivePoolCompute,
                     own_adaptive)
    .SetAccepts(lite::kernels::x86::AdaptiveAvgAccepts)
    .Finalize();
