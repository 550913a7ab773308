// Host kernels of the LoD sequence ops (see lite/operators/sequence_ops.h):
// lookup_table(_v2) row gathers with range checks, sequence_conv as one
// context matrix per batch (zero rows outside each sequence) times the
// filter with one GEMM, and sequence_pool per sequence.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "lite/core/kernel.h"
#include "lite/backends/host/gemm.h"
#include "lite/operators/sequence_ops.h"

namespace lite {
namespace kernels {
namespace host {

namespace {

template <typename Id>
Status Gather(const operators::LookupTableParam& p, const Id* ids, int64_t n, float* out) {
  const int64_t rows = p.w->dims()[0], width = p.w->dims()[1];
  const float* w = p.w->data<float>();
  for (int64_t i = 0; i < n; ++i) {
    const int64_t id = static_cast<int64_t>(ids[i]);
    float* dst = out + i * width;
    if (p.padding_idx != -1 && id == p.padding_idx) {
      std::fill(dst, dst + width, 0.f);
      continue;
    }
    if (id < 0 || id >= rows) {
      return InvalidArgument("id " + std::to_string(id) + " at position " + std::to_string(i) +
                             " is outside the table's " + std::to_string(rows) + " rows");
    }
    std::memcpy(dst, w + id * width, sizeof(float) * width);
  }
  return Status::OK();
}

class LookupTableCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::LookupTableParam>();
    if (p.w->dtype() != DataType::kFloat32) return Unimplemented("W must be float32");
    float* out = p.out->mutable_data<float>();
    const int64_t n = p.ids->numel();
    if (p.ids->dtype() == DataType::kInt64) return Gather(p, p.ids->data<int64_t>(), n, out);
    if (p.ids->dtype() == DataType::kInt32) return Gather(p, p.ids->data<int32_t>(), n, out);
    return Unimplemented(std::string("Ids must be int64 or int32, got ") +
                         DataTypeName(p.ids->dtype()));
  }
};

class SequenceConvCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::SequenceConvParam>();
    const int64_t T = p.x->dims()[0], D = p.x->dims()[1], M = p.filter->dims()[1];
    const int64_t L = p.context_length, width = L * D;
    col_.assign(static_cast<size_t>(T * width), 0.f);
    const float* x = p.x->data<float>();
    const auto& level = p.x->lod().back();
    for (size_t s = 0; s + 1 < level.size(); ++s) {
      const int64_t begin = static_cast<int64_t>(level[s]), end = static_cast<int64_t>(level[s + 1]);
      for (int64_t t = begin; t < end; ++t) {
        for (int64_t j = 0; j < L; ++j) {
          const int64_t src = t + p.context_start + j;
          if (src < begin || src >= end) continue;  // zero padding
          std::memcpy(&col_[t * width + j * D], x + src * D, sizeof(float) * D);
        }
      }
    }
    float* out = p.out->mutable_data<float>();
    if (T > 0) {
      Gemm(false, false, T, M, width, 1.f, col_.data(), width, p.filter->data<float>(), M, 0.f,
           out, M);
    }
    return Status::OK();
  }

 private:
  std::vector<float> col_;
};

class SequencePoolCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::SequencePoolParam>();
    const auto& level = p.x->lod().back();
    const int64_t seqs = static_cast<int64_t>(level.size()) - 1;
    const int64_t width = p.x->dims()[0] > 0 ? p.x->numel() / p.x->dims()[0] : 0;
    const float* x = p.x->data<float>();
    float* out = p.out->mutable_data<float>();
    int64_t* index = p.max_index ? p.max_index->mutable_data<int64_t>() : nullptr;
    const std::string& type = p.pooltype;
    for (int64_t s = 0; s < seqs; ++s) {
      const int64_t begin = static_cast<int64_t>(level[s]), end = static_cast<int64_t>(level[s + 1]);
      const int64_t len = end - begin;
      float* dst = out + s * width;
      if (len == 0) {
        std::fill(dst, dst + width, p.pad_value);
        if (index) std::fill(index + s * width, index + (s + 1) * width, -1);
        continue;
      }
      if (type == "FIRST" || type == "LAST") {
        const int64_t row = type == "FIRST" ? begin : end - 1;
        std::memcpy(dst, x + row * width, sizeof(float) * width);
        continue;
      }
      if (type == "MAX") {
        for (int64_t k = 0; k < width; ++k) {
          float best = -std::numeric_limits<float>::infinity();
          int64_t arg = begin;
          for (int64_t r = begin; r < end; ++r) {
            if (x[r * width + k] > best) {
              best = x[r * width + k];
              arg = r;
            }
          }
          dst[k] = best;
          if (index) index[s * width + k] = arg - begin;
        }
        continue;
      }
      std::fill(dst, dst + width, 0.f);
      for (int64_t r = begin; r < end; ++r) {
        for (int64_t k = 0; k < width; ++k) dst[k] += x[r * width + k];
      }
      const float div = type == "AVERAGE" ? static_cast<float>(len)
                        : type == "SQRT"  ? std::sqrt(static_cast<float>(len))
                                          : 1.f;
      if (div != 1.f) {
        for (int64_t k = 0; k < width; ++k) dst[k] /= div;
      }
    }
    return Status::OK();
  }
};

}  // namespace

}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(lookup_table, kHost, kFloat, kNCHW, lite::kernels::host::LookupTableCompute, def)
    .BindInput("Ids", lite::Place(TARGET(kHost), PRECISION(kInt64)))
    .Finalize();
REGISTER_LITE_KERNEL(lookup_table_v2, kHost, kFloat, kNCHW, lite::kernels::host::LookupTableCompute,
                     def)
    .BindInput("Ids", lite::Place(TARGET(kHost), PRECISION(kInt64)))
    .Finalize();
REGISTER_LITE_KERNEL(sequence_conv, kHost, kFloat, kNCHW, lite::kernels::host::SequenceConvCompute,
                     def)
    .Finalize();
REGISTER_LITE_KERNEL(sequence_pool, kHost, kFloat, kNCHW, lite::kernels::host::SequencePoolCompute,
                     def)
    .BindOutput("MaxIndex", lite::Place(TARGET(kHost), PRECISION(kInt64)))
    .Finalize();
