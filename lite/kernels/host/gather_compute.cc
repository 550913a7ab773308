// Host kernels for gather, index_select, gather_nd and where (gather_ops.h):
// byte copies of whole inner slices, any dtype of X; indices are checked
// against their extent before anything is copied.
#include <cstring>
#include <string>
#include <vector>

#include "lite/core/kernel.h"
#include "lite/operators/gather_ops.h"
#include "lite/operators/tensor_util.h"

namespace lite {
namespace kernels {
namespace host {

namespace {

using operators::GatherParam;

Status CheckIndex(int64_t v, int64_t extent, const std::string& op, size_t at) {
  if (v < 0 || v >= extent) {
    return InvalidArgument(op + ": index " + std::to_string(v) + " (element " +
                           std::to_string(at) + " of Index) is out of range [0, " +
                           std::to_string(extent) + ")");
  }
  return Status::OK();
}

Status Gather(const GatherParam& p, const std::string& op) {
  const DDim& xd = p.x->dims();
  const size_t elem = DataTypeSize(p.x->dtype());
  ASSIGN_OR_RETURN(std::vector<int64_t> index, operators::ReadIntTensor(*p.index, op + " Index"));
  const int64_t n = xd[p.axis];
  for (size_t i = 0; i < index.size(); ++i) RETURN_IF_ERROR(CheckIndex(index[i], n, op, i));
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < p.axis; ++i) outer *= xd[i];
  for (size_t i = p.axis + 1; i < xd.size(); ++i) inner *= xd[i];
  const size_t slice = inner * elem;
  const char* x = static_cast<const char*>(p.x->raw_data());
  char* out = static_cast<char*>(p.out->mutable_data(p.x->dtype()));
  const int64_t m = static_cast<int64_t>(index.size());
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < m; ++i) {
      std::memcpy(out + (o * m + i) * slice, x + (o * n + index[i]) * slice, slice);
    }
  }
  return Status::OK();
}

Status GatherNd(const GatherParam& p) {
  const DDim& xd = p.x->dims();
  const size_t elem = DataTypeSize(p.x->dtype());
  ASSIGN_OR_RETURN(std::vector<int64_t> index, operators::ReadIntTensor(*p.index, "gather_nd Index"));
  const int64_t k = p.index->dims().back();
  int64_t inner = 1;
  for (size_t i = k; i < xd.size(); ++i) inner *= xd[i];
  const size_t slice = inner * elem;
  const char* x = static_cast<const char*>(p.x->raw_data());
  char* out = static_cast<char*>(p.out->mutable_data(p.x->dtype()));
  const int64_t out_rows = Product(p.out->dims()) / (inner == 0 ? 1 : inner);
  for (int64_t r = 0; r < out_rows; ++r) {
    int64_t offset = 0;
    for (int64_t j = 0; j < k; ++j) {
      const size_t at = r * k + j;
      RETURN_IF_ERROR(CheckIndex(index[at], xd[j], "gather_nd", at));
      offset = offset * xd[j] + index[at];
    }
    std::memcpy(out + r * slice, x + offset * slice, slice);
  }
  return Status::OK();
}

Status Where(const GatherParam& p) {
  if (p.condition->dtype() != DataType::kBool) {
    return InvalidArgument(std::string("where: Condition must be bool, got ") +
                           DataTypeName(p.condition->dtype()));
  }
  if (p.x->dtype() != p.y->dtype()) {
    return InvalidArgument(std::string("where: X is ") + DataTypeName(p.x->dtype()) +
                           " but Y is " + DataTypeName(p.y->dtype()));
  }
  const size_t elem = DataTypeSize(p.x->dtype());
  const bool* c = p.condition->data<bool>();
  const char* x = static_cast<const char*>(p.x->raw_data());
  const char* y = static_cast<const char*>(p.y->raw_data());
  char* out = static_cast<char*>(p.out->mutable_data(p.x->dtype()));
  const int64_t n = p.x->numel();
  for (int64_t i = 0; i < n; ++i) std::memcpy(out + i * elem, (c[i] ? x : y) + i * elem, elem);
  return Status::OK();
}

class GatherCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<GatherParam>();
    const std::string& op = def().op_type;
    if (op == "where") return Where(p);
    if (p.x->numel() > 0 && !p.x->raw_data()) return FailedPrecondition(op + ": X has no data");
    if (op == "gather_nd") return GatherNd(p);
    return Gather(p, op);
  }
};

}  // namespace

}  // namespace host
}  // namespace kernels
}  // namespace lite

#define LITE_REGISTER_GATHER(op)                                                          \
  REGISTER_LITE_KERNEL(op, kHost, kAny, kNCHW, lite::kernels::host::GatherCompute, def) \
      .Finalize()

LITE_REGISTER_GATHER(gather);
LITE_REGISTER_GATHER(index_select);
LITE_REGISTER_GATHER(gather_nd);
LITE_REGISTER_GATHER(where);
