// Host kernel for slice: copies the resolved window of Input as contiguous
// chunks (the innermost sliced axis and everything after it), on raw bytes so
// every dtype works.
#include <cstring>

#include "lite/core/kernel.h"
#include "lite/operators/slice_op.h"

namespace lite {
namespace kernels {
namespace host {

class SliceCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::SliceParam>();
    ASSIGN_OR_RETURN(operators::SliceWindow w, operators::ComputeSlice(p));
    p.out->Resize(w.out_dims);
    const DataType t = p.x->dtype();
    char* dst = static_cast<char*>(p.out->mutable_data(t));
    const int64_t total = Product(w.sliced_dims);
    if (total == 0) return Status::OK();
    const char* src = static_cast<const char*>(p.x->raw_data());
    if (!src) return FailedPrecondition("input has no data");
    const DDim& in = p.x->dims();
    const int rank = static_cast<int>(in.size());
    const size_t es = DataTypeSize(t);
    if (rank == 0) {
      std::memcpy(dst, src, es);
      return Status::OK();
    }
    // k0: the innermost axis that is actually cut; after it rows are whole.
    int k0 = -1;
    for (int k = rank - 1; k >= 0; --k) {
      if (w.sliced_dims[k] != in[k] || w.begin[k] != 0) {
        k0 = k;
        break;
      }
    }
    if (k0 < 0) {
      std::memcpy(dst, src, static_cast<size_t>(total) * es);
      return Status::OK();
    }
    std::vector<int64_t> stride(rank, 1);
    for (int k = rank - 2; k >= 0; --k) stride[k] = stride[k + 1] * in[k + 1];
    const int64_t chunk = w.sliced_dims[k0] * stride[k0];
    std::vector<int64_t> idx(k0, 0);
    for (int64_t done = 0; done < total; done += chunk) {
      int64_t off = w.begin[k0] * stride[k0];
      for (int k = 0; k < k0; ++k) off += (idx[k] + w.begin[k]) * stride[k];
      std::memcpy(dst + done * es, src + off * es, static_cast<size_t>(chunk) * es);
      for (int k = k0 - 1; k >= 0; --k) {
        if (++idx[k] < w.sliced_dims[k]) break;
        idx[k] = 0;
      }
    }
    return Status::OK();
  }
};

}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(slice, kHost, kAny, kNCHW, lite::kernels::host::SliceCompute, def)
    .Finalize();
