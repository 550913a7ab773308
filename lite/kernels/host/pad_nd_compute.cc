// Host kernel for the legacy N-D pad (pad_nd_op.h), any dtype: fills Out
// with pad_value, then copies each innermost row of X to its place.
#include <cstring>

#include "lite/core/kernel.h"
#include "lite/kernels/host/fill_util.h"
#include "lite/operators/pad_nd_op.h"

namespace lite {
namespace kernels {
namespace host {

class PadNdCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::PadNdParam>();
    const DataType dt = p.x->dtype();
    RETURN_IF_ERROR(FillAs(p.out, dt, p.pad_value, static_cast<int64_t>(p.pad_value), false));
    const DDim& xd = p.x->dims();
    const DDim& od = p.out->dims();
    const int64_t rows = xd.empty() ? 1 : Product(xd) / xd.back();
    if (p.x->numel() == 0) return Status::OK();
    const size_t elem = DataTypeSize(dt);
    const char* x = static_cast<const char*>(p.x->raw_data());
    char* out = static_cast<char*>(p.out->mutable_data(dt));
    if (xd.empty()) {
      std::memcpy(out, x, elem);
      return Status::OK();
    }
    const size_t rank = xd.size();
    const int64_t row = xd.back();
    std::vector<int64_t> idx(rank - 1, 0);  // X index of the current row
    for (int64_t r = 0; r < rows; ++r) {
      int64_t o = 0;
      for (size_t d = 0; d + 1 < rank; ++d) o = o * od[d] + idx[d] + p.paddings[2 * d];
      o = o * od[rank - 1] + p.paddings[2 * (rank - 1)];
      std::memcpy(out + o * elem, x + r * row * elem, row * elem);
      for (size_t d = rank - 1; d-- > 0;) {
        if (++idx[d] < xd[d]) break;
        idx[d] = 0;
      }
    }
    return Status::OK();
  }
};

}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(pad, kHost, kAny, kNCHW, lite::kernels::host::PadNdCompute, def)
    .Finalize();
