// Host kernels for write_to_array, read_from_array and lod_array_length
// (any element dtype; elements are deep copies).
#include "lite/core/kernel.h"
#include "lite/operators/control_flow_ops.h"
#include "lite/operators/tensor_array_ops.h"

namespace lite {
namespace kernels {
namespace host {

class TensorArrayCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::TensorArrayParam>();
    std::vector<Tensor>* array = p.array->GetMutableTensorList();
    const std::string& op = def().op_type;
    if (op == "lod_array_length") {
      p.out->Resize({1});
      p.out->mutable_data<int64_t>()[0] = static_cast<int64_t>(array->size());
      return Status::OK();
    }
    ASSIGN_OR_RETURN(int64_t i, operators::ScalarIndex(*p.index, "index I"));
    if (i < 0) return InvalidArgument("index I is negative (" + std::to_string(i) + ")");
    const size_t at = static_cast<size_t>(i);
    if (op == "write_to_array") {
      if (array->size() <= at) array->resize(at + 1);
      (*array)[at].CopyDataFrom(*p.x);
      return Status::OK();
    }
    if (at >= array->size()) {
      return InvalidArgument("index I " + std::to_string(i) + " is past the end of an array of " +
                             std::to_string(array->size()));
    }
    p.out->CopyDataFrom((*array)[at]);
    return Status::OK();
  }
};

}  // namespace host
}  // namespace kernels
}  // namespace lite

#define LITE_REGISTER_TENSOR_ARRAY(op)                                                   \
  REGISTER_LITE_KERNEL(op, kHost, kAny, kNCHW, lite::kernels::host::TensorArrayCompute, \
                       def)                                                              \
      .Finalize()
LITE_REGISTER_TENSOR_ARRAY(write_to_array);
LITE_REGISTER_TENSOR_ARRAY(read_from_array);
LITE_REGISTER_TENSOR_ARRAY(lod_array_length);
