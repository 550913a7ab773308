// Host kernel for one_hot and one_hot_v2 (one_hot_op.h): resolves the depth
// (depth_tensor is read here, at run time), zero-fills Out in its dtype,
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
    const std::string name = p.v1 ? "one_hot" : "one_hot_v2";
    ASSIGN_OR_RETURN(int64_t depth, operators::ResolveOneHotDepth(p, name));
    p.out->Resize(operators::OneHotDims(p, depth));
    ASSIGN_OR_RETURN(auto index, operators::ReadIntTensor(*p.x, name + " X"));
    for (size_t i = 0; i < index.size(); ++i) {
      if ((index[i] < 0 || index[i] >= depth) && !p.allow_out_of_range) {
        return InvalidArgument(name + ": index " + std::to_string(index[i]) + " (element " +
                               std::to_string(i) + " of X) is out of range [0, " +
                               std::to_string(depth) + ")");
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
      if (index[i] < 0 || index[i] >= depth) continue;
      std::memcpy(out + (i * depth + index[i]) * elem, one.raw_data(), elem);
    }
    return Status::OK();
  }
};

}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(one_hot_v2, kHost, kAny, kNCHW, lite::kernels::host::OneHotCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(one_hot, kHost, kAny, kNCHW, lite::kernels::host::OneHotCompute, def)
    .Finalize();
