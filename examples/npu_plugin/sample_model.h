// The sample plugin's own copy of a model: what compile() keeps from the
// engine's lite_npu_model (which is valid only during the call), in plain
// C++ types private to this plugin. Nothing here crosses the ABI.
#pragma once

#include <cstddef>
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

// What compile() builds: the model in the plugin's types, with storage for
// constants and temporaries (by operand index).
struct ExecutableData {
  std::vector<int32_t> types, lifetimes;
  std::vector<std::vector<int64_t>> dims;
  std::vector<std::vector<float>> storage;
  std::vector<Op> ops;
  std::vector<int32_t> inputs, outputs;
};

// Serialized executables (ABI 1.1): the executable's own fields as bytes
// (sample_serialize.cc). Deserialize accepts bytes only when they hold
// exactly `model` (operands, constants, operations): "" on success, else
// the reason.
std::vector<uint8_t> SerializeExecutable(const ExecutableData& exe);
std::string DeserializeExecutable(const uint8_t* bytes, size_t size, const lite_npu_model* model,
                                  ExecutableData* exe);

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
