// Fuzz target: the .nb loader (naive_buffer::LoadFromBuffer). The input is
// loaded as it is (mostly stopped by the framing or the checksum), then
// again with a corrected checksum so mutations reach the program and weight
// parsing behind it. Any bytes must give a Status, never a crash.
#include <cstddef>
#include <cstdint>
#include <string>

#include "lite/base/scope.h"
#include "lite/base/tensor.h"
#include "lite/model_parser/naive_buffer/naive_buffer.h"
#include "tests/fuzz/fuzz_util.h"

namespace {

void Load(const std::string& bytes) {
  lite::cpp::ProgramDesc program;
  lite::Scope scope;
  lite::naive_buffer::NbInfo info;
  (void)lite::naive_buffer::LoadFromBuffer(bytes, "<fuzz nb>", &program, &scope, &info);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const bool limited = (lite::SetMaxTensorBytes(uint64_t{64} << 20), true);
  (void)limited;
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  Load(bytes);
  Load(lite::fuzz::WithValidNbChecksum(bytes));
  return 0;
}
