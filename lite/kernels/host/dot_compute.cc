// Host kernels for dot, addmm and norm (dot_ops.h), plain loops on float32
// (addmm's product goes through the shared GEMM).
#include <cmath>
#include <string>

#include "lite/core/kernel.h"
#include "lite/backends/host/gemm.h"
#include "lite/operators/dot_ops.h"

namespace lite {
namespace kernels {
namespace host {

namespace {

using operators::DotParam;

Status Dot(const DotParam& p) {
  const DDim& xd = p.x->dims();
  const int64_t n = xd.back();
  const int64_t rows = p.x->numel() / (n == 0 ? 1 : n);
  const float* x = p.x->data<float>();
  const float* y = p.y->data<float>();
  float* out = p.out->mutable_data<float>();
  for (int64_t r = 0; r < rows; ++r) {
    float s = 0.f;
    for (int64_t i = 0; i < n; ++i) s += x[r * n + i] * y[r * n + i];
    out[r] = s;
  }
  return Status::OK();
}

Status Addmm(const DotParam& p) {
  const int64_t m = p.x->dims()[0], k = p.x->dims()[1], n = p.y->dims()[1];
  float* out = p.out->mutable_data<float>();
  // Out = Beta * Input (broadcast), then Out += Alpha * X @ Y.
  const DDim& id = p.input->dims();
  const int64_t in_rows = id.size() == 2 ? id[0] : 1;
  const int64_t in_cols = id.back();
  const float* input = p.input->data<float>();
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      out[i * n + j] = p.beta * input[(in_rows == 1 ? 0 : i) * in_cols + (in_cols == 1 ? 0 : j)];
    }
  }
  Gemm(false, false, m, n, k, p.alpha, p.x->data<float>(), k, p.y->data<float>(), n, 1.f, out, n);
  return Status::OK();
}

Status Norm(const DotParam& p) {
  const DDim& xd = p.x->dims();
  int64_t outer = 1, inner = 1;
  const int64_t n = xd[p.axis];
  for (int64_t i = 0; i < p.axis; ++i) outer *= xd[i];
  for (size_t i = p.axis + 1; i < xd.size(); ++i) inner *= xd[i];
  const float* x = p.x->data<float>();
  float* out = p.out->mutable_data<float>();
  float* norm = p.norm ? p.norm->mutable_data<float>() : nullptr;
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t in = 0; in < inner; ++in) {
      const int64_t base = o * n * inner + in;
      double s = 0.0;
      for (int64_t k = 0; k < n; ++k) s += double(x[base + k * inner]) * x[base + k * inner];
      const float nv = static_cast<float>(std::sqrt(s + p.epsilon));
      for (int64_t k = 0; k < n; ++k) out[base + k * inner] = x[base + k * inner] / nv;
      if (norm) norm[o * inner + in] = nv;
    }
  }
  return Status::OK();
}

class DotCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<DotParam>();
    const std::string& op = def().op_type;
    if (op == "dot") return Dot(p);
    if (op == "addmm") return Addmm(p);
    return Norm(p);
  }
};

}  // namespace

}  // namespace host
}  // namespace kernels
}  // namespace lite

#define LITE_REGISTER_DOT(op)                                                                \
  REGISTER_LITE_KERNEL(op, kHost, kFloat, kNCHW, lite::kernels::host::DotCompute, def) \
      .Finalize()

LITE_REGISTER_DOT(dot);
LITE_REGISTER_DOT(addmm);
LITE_REGISTER_DOT(norm);
