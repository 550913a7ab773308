// Fuzz target: the params / LoDTensor record reader (ReadTensorRecord over a
// ByteReader), read as a combined params file would be: records back to
// back until the bytes end or a record fails. Every record that reads is
// also checked against a fixed VarDesc (CheckTensorMatchesVar) and written
// back (WriteTensorRecord), which must read again to the same size.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "lite/base/tensor.h"
#include "lite/utils/byte_reader.h"
#include "lite/model_parser/persistable_params.h"
#include "lite/model_parser/tensor_io.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const bool limited = (lite::SetMaxTensorBytes(uint64_t{64} << 20), true);
  (void)limited;
  lite::cpp::VarDesc var;
  var.name = "w";
  var.dtype = lite::DataType::kFloat32;
  var.dims = {-1, 3};
  var.persistable = true;

  lite::ByteReader r(data, size);
  for (int i = 0; i < 64 && !r.AtEnd(); ++i) {
    lite::Tensor t;
    if (!lite::ReadTensorRecord(&r, "<fuzz params>", var.name, &t).ok()) break;
    (void)lite::CheckTensorMatchesVar(t, var, "<fuzz params>");
    if (!lite::CheckTensorWritable(t, var.name).ok()) continue;
    std::string out;
    lite::WriteTensorRecord(t, &out);
    lite::ByteReader again(out);
    lite::Tensor t2;
    if (!lite::ReadTensorRecord(&again, "<fuzz params, written again>", var.name, &t2).ok() ||
        !again.AtEnd()) {
      std::fprintf(stderr, "a record that read does not read again after writing\n");
      std::abort();
    }
  }
  return 0;
}
