// Paddle's LoDTensor record: how one weight tensor is laid out in a params
// file (one record per file for non-combined models, records back to back
// for combined ones). Little-endian:
//   u32 version (0)
//   u64 lod_level_count, then per level: u64 byte_size + byte_size bytes of
//       u64 offsets
//   u32 tensor_version (0)
//   i32 desc_size, then desc_size bytes of a serialized VarType.TensorDesc
//       (data_type + dims)
//   numel * sizeof(dtype) bytes of raw data
//
// Functions only: the ByteReader's buffer belongs to the caller, the tensor
// to the caller; data is copied once from the buffer into the tensor.
#pragma once

#include <string>

#include "lite/base/tensor.h"
#include "lite/utils/byte_reader.h"
#include "lite/utils/status.h"

namespace lite {

// Reads one record at r's position and advances past it. `file` and `var`
// name the source in error messages. Every size is checked against the
// bytes that remain before anything is allocated. Errors:
//   DataLoss         truncated anywhere (names what was being read), a
//                    negative or too large desc_size, a TensorDesc that does
//                    not parse, a lod level whose byte size is not a
//                    multiple of 8, data larger than what remains
//   InvalidArgument  version != 0, missing or unknown data_type (names the
//                    code), negative dim, element count overflowing int64
//   Unimplemented    an element type Paddle knows but lite does not (BF16,
//                    complex, SIZE_T: names the code)
// On error *out is left unchanged.
Status ReadTensorRecord(ByteReader* r, const std::string& file,
                        const std::string& var, Tensor* out);

// OK when `t` can be written as a record: known dtype, non-negative dims,
// and data present for numel > 0. The error (InvalidArgument) names `var`.
Status CheckTensorWritable(const Tensor& t, const std::string& var);

// Appends the record of `t` to *out. Precondition: CheckTensorWritable(t)
// is OK; otherwise nothing is appended.
void WriteTensorRecord(const Tensor& t, std::string* out);

}  // namespace lite
