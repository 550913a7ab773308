#include "lite/model_parser/pir/pir_loader.h"

#include <utility>
#include <vector>

#include "lite/utils/byte_reader.h"
#include "lite/model_parser/persistable_params.h"
#include "lite/model_parser/pir/pir_json.h"
#include "lite/model_parser/tensor_io.h"

namespace lite {
namespace pir {

StatusOr<TranslatedModel> ReadPirModel(const std::string& json_bytes,
                                       const std::string& json_name) {
  ASSIGN_OR_RETURN(Program program, ParsePirJson(json_bytes, json_name));
  return Translate(program, json_name);
}

Status LoadPirModel(const std::string& json_bytes, const std::string& json_name,
                    const std::string& params_bytes, const std::string& params_name,
                    cpp::ProgramDesc* program, Scope* scope) {
  if (program == nullptr || scope == nullptr) {
    return InvalidArgument("model loading needs a non-null program and scope");
  }
  ASSIGN_OR_RETURN(TranslatedModel model, ReadPirModel(json_bytes, json_name));
  const cpp::BlockDesc& block = model.program.blocks[0];
  std::vector<std::pair<std::string, Tensor>> params;
  ByteReader r(params_bytes);
  for (const std::string& name : model.parameter_names) {
    const cpp::VarDesc* var = block.FindVar(name);
    if (var == nullptr) return Internal(json_name + ": parameter '" + name + "' has no var");
    if (r.AtEnd()) {
      return DataLoss(params_name + ": ends before parameter '" + name + "' (" +
                      std::to_string(params.size()) + " of " +
                      std::to_string(model.parameter_names.size()) +
                      " parameters read; records are in sorted name order)");
    }
    Tensor t;
    RETURN_IF_ERROR(ReadTensorRecord(&r, params_name, name, &t));
    RETURN_IF_ERROR(CheckTensorMatchesVar(t, *var, params_name));
    params.emplace_back(name, std::move(t));
  }
  if (!r.AtEnd()) {
    return DataLoss(params_name + ": " + std::to_string(r.remaining()) +
                    " trailing bytes after the last of " +
                    std::to_string(model.parameter_names.size()) + " parameters" +
                    (params.empty() ? "" : " ('" + params.back().first + "')"));
  }
  for (auto* list : {&params, &model.constants}) {
    for (auto& p : *list) {
      Tensor* dst = scope->Var(p.first)->GetMutableTensor();
      *dst = std::move(p.second);
      dst->set_persistable(true);
    }
  }
  *program = std::move(model.program);
  return Status::OK();
}

}  // namespace pir
}  // namespace lite
