// Host kernel for one_hot_v2 (one_hot_op.h): zero-fills Out in its dtype,
// then sets one element per index to 1.
#include <cstring>
#include <string>

#include "lite/core/kernel.h"
#include "lite/kernels/host/fill_util.h"
#include "lite/operators/one_hot_op.h"
#include "lite/operators/tensor_util.h"

namespace lite {
namespace kernels {
namespace host {

class OneHotCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::OneHotParam>();
    ASSIGN_OR_RETURN(auto index, operators::ReadIntTensor(*p.x, "one_hot_v2 X"));
    for (size_t i = 0; i < index.size(); ++i) {
      if ((index[i] < 0 || index[i] >= p.depth) && !p.allow_out_of_range) {
        return InvalidArgument("one_hot_v2: index " + std::to_string(index[i]) + " (element " +
                               std::to_string(i) + " of X) is out of range [0, " +
                               std::to_string(p.depth) + ")");
      }
    }
    RETURN_IF_ERROR(FillAs(p.out, p.dtype, 0.0, 0, true));
    // The element type's 1, written byte-wise.
    Tensor one;
    one.Resize({1});
    RETURN_IF_ERROR(FillAs(&one, p.dtype, 1.0, 1, true));
    const size_t elem = DataTypeSize(p.dtype);
    char* out = static_cast<char*>(p.out->mutable_data(p.dtype));
    for (size_t i = 0; i < index.size(); ++i) {
      if (index[i] < 0 || index[i] >= p.depth) continue;
      std::memcpy(out + (i * p.depth + index[i]) * elem, one.raw_data(), elem);
    }
    return Status::OK();
  }
};

}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(one_hot_v2, kHost, kAny, kNCHW, lite::kernels::host::OneHotCompute, def)
    .Finalize();
