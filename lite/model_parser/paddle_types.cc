#include "lite/model_parser/paddle_types.h"

namespace lite {

namespace {
// Paddle VarType::Type numbers (framework.proto).
enum PaddleCode : int {
  kBool = 0, kInt16 = 1, kInt32 = 2, kInt64 = 3, kFp16 = 4, kFp32 = 5,
  kFp64 = 6, kSizeT = 19, kUInt8 = 20, kInt8 = 21, kBf16 = 22,
  kComplex64 = 23, kComplex128 = 24,
};
}  // namespace

DataType DataTypeFromPaddle(int code) {
  switch (code) {
    case kBool: return DataType::kBool;
    case kInt16: return DataType::kInt16;
    case kInt32: return DataType::kInt32;
    case kInt64: return DataType::kInt64;
    case kFp16: return DataType::kFloat16;
    case kFp32: return DataType::kFloat32;
    case kFp64: return DataType::kFloat64;
    case kUInt8: return DataType::kUInt8;
    case kInt8: return DataType::kInt8;
    default: return DataType::kUnknown;
  }
}

bool DataTypeToPaddle(DataType type, int* code) {
  int c = -1;
  switch (type) {
    case DataType::kBool: c = kBool; break;
    case DataType::kInt16: c = kInt16; break;
    case DataType::kInt32: c = kInt32; break;
    case DataType::kInt64: c = kInt64; break;
    case DataType::kFloat16: c = kFp16; break;
    case DataType::kFloat32: c = kFp32; break;
    case DataType::kFloat64: c = kFp64; break;
    case DataType::kUInt8: c = kUInt8; break;
    case DataType::kInt8: c = kInt8; break;
    case DataType::kUnknown: return false;
  }
  if (c < 0) return false;
  *code = c;
  return true;
}

std::string PaddleTypeCodeName(int code) {
  const char* name = nullptr;
  switch (code) {
    case kBool: name = "BOOL"; break;
    case kInt16: name = "INT16"; break;
    case kInt32: name = "INT32"; break;
    case kInt64: name = "INT64"; break;
    case kFp16: name = "FP16"; break;
    case kFp32: name = "FP32"; break;
    case kFp64: name = "FP64"; break;
    case kSizeT: name = "SIZE_T"; break;
    case kUInt8: name = "UINT8"; break;
    case kInt8: name = "INT8"; break;
    case kBf16: name = "BF16"; break;
    case kComplex64: name = "COMPLEX64"; break;
    case kComplex128: name = "COMPLEX128"; break;
    default: break;
  }
  std::string num = std::to_string(code);
  return name ? std::string(name) + "(" + num + ")" : num;
}

}  // namespace lite
