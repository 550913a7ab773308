// NN IR -> C99 for the ccodegen driver (ccodegen_driver.h).
//
// GenerateC turns a complete Model (dims known, constants with data) into
// one self-contained translation unit: the text of ccodegen_kernels.h
// followed by an entry function that calls those kernels in execution
// order with every shape as a literal. Constants are not in the source: they
// are packed into a weight blob (each one at a 64-byte aligned offset) that
// the caller passes at run time; temporaries live in one scratch arena the
// caller allocates. The unit exports exactly:
//
//   int lite_ccg_run(const float* const* inputs, float* const* outputs,
//                    const float* weights, float* scratch);
//   const char lite_ccg_fingerprint[];        // ModelFingerprint(model)
//   const long long lite_ccg_scratch_floats;  // size of the arena
//
// Everything here is a pure function of the model: the same model gives the
// same source, blob and fingerprint. CcodegenSupports is the driver's support
// rule, applied by Supports (check mode) and again by GenerateC.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lite/backends/npu/nn_ir.h"
#include "lite/utils/status.h"

namespace lite {
namespace npu {

// The driver's version: part of the fingerprint and of every saved
// executable's key. Bump it when the generated code or the bytes Serialize
// writes (ccodegen_driver.h) change.
constexpr const char kCcodegenVersion[] = "1";

// The text of ccodegen_kernels.h (embedded at build time by a genrule).
extern const char kCcodegenKernels[];

constexpr const char kCcgRunSymbol[] = "lite_ccg_run";
constexpr const char kCcgFingerprintSymbol[] = "lite_ccg_fingerprint";
constexpr const char kCcgScratchSymbol[] = "lite_ccg_scratch_floats";
using CcgRunFn = int (*)(const float* const*, float* const*, const float*, float*);

struct GeneratedModel {
  std::string source;          // the whole translation unit
  std::vector<float> weights;  // the weight blob
  std::string fingerprint;     // ModelFingerprint(model)
  int64_t scratch_floats = 0;
};

// OK or the reason the operation cannot be generated. Dims may hold -1.
Status CcodegenSupports(const Model& model, const Operation& operation);

StatusOr<GeneratedModel> GenerateC(const Model& model);

// Every constant's data, packed at 64-byte aligned offsets in operand order.
std::vector<float> PackWeights(const Model& model);

// 16 hex digits over the driver version, every operand (type, dims,
// lifetime, constant bytes) and operation (type, operands, attributes).
std::string ModelFingerprint(const Model& model);

// 64-bit FNV-1a of `size` bytes, continuing from `hash`.
uint64_t Fnv1a64(const void* data, size_t size, uint64_t hash = 14695981039346656037ull);

}  // namespace npu
}  // namespace lite
