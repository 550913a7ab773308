// Loading a Paddle 3 model: `inference.json` (PIR program, pir_json.h) +
// `inference.pdiparams` (the legacy combined tensor stream holding the
// builtin.parameter tensors in sorted-name order). The result is the same
// as any legacy model load: a cpp::ProgramDesc and the weights in a Scope,
// so everything downstream is format-blind.
//
// Same contract as model_loader.h: on success the program is replaced and
// every weight (and every constant the translation materialized) is placed
// in the scope, persistable; on failure both are untouched. Errors name the
// JSON / params file and the op id or parameter.
#pragma once

#include <string>

#include "lite/base/scope.h"
#include "lite/model_parser/pir/pir_translator.h"
#include "lite/base/program_desc.h"
#include "lite/utils/status.h"

namespace lite {
namespace pir {

// Parse + translate, without weights (tools that only list ops).
StatusOr<TranslatedModel> ReadPirModel(const std::string& json_bytes,
                                       const std::string& json_name);

Status LoadPirModel(const std::string& json_bytes, const std::string& json_name,
                    const std::string& params_bytes, const std::string& params_name,
                    cpp::ProgramDesc* program, Scope* scope);

}  // namespace pir
}  // namespace lite
