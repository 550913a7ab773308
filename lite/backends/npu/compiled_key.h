// The key of a compiled subgraph (docs/nb_format.md, "The key"): SHA-256
// over everything the compiled bytes depend on - the subgraph's NN IR with
// a digest of every constant's bytes, its input dims, the driver's name and
// version, the driver API version, the engine version and the CPU features
// the code was built for. The subgraph kernel uses a saved executable only
// when its key equals the key computed now; otherwise FirstDifference names
// the ingredient that changed for the one line it prints. Pure functions.
#pragma once

#include <string>
#include <vector>

#include "lite/backends/npu/driver.h"
#include "lite/backends/npu/compiled_subgraph.h"

namespace lite {
namespace npu {

struct KeyIngredients {
  std::string model_digest;  // Sha256Hex(EncodeModel(model, kDigest))
  std::string input_dims;    // "1x3x32x32;1x8", model inputs in order
  std::string driver;
  std::string driver_version;
  std::string driver_api;  // "<major>.<minor>" of the driver
  std::string engine_version;
  std::string cpu_features;
};

// The ingredients for compiling `model` with `driver` in this engine.
KeyIngredients IngredientsOf(const Model& model, const Driver& driver);
// SHA-256 hex over the ingredients, each length-prefixed.
std::string KeyOf(const KeyIngredients& ingredients);
// An entry holding `blob` under KeyOf(ingredients), its digest filled in.
CompiledSubgraph MakeCompiledEntry(int32_t subgraph_id, const KeyIngredients& ingredients,
                                   std::vector<uint8_t> blob);
// Why `saved` does not match `now`: the first differing ingredient, e.g.
// "driver version is 2 (saved for 1)", or "" when all are equal.
std::string FirstDifference(const CompiledSubgraph& saved, const KeyIngredients& now);
// OK when the entry's key is KeyOf(now) and its blob matches blob_sha256;
// otherwise a FailedPrecondition / DataLoss saying which.
Status CheckCompiledEntry(const CompiledSubgraph& entry, const KeyIngredients& now);

}  // namespace npu
}  // namespace lite
