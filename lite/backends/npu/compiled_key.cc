#include "lite/backends/npu/compiled_key.h"

#include "lite/backends/npu/nn_ir_codec.h"
#include "lite/base/version.h"

namespace lite {
namespace npu {

namespace {
struct Field {
  const char* name;
  std::string KeyIngredients::*now;
  std::string CompiledSubgraph::*saved;
};

// Key order, and the order FirstDifference reports in (the NN IR last: it
// includes the input dims, which have their own clearer message).
const Field kFields[] = {
    {"driver", &KeyIngredients::driver, &CompiledSubgraph::driver},
    {"driver version", &KeyIngredients::driver_version, &CompiledSubgraph::driver_version},
    {"driver API version", &KeyIngredients::driver_api, &CompiledSubgraph::driver_api},
    {"engine version", &KeyIngredients::engine_version, &CompiledSubgraph::engine_version},
    {"CPU features", &KeyIngredients::cpu_features, &CompiledSubgraph::cpu_features},
    {"input dims", &KeyIngredients::input_dims, &CompiledSubgraph::input_dims},
    {"subgraph NN IR digest (ops, attributes or weights changed)",
     &KeyIngredients::model_digest, &CompiledSubgraph::model_digest},
};
}  // namespace

KeyIngredients IngredientsOf(const Model& model, const Driver& driver) {
  KeyIngredients k;
  const std::vector<uint8_t> ir = EncodeModel(model, ConstantForm::kDigest);
  k.model_digest = Sha256Hex(ir.data(), ir.size());
  for (size_t i = 0; i < model.inputs.size(); ++i) {
    if (i) k.input_dims += ";";
    const auto& dims = model.operands[model.inputs[i]].dims;
    for (size_t d = 0; d < dims.size(); ++d) {
      k.input_dims += (d ? "x" : "") + std::to_string(dims[d]);
    }
  }
  k.driver = driver.name();
  k.driver_version = driver.version();
  k.driver_api = std::to_string(driver.api_major()) + "." + std::to_string(driver.api_minor());
  k.engine_version = kEngineVersion;
  k.cpu_features = driver.cpu_features();
  return k;
}

std::string KeyOf(const KeyIngredients& k) {
  std::string text = "lite npu compiled subgraph key 1\n";
  for (const Field& f : kFields) {
    const std::string& v = k.*(f.now);
    text += std::string(f.name) + "=" + std::to_string(v.size()) + ":" + v + "\n";
  }
  return Sha256Hex(text.data(), text.size());
}

CompiledSubgraph MakeCompiledEntry(int32_t subgraph_id, const KeyIngredients& k,
                                   std::vector<uint8_t> blob) {
  CompiledSubgraph e;
  e.subgraph_id = subgraph_id;
  e.key = KeyOf(k);
  for (const Field& f : kFields) e.*(f.saved) = k.*(f.now);
  e.blob_sha256 = Sha256Hex(blob.data(), blob.size());
  e.blob = std::move(blob);
  return e;
}

std::string FirstDifference(const CompiledSubgraph& saved, const KeyIngredients& now) {
  for (const Field& f : kFields) {
    if (saved.*(f.saved) != now.*(f.now)) {
      return std::string(f.name) + " is '" + now.*(f.now) + "' (saved for '" +
             saved.*(f.saved) + "')";
    }
  }
  return "";
}

Status CheckCompiledEntry(const CompiledSubgraph& entry, const KeyIngredients& now) {
  if (entry.key != KeyOf(now)) {
    std::string why = FirstDifference(entry, now);
    return FailedPrecondition("key mismatch: " +
                              (why.empty() ? "the saved key does not match its ingredients" : why));
  }
  if (Sha256Hex(entry.blob.data(), entry.blob.size()) != entry.blob_sha256) {
    return DataLoss("compiled bytes are corrupt (SHA-256 of the " +
                    std::to_string(entry.blob.size()) + " bytes does not match)");
  }
  return Status::OK();
}

}  // namespace npu
}  // namespace lite
