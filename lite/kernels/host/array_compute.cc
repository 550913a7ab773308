// Host kernels for cumsum, flip, roll and range (array_ops.h). flip and roll
// map each output element to its source by index arithmetic and copy bytes.
#include <cstring>
#include <string>
#include <vector>

#include "lite/core/kernel.h"
#include "lite/kernels/host/dtype_dispatch.h"
#include "lite/operators/array_ops.h"

namespace lite {
namespace kernels {
namespace host {

namespace {

using operators::ArrayParam;

template <typename T>
Status CumSum(const ArrayParam& p) {
  const DDim& xd = p.x->dims();
  int64_t outer = 1, n = p.x->numel(), inner = 1;
  if (!p.flatten && !xd.empty()) {
    const int64_t axis = p.axes[0];
    n = xd[axis];
    for (int64_t i = 0; i < axis; ++i) outer *= xd[i];
    for (size_t i = axis + 1; i < xd.size(); ++i) inner *= xd[i];
  }
  const T* x = p.x->data<T>();
  T* out = p.out->mutable_data<T>();
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t k = 0; k < inner; ++k) {
      T sum = 0;
      for (int64_t s = 0; s < n; ++s) {
        const int64_t j = p.reverse ? n - 1 - s : s;
        const int64_t at = (o * n + j) * inner + k;
        const T v = x[at];
        if (!p.exclusive) sum += v;
        out[at] = sum;
        if (p.exclusive) sum += v;
      }
    }
  }
  return Status::OK();
}

template <typename T>
Status Range(ArrayParam& p) {
  ASSIGN_OR_RETURN(int64_t n, operators::RangeOf(*p.x, *p.end, *p.step));
  p.out->Resize({n});
  const T start = p.x->data<T>()[0], step = p.step->data<T>()[0];
  T* out = p.out->mutable_data<T>();
  for (int64_t i = 0; i < n; ++i) out[i] = static_cast<T>(start + static_cast<T>(i) * step);
  return Status::OK();
}

// Copies X to Out moving element index `i` (per dim) to `map(i)`.
template <typename Map>
void Permute(const ArrayParam& p, Map map) {
  const DDim& d = p.x->dims();
  const size_t elem = DataTypeSize(p.x->dtype());
  const char* x = static_cast<const char*>(p.x->raw_data());
  char* out = static_cast<char*>(p.out->mutable_data(p.x->dtype()));
  std::vector<int64_t> idx(d.size(), 0), dst(d.size());
  const int64_t total = p.x->numel();
  for (int64_t n = 0; n < total; ++n) {
    int64_t offset = 0;
    for (size_t k = 0; k < d.size(); ++k) {
      dst[k] = map(k, idx[k]);
      offset = offset * d[k] + dst[k];
    }
    std::memcpy(out + offset * elem, x + n * elem, elem);
    for (size_t k = d.size(); k-- > 0;) {
      if (++idx[k] < d[k]) break;
      idx[k] = 0;
    }
  }
}

Status FlipOrRoll(const ArrayParam& p, bool flip) {
  const DDim& d = p.x->dims();
  if (p.x->numel() > 0 && !p.x->raw_data()) return FailedPrecondition("X has no data");
  if (!flip && p.axes.empty()) {  // roll over the flattened elements
    const int64_t total = p.x->numel();
    const size_t elem = DataTypeSize(p.x->dtype());
    char* out = static_cast<char*>(p.out->mutable_data(p.x->dtype()));
    if (total == 0) return Status::OK();
    const int64_t s = ((p.shifts[0] % total) + total) % total;
    const char* x = static_cast<const char*>(p.x->raw_data());
    std::memcpy(out + s * elem, x, (total - s) * elem);
    std::memcpy(out, x + (total - s) * elem, s * elem);
    return Status::OK();
  }
  std::vector<int64_t> shift(d.size(), 0);
  std::vector<bool> reversed(d.size(), false);
  for (size_t i = 0; i < p.axes.size(); ++i) {
    const int64_t a = p.axes[i];
    if (flip) {
      reversed[a] = !reversed[a];
    } else if (d[a] > 0) {
      shift[a] = (((shift[a] + p.shifts[i]) % d[a]) + d[a]) % d[a];
    }
  }
  Permute(p, [&](size_t k, int64_t i) {
    if (reversed[k]) return d[k] - 1 - i;
    return shift[k] ? (i + shift[k]) % d[k] : i;
  });
  return Status::OK();
}

class ArrayCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<ArrayParam>();
    const std::string& op = def().op_type;
    if (op == "flip" || op == "roll") return FlipOrRoll(p, op == "flip");
    return DispatchByDtype<false>(*p.x, nullptr, op, [&](auto zero) {
      using T = decltype(zero);
      return op == "range" ? Range<T>(p) : CumSum<T>(p);
    });
  }
};

}  // namespace

}  // namespace host
}  // namespace kernels
}  // namespace lite

#define LITE_REGISTER_ARRAY(op)                                                          \
  REGISTER_LITE_KERNEL(op, kHost, kAny, kNCHW, lite::kernels::host::ArrayCompute, def) \
      .Finalize()

LITE_REGISTER_ARRAY(cumsum);
LITE_REGISTER_ARRAY(flip);
LITE_REGISTER_ARRAY(roll);
LITE_REGISTER_ARRAY(range);
