// Host kernels of lite/operators/sequence_layout_ops.h: sequence_softmax
// per sequence (max-subtracted), and one dtype-agnostic row copy for
// sequence_expand, sequence_expand_as, sequence_reshape and sequence_concat
// following the row map their InferShape recorded.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "lite/core/kernel.h"
#include "lite/operators/sequence_layout_ops.h"

namespace lite {
namespace kernels {
namespace host {
namespace {

class SequenceSoftmaxCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::SequenceSoftmaxParam>();
    if (p.x->dtype() != DataType::kFloat32) return Unimplemented("X must be float32");
    const float* x = p.x->data<float>();
    float* out = p.out->mutable_data<float>();
    const auto& level = p.x->lod().back();
    for (size_t s = 0; s + 1 < level.size(); ++s) {
      const int64_t b = static_cast<int64_t>(level[s]), e = static_cast<int64_t>(level[s + 1]);
      if (b == e) continue;
      const float mx = *std::max_element(x + b, x + e);
      float sum = 0.f;
      for (int64_t i = b; i < e; ++i) {
        out[i] = std::exp(x[i] - mx);
        sum += out[i];
      }
      for (int64_t i = b; i < e; ++i) out[i] /= sum;
    }
    return Status::OK();
  }
};

class RowGatherCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::RowGatherParam>();
    const Tensor& x0 = *p.xs[0];
    const DataType type = x0.dtype();
    for (size_t i = 1; i < p.data_inputs; ++i) {
      if (p.xs[i]->dtype() != type) {
        return InvalidArgument("input " + std::to_string(i) + " is " +
                               DataTypeName(p.xs[i]->dtype()) + ", input 0 is " +
                               DataTypeName(type));
      }
    }
    const int64_t rows = x0.dims().empty() ? 1 : x0.dims()[0];
    const size_t row_bytes =
        rows > 0 ? static_cast<size_t>(x0.numel() / rows) * DataTypeSize(type) : 0;
    char* out = static_cast<char*>(p.out->mutable_data(type));
    for (size_t r = 0; r < p.rows.size(); ++r) {
      const Tensor& src = *p.xs[p.rows[r].first];
      std::memcpy(out + r * row_bytes,
                  static_cast<const char*>(src.raw_data()) + p.rows[r].second * row_bytes,
                  row_bytes);
    }
    return Status::OK();
  }
};

}  // namespace
}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(sequence_softmax, kHost, kFloat, kNCHW,
                     lite::kernels::host::SequenceSoftmaxCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(sequence_expand, kHost, kAny, kNCHW, lite::kernels::host::RowGatherCompute,
                     def)
    .Finalize();
REGISTER_LITE_KERNEL(sequence_expand_as, kHost, kAny, kNCHW,
                     lite::kernels::host::RowGatherCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(sequence_reshape, kHost, kAny, kNCHW, lite::kernels::host::RowGatherCompute,
                     def)
    .Finalize();
REGISTER_LITE_KERNEL(sequence_concat, kHost, kAny, kNCHW, lite::kernels::host::RowGatherCompute,
                     def)
    .Finalize();
