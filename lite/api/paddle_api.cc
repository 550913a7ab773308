#include "lite/api/paddle_api.h"

#include <cstring>

#include "lite/api/version.h"
#include "lite/core/tensor.h"

namespace paddle {
namespace lite_api {

std::string GetVersion() { return lite::kEngineVersion; }

void Tensor::Resize(const shape_t& shape) { raw_->Resize(shape); }
shape_t Tensor::shape() const { return raw_->dims(); }
int64_t Tensor::numel() const { return raw_->numel(); }
DataType Tensor::dtype() const { return raw_->dtype(); }
lod_t Tensor::lod() const { return raw_->lod(); }
void Tensor::SetLoD(const lod_t& lod) { raw_->set_lod(lod); }

template <typename T>
T* Tensor::mutable_data() {
  return raw_->mutable_data<T>();
}

template <typename T>
const T* Tensor::data() const {
  if (!raw_->IsInitialized() || raw_->dtype() != lite::DataTypeOf<T>()) return nullptr;
  return raw_->data<T>();
}

template <typename T>
void Tensor::CopyFromCpu(const T* src) {
  T* dst = raw_->mutable_data<T>();
  if (raw_->numel() > 0) std::memcpy(dst, src, raw_->numel() * sizeof(T));
}

template <typename T>
void Tensor::CopyToCpu(T* dst) const {
  const T* src = data<T>();
  if (src && raw_->numel() > 0) std::memcpy(dst, src, raw_->numel() * sizeof(T));
}

#define LITE_API_TENSOR_TYPE(T)                      \
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
