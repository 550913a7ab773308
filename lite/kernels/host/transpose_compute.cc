// Host kernel for transpose/transpose2: a strided permutation copy on raw
// elements (dispatched on element size, so every dtype works).
#include <cstring>

#include "lite/core/kernel.h"
#include "lite/operators/transpose_op.h"

namespace lite {
namespace kernels {
namespace host {
namespace {

template <typename E>
void Permute(const E* src, E* dst, const DDim& out_dims,
             const std::vector<int64_t>& src_stride_for_out) {
  const int rank = static_cast<int>(out_dims.size());
  const int64_t total = Product(out_dims);
  if (total == 0) return;
  if (rank == 0) {
    dst[0] = src[0];
    return;
  }
  const int64_t inner = out_dims[rank - 1];
  const int64_t inner_stride = src_stride_for_out[rank - 1];
  std::vector<int64_t> idx(rank, 0);
  int64_t src_off = 0;
  for (int64_t o = 0; o < total; o += inner) {
    const E* s = src + src_off;
    E* d = dst + o;
    if (inner_stride == 1) {
      std::memcpy(d, s, inner * sizeof(E));
    } else {
      for (int64_t i = 0; i < inner; ++i) d[i] = s[i * inner_stride];
    }
    // Advance the odometer over the outer output dims.
    for (int k = rank - 2; k >= 0; --k) {
      src_off += src_stride_for_out[k];
      if (++idx[k] < out_dims[k]) break;
      src_off -= src_stride_for_out[k] * out_dims[k];
      idx[k] = 0;
    }
  }
}


}  // namespace

class TransposeCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::TransposeParam>();
    const DDim& in = p.x->dims();
    const int rank = static_cast<int>(in.size());
    if (static_cast<int>(p.axis.size()) != rank) {
      return Internal("transpose axis not inferred for input " + DimsToString(in));
    }
    std::vector<int64_t> in_stride(rank, 1);
    for (int i = rank - 2; i >= 0; --i) in_stride[i] = in_stride[i + 1] * in[i + 1];
    DDim out_dims(rank);
    std::vector<int64_t> src_stride(rank);
    for (int i = 0; i < rank; ++i) {
      out_dims[i] = in[p.axis[i]];
      src_stride[i] = in_stride[p.axis[i]];
    }
    p.out->Resize(out_dims);
    const DataType t = p.x->dtype();
    void* dst = p.out->mutable_data(t);
    const void* src = p.x->raw_data();
    if (p.x->numel() > 0 && !src) return FailedPrecondition("input X has no data");
    switch (DataTypeSize(t)) {
      case 1:
        Permute(static_cast<const uint8_t*>(src), static_cast<uint8_t*>(dst), out_dims, src_stride);
        break;
      case 2:
        Permute(static_cast<const uint16_t*>(src), static_cast<uint16_t*>(dst), out_dims, src_stride);
        break;
      case 4:
        Permute(static_cast<const uint32_t*>(src), static_cast<uint32_t*>(dst), out_dims, src_stride);
        break;
      case 8:
        Permute(static_cast<const uint64_t*>(src), static_cast<uint64_t*>(dst), out_dims, src_stride);
        break;
      default:
        return Unimplemented(std::string("transpose of dtype ") + DataTypeName(t));
    }
    return Status::OK();
  }
};

}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(transpose, kHost, kAny, kNCHW, lite::kernels::host::TransposeCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(transpose2, kHost, kAny, kNCHW, lite::kernels::host::TransposeCompute, def)
    .Finalize();
