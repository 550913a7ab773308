// The sample plugin's own copy of a model: what compile() keeps from the
// engine's lite_npu_model (which is valid only during the call), in plain
// C++ types private to this plugin. Nothing here crosses the ABI.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "lite/backends/npu/plugin/lite_npu_driver_abi.h"

namespace sample {

struct Attr {
  int32_t kind = LITE_NPU_ATTR_INT;
  int64_t i = 0;
  float f = 0.f;
  std::vector<int64_t> ints;
  std::vector<float> floats;
};

struct Op {
  int32_t type = 0;
  std::vector<int32_t> in, out;
  std::map<std::string, Attr> attrs;
  std::string origin;

  int64_t Int(const char* key, int64_t fallback) const;
  float Float(const char* key, float fallback) const;
  std::vector<int64_t> Ints(const char* key) const;
};

// A float32 tensor seen by the loops: data plus dims (row-major).
struct Tensor {
  float* data = nullptr;
  std::vector<int64_t> dims;
  int64_t numel() const;
};

// Runs one operation on its tensors; "" on success, else an error message.
std::string RunOp(const Op& op, const std::vector<Tensor>& in, const std::vector<Tensor>& out);

// "" when the sample driver implements `type`, else the reason it does not.
std::string Unsupported(int32_t type);

}  // namespace sample
