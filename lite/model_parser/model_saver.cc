#include "lite/model_parser/model_saver.h"

#include <vector>

#include "lite/utils/file_util.h"
#include "lite/model_parser/framework.pb.h"
#include "lite/model_parser/persistable_params.h"
#include "lite/model_parser/proto_convert.h"
#include "lite/model_parser/tensor_io.h"

namespace lite {

namespace {

Status SaveImpl(const cpp::ProgramDesc& program, const Scope& scope,
                const std::string& params_name, std::string* model,
                std::string* params) {
  std::vector<const cpp::VarDesc*> vars;
  RETURN_IF_ERROR(ListParamVars(program, params_name, &vars));
  std::string params_bytes;
  for (const cpp::VarDesc* v : vars) {
    const Variable* var = scope.FindVar(v->name);
    if (var == nullptr) {
      return NotFound(params_name + ": persistable var '" + v->name +
                      "' has no variable in the scope");
    }
    const Tensor& t = var->GetTensor();
    Status s = CheckTensorWritable(t, v->name);
    if (!s.ok()) return s.WithContext(params_name);
    RETURN_IF_ERROR(CheckTensorMatchesVar(t, *v, params_name));
    WriteTensorRecord(t, &params_bytes);
  }
  paddle::framework::proto::ProgramDesc pb;
  ProgramToProto(program, &pb);
  *model = SerializeDeterministic(pb);
  *params = std::move(params_bytes);
  return Status::OK();
}

}  // namespace

Status SaveCombinedModelToBuffers(const cpp::ProgramDesc& program, const Scope& scope,
                                  std::string* model, std::string* params) {
  if (model == nullptr || params == nullptr) {
    return InvalidArgument("SaveCombinedModelToBuffers needs non-null outputs");
  }
  return SaveImpl(program, scope, "<params buffer>", model, params);
}

Status SaveCombinedModel(const cpp::ProgramDesc& program, const Scope& scope,
                         const std::string& model_file, const std::string& params_file) {
  std::string model, params;
  RETURN_IF_ERROR(SaveImpl(program, scope, params_file, &model, &params));
  RETURN_IF_ERROR(WriteStringToFile(model_file, model));
  return WriteStringToFile(params_file, params);
}

}  // namespace lite
