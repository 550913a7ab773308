// x86 pow, square and rsqrt (rows of the unary table, unary_ops.h): X to a
// fixed power. Registered at layout NHWC: element-wise, so the op sits in a
// chain of NHWC x86 ops with no layout casts around it (a LayerNorm spelt
// as reduce_mean / sub / pow / sqrt / div, as NAFNet-style exports have it,
// had two casts per pow and the host's std::pow per element). The exponents
// such exports use (2, 0.5, -0.5, 1, 3, -1) are plain loops vectorized
// with `omp simd` (at -O2 GCC 12 does not vectorize loops that need a
// runtime alias check); other factors call std::pow, as the host kernel does. Split
// over the predictor's threads with OpenMP (omp_ranges.h) for large X.
#include <cmath>

#include "lite/backends/x86/omp_ranges.h"
#include "lite/core/kernel.h"
#include "lite/operators/unary_ops.h"

namespace lite {
namespace kernels {
namespace x86 {

namespace {

// y = x^e over [0, n).
void PowRange(const float* x, float* y, int64_t n, float e) {
  if (e == 2.f) {
#pragma omp simd
    for (int64_t i = 0; i < n; ++i) y[i] = x[i] * x[i];
  } else if (e == 0.5f) {
#pragma omp simd
    for (int64_t i = 0; i < n; ++i) y[i] = std::sqrt(x[i]);
  } else if (e == -0.5f) {
#pragma omp simd
    for (int64_t i = 0; i < n; ++i) y[i] = 1.f / std::sqrt(x[i]);
  } else if (e == 1.f) {
#pragma omp simd
    for (int64_t i = 0; i < n; ++i) y[i] = x[i];
  } else if (e == 3.f) {
#pragma omp simd
    for (int64_t i = 0; i < n; ++i) y[i] = x[i] * x[i] * x[i];
  } else if (e == -1.f) {
#pragma omp simd
    for (int64_t i = 0; i < n; ++i) y[i] = 1.f / x[i];
  } else {
#pragma omp simd
    for (int64_t i = 0; i < n; ++i) y[i] = std::pow(x[i], e);
  }
}

class PowCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<operators::UnaryParam>();
    const std::string type = p.def->type;
    if (p.x->dtype() != DataType::kFloat32) {
      return Unimplemented(type + " on " + DataTypeName(p.x->dtype()) + " input (float32 only)");
    }
    // pow's exponent is its factor attribute; square is 2, rsqrt -0.5.
    const float e = type == "pow" ? p.attrs[0] : (type == "square" ? 2.f : -0.5f);
    const float* x = p.x->data<float>();
    float* y = p.out->mutable_data<float>();
    const int64_t n = p.x->numel();
    lite::x86::OmpForRanges(threads(), n, n, [=](int64_t i0, int64_t i1) {
      PowRange(x + i0, y + i0, i1 - i0, e);
    });
    return Status::OK();
  }
};

}  // namespace
}  // namespace x86
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(pow, kX86, kFloat, kNHWC, lite::kernels::x86::PowCompute, def).Finalize();
REGISTER_LITE_KERNEL(square, kX86, kFloat, kNHWC, lite::kernels::x86::PowCompute, def).Finalize();
REGISTER_LITE_KERNEL(rsqrt, kX86, kFloat, kNHWC, lite::kernels::x86::PowCompute, def).Finalize();
