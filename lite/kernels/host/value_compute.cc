// Host kernels for assign_value and linspace (value_ops.h).
#include <cmath>
#include <string>
#include <vector>

#include "lite/core/kernel.h"
#include "lite/operators/tensor_util.h"
#include "lite/operators/value_ops.h"

namespace lite {
namespace kernels {
namespace host {

namespace {

using operators::ValueParam;

template <typename T>
void Write(Tensor* out, const std::vector<double>& d, const std::vector<int64_t>& i) {
  T* p = out->mutable_data<T>();
  for (size_t k = 0; k < d.size(); ++k) p[k] = static_cast<T>(d[k]);
  for (size_t k = 0; k < i.size(); ++k) p[k] = static_cast<T>(i[k]);
}

// Writes `d` (or the exact integers `i`) into out as its dtype.
Status WriteAs(Tensor* out, DataType t, const std::vector<double>& d,
               const std::vector<int64_t>& i) {
  switch (t) {
    case DataType::kBool: Write<bool>(out, d, i); break;
    case DataType::kInt32: Write<int32_t>(out, d, i); break;
    case DataType::kInt64: Write<int64_t>(out, d, i); break;
    case DataType::kFloat32: Write<float>(out, d, i); break;
    case DataType::kFloat64: Write<double>(out, d, i); break;
    default:
      return Unimplemented(std::string("writing values of dtype ") + DataTypeName(t));
  }
  return Status::OK();
}

Status Linspace(ValueParam* p) {
  ASSIGN_OR_RETURN(std::vector<int64_t> num, operators::ReadIntTensor(*p->num, "linspace Num"));
  if (num[0] <= 0) return InvalidArgument("linspace: Num must be > 0, got " + std::to_string(num[0]));
  ASSIGN_OR_RETURN(std::vector<float> start, operators::ReadFloatTensor(*p->start, "linspace Start"));
  ASSIGN_OR_RETURN(std::vector<float> stop, operators::ReadFloatTensor(*p->stop, "linspace Stop"));
  const int64_t n = num[0];
  // Start and Stop take the output type first (Paddle), so integer outputs
  // space truncated bounds.
  const bool integral = p->dtype == DataType::kInt32 || p->dtype == DataType::kInt64;
  const double a = integral ? std::trunc(start[0]) : start[0];
  const double b = integral ? std::trunc(stop[0]) : stop[0];
  const double step = n > 1 ? (b - a) / static_cast<double>(n - 1) : 0.0;
  std::vector<double> values(n);
  for (int64_t i = 0; i < n; ++i) {
    values[i] = i < n / 2 ? a + step * static_cast<double>(i)
                          : b - step * static_cast<double>(n - 1 - i);
  }
  if (n == 1) values[0] = a;
  p->out->Resize({n});
  return WriteAs(p->out, p->dtype, values, {});
}

class ValueCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<ValueParam>();
    if (def().op_type == "linspace") return Linspace(&p);
    return WriteAs(p.out, p.dtype, p.values, p.int_values);
  }
};

}  // namespace

}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(assign_value, kHost, kAny, kNCHW, lite::kernels::host::ValueCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(linspace, kHost, kAny, kNCHW, lite::kernels::host::ValueCompute, def)
    .Finalize();
