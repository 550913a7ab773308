// Host fp32 kernels for softmax and log_softmax. X is viewed as
// [outer, n, inner] with n the softmax axis; contiguous rows (inner == 1) run
// row by row, otherwise each [n, inner] block is swept with inner-length
// accumulators so memory is read in order.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "lite/core/kernel.h"
#include "lite/operators/softmax_op.h"

namespace lite {
namespace kernels {
namespace host {

namespace {

using operators::SoftmaxParam;

void SoftmaxRow(const float* x, float* y, int64_t n, bool log) {
  float mx = -std::numeric_limits<float>::infinity();
  for (int64_t j = 0; j < n; ++j) mx = std::max(mx, x[j]);
  float sum = 0.f;
  if (log) {
    for (int64_t j = 0; j < n; ++j) sum += std::exp(x[j] - mx);
    const float lse = std::log(sum);
    for (int64_t j = 0; j < n; ++j) y[j] = x[j] - mx - lse;
  } else {
    for (int64_t j = 0; j < n; ++j) {
      y[j] = std::exp(x[j] - mx);
      sum += y[j];
    }
    const float inv = 1.f / sum;
    for (int64_t j = 0; j < n; ++j) y[j] *= inv;
  }
}

void SoftmaxBlock(const float* x, float* y, int64_t n, int64_t inner, bool log,
                  std::vector<float>* mx, std::vector<float>* sum) {
  mx->assign(inner, -std::numeric_limits<float>::infinity());
  sum->assign(inner, 0.f);
  float* m = mx->data();
  float* s = sum->data();
  for (int64_t j = 0; j < n; ++j) {
    const float* xr = x + j * inner;
    for (int64_t k = 0; k < inner; ++k) m[k] = std::max(m[k], xr[k]);
  }
  for (int64_t j = 0; j < n; ++j) {
    const float* xr = x + j * inner;
    float* yr = y + j * inner;
    for (int64_t k = 0; k < inner; ++k) {
      const float e = std::exp(xr[k] - m[k]);
      if (!log) yr[k] = e;
      s[k] += e;
    }
  }
  if (log) {
    for (int64_t k = 0; k < inner; ++k) s[k] = m[k] + std::log(s[k]);
    for (int64_t j = 0; j < n; ++j) {
      const float* xr = x + j * inner;
      float* yr = y + j * inner;
      for (int64_t k = 0; k < inner; ++k) yr[k] = xr[k] - s[k];
    }
  } else {
    for (int64_t k = 0; k < inner; ++k) s[k] = 1.f / s[k];
    for (int64_t j = 0; j < n; ++j) {
      float* yr = y + j * inner;
      for (int64_t k = 0; k < inner; ++k) yr[k] *= s[k];
    }
  }
}

class SoftmaxCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<SoftmaxParam>();
    if (p.x->dtype() != DataType::kFloat32) {
      return Unimplemented(std::string("softmax on ") + DataTypeName(p.x->dtype()) +
                           " input (float32 only)");
    }
    const float* x = p.x->data<float>();
    float* y = p.out->mutable_data<float>();
    const int64_t block = p.n * p.inner;
    if (block == 0) return Status::OK();
    for (int64_t o = 0; o < p.outer; ++o) {
      if (p.inner == 1) {
        SoftmaxRow(x + o * block, y + o * block, p.n, p.log);
      } else {
        SoftmaxBlock(x + o * block, y + o * block, p.n, p.inner, p.log, &mx_, &sum_);
      }
    }
    return Status::OK();
  }

 private:
  std::vector<float> mx_, sum_;
};

}  // namespace

}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(softmax, kHost, kFloat, kNCHW, lite::kernels::host::SoftmaxCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(log_softmax, kHost, kFloat, kNCHW, lite::kernels::host::SoftmaxCompute, def)
    .Finalize();
