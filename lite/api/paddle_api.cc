#include "lite/api/paddle_api.h"

#include <cstdio>
#include <cstring>

#include "lite/base/version.h"
#include "lite/base/tensor.h"

namespace paddle {
namespace lite_api {

std::string GetVersion() { return lite::kEngineVersion; }

std::string MemoryStats::ToString() const {
  auto mb = [](int64_t bytes) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.1f MB", static_cast<double>(bytes) / (1024.0 * 1024.0));
    return std::string(buf);
  };
  std::string s = "arena " + mb(arena_bytes) + ", pool free " + mb(pool_free_bytes) +
                  ", pool peak " + mb(pool_peak_bytes) + ", npu executables " +
                  std::to_string(npu_cached_shapes) + " (evicted " +
                  std::to_string(npu_evictions) + ")";
  if (limit_bytes > 0) {
    s += ", limit " + mb(limit_bytes) + " (released " + std::to_string(budget_releases) +
         "x, refused " + std::to_string(budget_refusals) + "; last new shape: estimate " +
         mb(estimate_bytes) + ", planned activations " +
         (planned_activation_bytes < 0 ? std::string("unknown") : mb(planned_activation_bytes)) +
         ")";
  }
  if (!process_caches.empty()) s += ", " + process_caches;
  if (bucket_multiple > 0) {
    char buf[160];
    std::snprintf(buf, sizeof(buf),
                  ", buckets of %d: %lld runs, %.1f%% hits, %d shapes, %lld padded, %lld "
                  "checks",
                  bucket_multiple, static_cast<long long>(bucket_runs),
                  bucket_runs ? 100.0 * bucket_hits / bucket_runs : 0.0, bucket_shapes,
                  static_cast<long long>(bucket_padded_runs),
                  static_cast<long long>(bucket_check_runs));
    s += buf;
  }
  return s;
}

void Tensor::Resize(const shape_t& shape) { raw_->Resize(shape); }
shape_t Tensor::shape() const { return raw_->dims(); }
int64_t Tensor::numel() const { return raw_->numel(); }
DataType Tensor::dtype() const { return raw_->dtype(); }
lod_t Tensor::lod() const { return raw_->lod(); }
void Tensor::SetLoD(const lod_t& lod) { raw_->set_lod(lod); }

template <typename T>
T* Tensor::mutable_data() {
  // Leave a caller's shared buffer alone: back to predictor-owned memory.
  if (raw_->external_memory()) raw_->FreeMemory();
  return raw_->mutable_data<T>();
}

template <typename T>
const T* Tensor::data() const {
  if (!raw_->IsInitialized() || raw_->dtype() != lite::DataTypeOf<T>()) return nullptr;
  return raw_->data<T>();
}

template <typename T>
void Tensor::CopyFromCpu(const T* src) {
  T* dst = mutable_data<T>();
  if (raw_->numel() > 0) std::memcpy(dst, src, raw_->numel() * sizeof(T));
}

template <typename T>
void Tensor::CopyToCpu(T* dst) const {
  const T* src = data<T>();
  if (src && raw_->numel() > 0) std::memcpy(dst, src, raw_->numel() * sizeof(T));
}

template <typename T>
Status Tensor::CopyFromCpu(const T* src, int64_t count) {
  const int64_t n = raw_->numel();
  if (n < 0) return lite::InvalidArgument("CopyFromCpu: the tensor's shape " +
                                          lite::DimsToString(raw_->dims()) + " is negative");
  if (count < n) {
    return lite::InvalidArgument("CopyFromCpu: the source holds " + std::to_string(count) +
                                 " elements but the shape " + lite::DimsToString(raw_->dims()) +
                                 " needs " + std::to_string(n));
  }
  if (n > 0 && src == nullptr) return lite::InvalidArgument("CopyFromCpu: source is null");
  CopyFromCpu(src);
  return Status::OK();
}

template <typename T>
Status Tensor::CopyToCpu(T* dst, int64_t capacity) const {
  const T* src = data<T>();
  if (!src) {
    return lite::InvalidArgument(std::string("CopyToCpu: the tensor holds no ") +
                                 lite::DataTypeName(lite::DataTypeOf<T>()) + " data");
  }
  const int64_t n = raw_->numel();
  if (capacity < n) {
    return lite::InvalidArgument("CopyToCpu: the destination holds " + std::to_string(capacity) +
                                 " elements but the tensor has " + std::to_string(n));
  }
  if (n > 0 && dst == nullptr) return lite::InvalidArgument("CopyToCpu: destination is null");
  CopyToCpu(dst);
  return Status::OK();
}

template <typename T>
Status Tensor::ShareExternalData(T* data, int64_t count) {
  if (count < 0 || (count > 0 && data == nullptr)) {
    return lite::InvalidArgument("ShareExternalData: null data or negative count " +
                                 std::to_string(count));
  }
  raw_->ShareExternalMemory(data, static_cast<size_t>(count) * sizeof(T), lite::DataTypeOf<T>());
  return Status::OK();
}

#define LITE_API_TENSOR_TYPE(T)                      \
  template Status Tensor::ShareExternalData<T>(T*, int64_t); \
  template Status Tensor::CopyFromCpu<T>(const T*, int64_t); \
  template Status Tensor::CopyToCpu<T>(T*, int64_t) const; \
  template T* Tensor::mutable_data<T>();             \
  template const T* Tensor::data<T>() const;         \
  template void Tensor::CopyFromCpu<T>(const T*);    \
  template void Tensor::CopyToCpu<T>(T*) const;

LITE_API_TENSOR_TYPE(float)
LITE_API_TENSOR_TYPE(double)
LITE_API_TENSOR_TYPE(int8_t)
LITE_API_TENSOR_TYPE(uint8_t)
LITE_API_TENSOR_TYPE(int32_t)
LITE_API_TENSOR_TYPE(int64_t)
LITE_API_TENSOR_TYPE(bool)
#undef LITE_API_TENSOR_TYPE

}  // namespace lite_api
}  // namespace paddle
