// Mapping between lite::DataType and Paddle's VarType::Type element codes.
//
// Paddle numbers element types in the same enum as variable kinds
// (BOOL=0 INT16=1 INT32=2 INT64=3 FP16=4 FP32=5 FP64=6 UINT8=20 INT8=21;
// LOD_TENSOR=7 etc. are kinds, not element types). These free functions are
// the only place that knows the numbers; proto_convert and tensor_io use them.
// Pure functions over plain values: nothing is owned.
#pragma once

#include <string>

#include "lite/base/types.h"

namespace lite {

// Paddle VarType::Type code -> DataType. Codes with no lite equivalent
// (SIZE_T, BF16, COMPLEX64/128, kinds such as LOD_TENSOR, anything unknown)
// give DataType::kUnknown.
DataType DataTypeFromPaddle(int code);

// DataType -> Paddle code. Returns false (and leaves *code alone) for
// DataType::kUnknown.
bool DataTypeToPaddle(DataType type, int* code);

// "FP32(5)", "BF16(22)", "99" - for error messages.
std::string PaddleTypeCodeName(int code);

}  // namespace lite
