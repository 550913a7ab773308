// Host kernel for every reshape-like op (reshape*, flatten*, squeeze*,
// unsqueeze*): recompute the output dims (shape tensors may carry new values
// with unchanged dims) and copy X's bytes, whatever the dtype.
#include "lite/core/kernel.h"
#include "lite/operators/reshape_ops.h"
#include "lite/operators/tensor_util.h"

namespace lite {
namespace kernels {
namespace host {

class ReshapeCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::ReshapeParam>();
    ASSIGN_OR_RETURN(DDim dims, operators::ComputeReshapeOutDims(p));
    if (Product(dims) != p.x->numel()) {
      return InvalidArgument("output dims " + DimsToString(dims) +
                             " do not hold the input's " +
                             std::to_string(p.x->numel()) + " elements");
    }
    p.out->Resize(dims);
    return operators::CopyTensorBytes(*p.x, p.out);
  }
};

}  // namespace host
}  // namespace kernels
}  // namespace lite

#define LITE_REGISTER_RESHAPE_KERNEL(op)                                     \
  REGISTER_LITE_KERNEL(op, kHost, kAny, kNCHW,                               \
                       lite::kernels::host::ReshapeCompute, def)             \
      .Finalize()

LITE_REGISTER_RESHAPE_KERNEL(reshape);
LITE_REGISTER_RESHAPE_KERNEL(reshape2);
LITE_REGISTER_RESHAPE_KERNEL(flatten);
LITE_REGISTER_RESHAPE_KERNEL(flatten2);
LITE_REGISTER_RESHAPE_KERNEL(flatten_contiguous_range);
LITE_REGISTER_RESHAPE_KERNEL(squeeze);
LITE_REGISTER_RESHAPE_KERNEL(squeeze2);
LITE_REGISTER_RESHAPE_KERNEL(unsqueeze);
LITE_REGISTER_RESHAPE_KERNEL(unsqueeze2);
