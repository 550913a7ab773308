// A byte encoding of the NN IR (nn_ir.h) and SHA-256 over bytes.
//
// EncodeModel writes a Model as deterministic bytes (little-endian, no
// padding; layout in docs/nb_format.md, "The NN IR encoding"): every
// operand (type, lifetime, dims, name, and its constant data, or with
// ConstantForm::kDigest the SHA-256 of that data instead), every operation
// (type, operand indices, attributes in name order, origin) and the model's
// inputs and outputs. The digest form is what compiled-subgraph keys hash;
// the full form is what the reference driver serializes. DecodeModel parses
// the full form, checking every length against the bytes left: corrupt
// input is an error, never a crash or a huge allocation. Pure functions,
// nothing owned.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lite/backends/npu/nn_ir.h"
#include "lite/utils/status.h"

namespace lite {
namespace npu {

enum class ConstantForm { kFull, kDigest };

std::vector<uint8_t> EncodeModel(const Model& model, ConstantForm form);
// Parses EncodeModel(model, kFull) bytes; the result is Validate()d.
StatusOr<Model> DecodeModel(const uint8_t* data, size_t size);

// SHA-256 (FIPS 180-4, via Debian's nettle) of `size` bytes: 64 lowercase
// hex digits.
std::string Sha256Hex(const void* data, size_t size);

}  // namespace npu
}  // namespace lite
