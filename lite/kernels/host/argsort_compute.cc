// Host kernel for argsort (argsort_op.h): a stable sort of each line of X
// along the axis, by index.
#include <algorithm>
#include <numeric>
#include <vector>

#include "lite/core/kernel.h"
#include "lite/kernels/host/dtype_dispatch.h"
#include "lite/operators/argsort_op.h"

namespace lite {
namespace kernels {
namespace host {

namespace {

using operators::ArgsortParam;

template <typename T>
Status Argsort(const ArgsortParam& p) {
  const DDim& xd = p.x->dims();
  int64_t outer = 1, inner = 1;
  const int64_t n = xd.empty() ? 1 : xd[p.axis];
  for (int64_t i = 0; i < p.axis; ++i) outer *= xd[i];
  for (size_t i = p.axis + 1; i < xd.size(); ++i) inner *= xd[i];
  const T* x = p.x->data<T>();
  T* out = p.out->mutable_data<T>();
  int64_t* idx = p.indices->mutable_data<int64_t>();
  std::vector<int64_t> order(n);
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t in = 0; in < inner; ++in) {
      const T* line = x + o * n * inner + in;
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
        return p.descending ? line[b * inner] < line[a * inner] : line[a * inner] < line[b * inner];
      });
      for (int64_t k = 0; k < n; ++k) {
        const int64_t at = o * n * inner + k * inner + in;
        out[at] = line[order[k] * inner];
        idx[at] = order[k];
      }
    }
  }
  return Status::OK();
}

class ArgsortCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<ArgsortParam>();
    return DispatchByDtype<false>(*p.x, nullptr, "argsort",
                                  [&](auto t) { return Argsort<decltype(t)>(p); });
  }
};

}  // namespace

}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(argsort, kHost, kAny, kNCHW, lite::kernels::host::ArgsortCompute, def)
    .Finalize();
