// Host kernel for top_k / top_k_v2 (top_k_op.h): per line along the axis, a
// partial sort of indices by (value, index).
#include <algorithm>
#include <numeric>
#include <vector>

#include "lite/core/kernel.h"
#include "lite/kernels/host/dtype_dispatch.h"
#include "lite/operators/top_k_op.h"

namespace lite {
namespace kernels {
namespace host {

namespace {

template <typename T>
Status TopK(const operators::TopKParam& p) {
  const DDim& xd = p.x->dims();
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < p.axis; ++i) outer *= xd[i];
  for (size_t i = p.axis + 1; i < xd.size(); ++i) inner *= xd[i];
  const int64_t n = xd[p.axis], k = p.k;
  const T* x = p.x->data<T>();
  T* out = p.out->mutable_data<T>();
  int64_t* indices = p.indices->mutable_data<int64_t>();
  std::vector<int64_t> order(n);
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t c = 0; c < inner; ++c) {
      const T* line = x + o * n * inner + c;
      std::iota(order.begin(), order.end(), 0);
      std::partial_sort(order.begin(), order.begin() + k, order.end(),
                        [&](int64_t a, int64_t b) {
                          const T va = line[a * inner], vb = line[b * inner];
                          if (va != vb) return p.largest ? va > vb : va < vb;
                          return a < b;
                        });
      for (int64_t j = 0; j < k; ++j) {
        const int64_t at = (o * k + j) * inner + c;
        out[at] = line[order[j] * inner];
        indices[at] = order[j];
      }
    }
  }
  return Status::OK();
}

class TopKCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<operators::TopKParam>();
    return DispatchByDtype<false>(*p.x, nullptr, def().op_type,
                                  [&](auto zero) { return TopK<decltype(zero)>(p); });
  }
};

}  // namespace

}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(top_k, kHost, kAny, kNCHW, lite::kernels::host::TopKCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(top_k_v2, kHost, kAny, kNCHW, lite::kernels::host::TopKCompute, def)
    .Finalize();
