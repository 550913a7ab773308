// Host kernels for scatter and scatter_nd_add (scatter_ops.h): Out starts as
// a copy of X; every index is checked before Out is touched further.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "lite/core/kernel.h"
#include "lite/kernels/host/dtype_dispatch.h"
#include "lite/operators/scatter_ops.h"
#include "lite/operators/tensor_util.h"

namespace lite {
namespace kernels {
namespace host {

namespace {

using operators::ScatterParam;

// Row offsets into X (in units of `inner` elements) for each update row.
StatusOr<std::vector<int64_t>> RowsOf(const ScatterParam& p, const std::string& op,
                                      int64_t* inner) {
  const DDim& xd = p.x->dims();
  ASSIGN_OR_RETURN(std::vector<int64_t> index, operators::ReadIntTensor(*p.index, op + " index"));
  const int64_t k = op == "scatter" ? 1 : p.index->dims().back();
  *inner = 1;
  for (size_t i = k; i < xd.size(); ++i) *inner *= xd[i];
  const int64_t rows = k == 0 ? Product(p.updates->dims()) / std::max<int64_t>(*inner, 1)
                              : static_cast<int64_t>(index.size()) / k;
  std::vector<int64_t> out(rows, 0);
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t j = 0; j < k; ++j) {
      const int64_t v = index[r * k + j];
      if (v < 0 || v >= xd[j]) {
        return InvalidArgument(op + ": index " + std::to_string(v) + " (element " +
                               std::to_string(r * k + j) + " of the indices) is out of range [0, " +
                               std::to_string(xd[j]) + ")");
      }
      out[r] = out[r] * xd[j] + v;
    }
  }
  return out;
}

template <typename T>
Status Scatter(const ScatterParam& p, const std::string& op) {
  int64_t inner = 1;
  ASSIGN_OR_RETURN(std::vector<int64_t> rows, RowsOf(p, op, &inner));
  const T* x = p.x->data<T>();
  const T* u = p.updates->data<T>();
  T* out = p.out->mutable_data<T>();
  std::copy(x, x + p.x->numel(), out);
  const bool assign = op == "scatter" && p.overwrite;
  if (op == "scatter" && !p.overwrite) {
    for (int64_t r : rows) std::fill(out + r * inner, out + (r + 1) * inner, T(0));
  }
  for (size_t i = 0; i < rows.size(); ++i) {
    T* dst = out + rows[i] * inner;
    const T* src = u + i * inner;
    for (int64_t j = 0; j < inner; ++j) dst[j] = assign ? src[j] : dst[j] + src[j];
  }
  return Status::OK();
}

class ScatterCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<ScatterParam>();
    const std::string& op = def().op_type;
    return DispatchByDtype<false>(*p.x, p.updates, op,
                                  [&](auto t) { return Scatter<decltype(t)>(p, op); });
  }
};

}  // namespace

}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(scatter, kHost, kAny, kNCHW, lite::kernels::host::ScatterCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(scatter_nd_add, kHost, kAny, kNCHW, lite::kernels::host::ScatterCompute,
                     def)
    .Finalize();
