// x86 reduce_sum / reduce_mean / reduce_max / reduce_min on float32, any
// rank and dim list. Registered at layout NHWC, so a rank-4 X (and a rank-4
// Out) is in NHWC element order: the channel mean of a LayerNorm spelt out
// op by op (NAFNet-style exports) is a sum over each pixel's contiguous
// channels, with no layout casts around it; the host kernel needed NCHW.
// The reduction walks X once in memory order: axes are listed outermost
// first in X's element order with the stride each has in Out (0 when
// reduced), runs of axes that stay contiguous together are merged, and the
// innermost run is either a contiguous sum (8 partial sums, one vector
// with `omp simd`) or a contiguous update of Out. One thread: the ops
// this serves are small next to the convs around them.
#include <algorithm>
#include <limits>
#include <vector>

#include "lite/core/kernel.h"
#include "lite/operators/reduce_ops.h"

namespace lite {
namespace kernels {
namespace x86 {

namespace {

using operators::ReduceKind;

// Element strides of logical dims `d` as this kernel stores them: NHWC for
// rank 4, row-major otherwise.
std::vector<int64_t> Strides(const DDim& d) {
  const size_t r = d.size();
  std::vector<int64_t> s(r, 1);
  if (r == 4) {
    s[1] = 1;
    s[3] = d[1];
    s[2] = d[1] * d[3];
    s[0] = d[1] * d[3] * d[2];
    return s;
  }
  int64_t acc = 1;
  for (size_t i = r; i-- > 0;) s[i] = acc, acc *= d[i];
  return s;
}

// Logical axes outermost first in element order.
std::vector<int> MemoryOrder(size_t rank) {
  if (rank == 4) return {0, 2, 3, 1};
  std::vector<int> o(rank);
  for (size_t i = 0; i < rank; ++i) o[i] = static_cast<int>(i);
  return o;
}

struct Axis {
  int64_t size;
  int64_t out_stride;  // 0: reduced
};

template <ReduceKind K>
inline float Combine(float a, float b) {
  if (K == ReduceKind::kMax) return std::max(a, b);
  if (K == ReduceKind::kMin) return std::min(a, b);
  return a + b;
}

template <ReduceKind K>
float Identity() {
  if (K == ReduceKind::kMax) return -std::numeric_limits<float>::infinity();
  if (K == ReduceKind::kMin) return std::numeric_limits<float>::infinity();
  return 0.f;
}

// The combination of x[0, n) with 8 partial results (vectorizable).
template <ReduceKind K>
float ReduceRun(const float* x, int64_t n) {
  float part[8];
  for (float& v : part) v = Identity<K>();
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
#pragma omp simd
    for (int k = 0; k < 8; ++k) part[k] = Combine<K>(part[k], x[i + k]);
  }
  float r = Identity<K>();
  for (; i < n; ++i) r = Combine<K>(r, x[i]);
  for (float v : part) r = Combine<K>(r, v);
  return r;
}

template <ReduceKind K>
void Reduce(const float* x, float* y, const std::vector<Axis>& axes, int64_t out_numel) {
  std::fill(y, y + out_numel, Identity<K>());
  const Axis inner = axes.back();
  const size_t outer_rank = axes.size() - 1;
  int64_t outer = 1;
  for (size_t i = 0; i < outer_rank; ++i) outer *= axes[i].size;
  std::vector<int64_t> idx(outer_rank, 0);
  int64_t off = 0;  // Out's offset of the current outer position
  for (int64_t o = 0; o < outer; ++o) {
    const float* xr = x + o * inner.size;
    float* yr = y + off;
    if (inner.out_stride == 0) {
      *yr = Combine<K>(*yr, ReduceRun<K>(xr, inner.size));
    } else if (inner.out_stride == 1) {
#pragma omp simd
      for (int64_t j = 0; j < inner.size; ++j) yr[j] = Combine<K>(yr[j], xr[j]);
    } else {
      for (int64_t j = 0; j < inner.size; ++j) {
        yr[j * inner.out_stride] = Combine<K>(yr[j * inner.out_stride], xr[j]);
      }
    }
    for (size_t a = outer_rank; a-- > 0;) {  // odometer over the outer axes
      off += axes[a].out_stride;
      if (++idx[a] < axes[a].size) break;
      off -= axes[a].out_stride * axes[a].size;
      idx[a] = 0;
    }
  }
}

class ReduceCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<operators::ReduceParam>();
    if (p.x->dtype() != DataType::kFloat32) {
      return Unimplemented("reduce on " + std::string(DataTypeName(p.x->dtype())) +
                           " input (float32 only)");
    }
    const DDim& xd = p.x->dims();
    const DDim& od = p.out->dims();
    const float* x = p.x->data<float>();
    float* y = p.out->mutable_data<float>();
    if (xd.empty() || p.x->numel() == 0) {  // 0-d or empty X: host's rules
      return Unimplemented("reduce of a 0-d or empty X on x86");
    }
    // Out's stride for each axis of X.
    std::vector<int64_t> os(xd.size(), 0);
    const std::vector<int64_t> out_strides = Strides(od);
    int64_t count = 1;
    for (size_t a = 0, k = 0; a < xd.size(); ++a) {
      if (p.reduced[a]) {
        count *= xd[a];
        if (p.keep_dim) ++k;
      } else {
        os[a] = out_strides[k++];
      }
    }
    std::vector<Axis> axes;
    for (int a : MemoryOrder(xd.size())) {
      const Axis ax{xd[a], os[a]};
      if (ax.size == 1) continue;
      if (!axes.empty()) {
        Axis& last = axes.back();
        const bool both_reduced = last.out_stride == 0 && ax.out_stride == 0;
        const bool contiguous = ax.out_stride != 0 && last.out_stride == ax.out_stride * ax.size;
        if (both_reduced || contiguous) {
          last.out_stride = ax.out_stride;
          last.size *= ax.size;
          continue;
        }
      }
      axes.push_back(ax);
    }
    if (axes.empty()) axes.push_back({1, 1});
    switch (p.kind) {
      case ReduceKind::kSum: Reduce<ReduceKind::kSum>(x, y, axes, p.out->numel()); break;
      case ReduceKind::kMean: Reduce<ReduceKind::kMean>(x, y, axes, p.out->numel()); break;
      case ReduceKind::kMax: Reduce<ReduceKind::kMax>(x, y, axes, p.out->numel()); break;
      case ReduceKind::kMin: Reduce<ReduceKind::kMin>(x, y, axes, p.out->numel()); break;
      default: return Unimplemented("reduce_prod on x86");
    }
    if (p.kind == ReduceKind::kMean) {
      const float inv = 1.f / static_cast<float>(count);
      for (int64_t i = 0; i < p.out->numel(); ++i) y[i] *= inv;
    }
    return Status::OK();
  }
};

// float32 Out only (out_dtype -1 or 5).
bool ReduceAccepts(const cpp::OpDesc& desc) {
  const int out_dtype = desc.GetAttr<int32_t>("out_dtype", -1);
  return out_dtype == -1 || out_dtype == 5;
}

}  // namespace
}  // namespace x86
}  // namespace kernels
}  // namespace lite

#define LITE_REGISTER_X86_REDUCE(op)                                                 \
  REGISTER_LITE_KERNEL(op, kX86, kFloat, kNHWC, lite::kernels::x86::ReduceCompute, def) \
      .SetAccepts(lite::kernels::x86::ReduceAccepts)                                 \
      .Finalize()

LITE_REGISTER_X86_REDUCE(reduce_sum);
LITE_REGISTER_X86_REDUCE(reduce_mean);
LITE_REGISTER_X86_REDUCE(reduce_max);
LITE_REGISTER_X86_REDUCE(reduce_min);
