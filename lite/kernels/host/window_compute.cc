// Host kernel for strided_slice, crop and crop_tensor (window_ops.h): walks
// the output in order and copies elements (bytes) from the strided window of
// X, so every dtype and negative strides work.
#include <cstring>
#include <vector>

#include "lite/core/kernel.h"
#include "lite/operators/window_ops.h"

namespace lite {
namespace kernels {
namespace host {

class WindowCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::WindowParam>();
    ASSIGN_OR_RETURN(operators::StridedWindow w, operators::ComputeWindow(def().op_type, p));
    p.out->Resize(w.out_dims);
    const DataType t = p.x->dtype();
    char* dst = static_cast<char*>(p.out->mutable_data(t));
    const int64_t total = Product(w.dims);
    if (total == 0) return Status::OK();
    const char* src = static_cast<const char*>(p.x->raw_data());
    if (!src) return FailedPrecondition(def().op_type + ": X has no data");
    const DDim& in = p.x->dims();
    const int rank = static_cast<int>(in.size());
    const size_t es = DataTypeSize(t);
    std::vector<int64_t> stride(rank, 1);
    for (int k = rank - 2; k >= 0; --k) stride[k] = stride[k + 1] * in[k + 1];
    std::vector<int64_t> idx(rank, 0);
    for (int64_t i = 0; i < total; ++i) {
      int64_t off = 0;
      for (int k = 0; k < rank; ++k) off += (w.begin[k] + idx[k] * w.step[k]) * stride[k];
      std::memcpy(dst + i * es, src + off * es, es);
      for (int k = rank - 1; k >= 0; --k) {
        if (++idx[k] < w.dims[k]) break;
        idx[k] = 0;
      }
    }
    return Status::OK();
  }
};

}  // namespace host
}  // namespace kernels
}  // namespace lite

#define LITE_REGISTER_WINDOW(op)                                                          \
  REGISTER_LITE_KERNEL(op, kHost, kAny, kNCHW, lite::kernels::host::WindowCompute, def) \
      .Finalize()

LITE_REGISTER_WINDOW(strided_slice);
LITE_REGISTER_WINDOW(crop);
LITE_REGISTER_WINDOW(crop_tensor);
