// Host kernels for masked_select and where_index (select_ops.h): one pass
// finds the selected elements, then Out is sized and written.
#include <cstring>
#include <string>
#include <vector>

#include "lite/core/kernel.h"
#include "lite/operators/select_ops.h"

namespace lite {
namespace kernels {
namespace host {

namespace {

using operators::SelectParam;

template <typename T>
std::vector<int64_t> NonZero(const Tensor& t) {
  const T* p = t.data<T>();
  std::vector<int64_t> at;
  for (int64_t i = 0; i < t.numel(); ++i) {
    if (p[i] != T(0)) at.push_back(i);
  }
  return at;
}

StatusOr<std::vector<int64_t>> NonZeroOf(const Tensor& t, const std::string& what) {
  if (t.numel() > 0 && !t.raw_data()) return FailedPrecondition(what + " has no data");
  switch (t.dtype()) {
    case DataType::kBool: return NonZero<bool>(t);
    case DataType::kInt32: return NonZero<int32_t>(t);
    case DataType::kInt64: return NonZero<int64_t>(t);
    case DataType::kFloat32: return NonZero<float>(t);
    default:
      return Unimplemented(what + " of dtype " + DataTypeName(t.dtype()));
  }
}

Status MaskedSelect(const SelectParam& p) {
  ASSIGN_OR_RETURN(std::vector<int64_t> at, NonZeroOf(*p.mask, "masked_select Mask"));
  const int64_t k = static_cast<int64_t>(at.size());
  p.out->Resize({k});
  const size_t es = DataTypeSize(p.x->dtype());
  char* out = static_cast<char*>(p.out->mutable_data(p.x->dtype()));
  if (k == 0) return Status::OK();
  const char* x = static_cast<const char*>(p.x->raw_data());
  if (!x) return FailedPrecondition("masked_select: X has no data");
  for (int64_t i = 0; i < k; ++i) std::memcpy(out + i * es, x + at[i] * es, es);
  return Status::OK();
}

Status WhereIndex(const SelectParam& p) {
  ASSIGN_OR_RETURN(std::vector<int64_t> at, NonZeroOf(*p.x, "where_index Condition"));
  const DDim& d = p.x->dims();
  const int64_t rank = static_cast<int64_t>(d.size());
  const int64_t k = static_cast<int64_t>(at.size());
  p.out->Resize({k, rank});
  int64_t* out = p.out->mutable_data<int64_t>();
  for (int64_t i = 0; i < k; ++i) {
    int64_t flat = at[i];
    for (int64_t j = rank - 1; j >= 0; --j) {
      out[i * rank + j] = flat % d[j];
      flat /= d[j];
    }
  }
  return Status::OK();
}

class SelectCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<SelectParam>();
    return def().op_type == "masked_select" ? MaskedSelect(p) : WhereIndex(p);
  }
};

}  // namespace

}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(masked_select, kHost, kAny, kNCHW, lite::kernels::host::SelectCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(where_index, kHost, kAny, kNCHW, lite::kernels::host::SelectCompute, def)
    .Finalize();
