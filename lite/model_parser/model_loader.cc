#include "lite/model_parser/model_loader.h"

#include <set>
#include <utility>
#include <vector>

#include "lite/utils/byte_reader.h"
#include "lite/utils/file_util.h"
#include "lite/model_parser/framework.pb.h"
#include "lite/model_parser/persistable_params.h"
#include "lite/model_parser/pir/pir_json.h"
#include "lite/model_parser/pir/pir_loader.h"
#include "lite/model_parser/proto_convert.h"
#include "lite/model_parser/tensor_io.h"

namespace lite {

namespace {

const char kModelBufferName[] = "<model buffer>";
const char kParamsBufferName[] = "<params buffer>";

// Non-combined program file names, in order of preference.
const char* const kNonCombinedNames[] = {"__model__", "model", "model.pdmodel"};

using LoadedParams = std::vector<std::pair<std::string, Tensor>>;

Status CheckOutputs(const cpp::ProgramDesc* program, const Scope* scope) {
  if (program == nullptr || scope == nullptr) {
    return InvalidArgument("model loading needs a non-null program and scope");
  }
  return Status::OK();
}

// Moves everything into the caller's program and scope (only after the
// whole model has loaded).
void Commit(cpp::ProgramDesc prog, LoadedParams* params, cpp::ProgramDesc* program,
            Scope* scope) {
  for (auto& p : *params) {
    Tensor* dst = scope->Var(p.first)->GetMutableTensor();
    *dst = std::move(p.second);
    dst->set_persistable(true);
  }
  *program = std::move(prog);
}

// Reads one record of `var` from `r` and checks it against the VarDesc.
Status ReadParam(ByteReader* r, const std::string& file, const cpp::VarDesc& var,
                 LoadedParams* out) {
  Tensor t;
  RETURN_IF_ERROR(ReadTensorRecord(r, file, var.name, &t));
  RETURN_IF_ERROR(CheckTensorMatchesVar(t, var, file));
  out->emplace_back(var.name, std::move(t));
  return Status::OK();
}

Status LoadCombinedParams(const cpp::ProgramDesc& prog, const std::string& params,
                          const std::string& params_name, LoadedParams* out) {
  std::vector<const cpp::VarDesc*> vars;
  RETURN_IF_ERROR(ListParamVars(prog, params_name, &vars));
  ByteReader r(params);
  for (const cpp::VarDesc* v : vars) RETURN_IF_ERROR(ReadParam(&r, params_name, *v, out));
  if (!r.AtEnd()) {
    std::string after = vars.empty() ? std::string("but the program has no parameters")
                                     : "after the last tensor (var '" + vars.back()->name + "')";
    return DataLoss(params_name + ": " + std::to_string(r.remaining()) +
                    " trailing bytes " + after);
  }
  return Status::OK();
}

Status LoadNonCombinedParams(const cpp::ProgramDesc& prog, const std::string& dir,
                             LoadedParams* out) {
  std::vector<const cpp::VarDesc*> vars;
  RETURN_IF_ERROR(ListParamVars(prog, dir, &vars));
  std::string bytes;
  for (const cpp::VarDesc* v : vars) {
    const std::string path = JoinPath(dir, v->name);
    Status s = ReadFileToString(path, &bytes);
    if (!s.ok()) {
      return Status(s.code(), s.message() + " (parameter file of var '" + v->name + "')");
    }
    ByteReader r(bytes);
    RETURN_IF_ERROR(ReadParam(&r, path, *v, out));
    if (!r.AtEnd()) {
      return DataLoss(path + ": var '" + v->name + "': " +
                      std::to_string(r.remaining()) +
                      " trailing bytes after the tensor record");
    }
  }
  return Status::OK();
}

Status LoadNonCombinedFrom(const std::string& model_file, const std::string& dir,
                           cpp::ProgramDesc* program, Scope* scope) {
  RETURN_IF_ERROR(CheckOutputs(program, scope));
  ASSIGN_OR_RETURN(cpp::ProgramDesc prog, LoadProgramFromFile(model_file));
  LoadedParams params;
  RETURN_IF_ERROR(LoadNonCombinedParams(prog, dir, &params));
  Commit(std::move(prog), &params, program, scope);
  return Status::OK();
}

Status LoadCombinedImpl(const std::string& model_bytes, const std::string& model_name,
                        const std::string& params_bytes, const std::string& params_name,
                        cpp::ProgramDesc* program, Scope* scope) {
  RETURN_IF_ERROR(CheckOutputs(program, scope));
  // The format is told by the content: a Paddle 3 PIR program is JSON.
  if (pir::LooksLikePirJson(model_bytes)) {
    return pir::LoadPirModel(model_bytes, model_name, params_bytes, params_name, program,
                             scope);
  }
  ASSIGN_OR_RETURN(cpp::ProgramDesc prog, LoadProgramFromBuffer(model_bytes, model_name));
  LoadedParams params;
  RETURN_IF_ERROR(LoadCombinedParams(prog, params_bytes, params_name, &params));
  Commit(std::move(prog), &params, program, scope);
  return Status::OK();
}

}  // namespace

StatusOr<cpp::ProgramDesc> LoadProgramFromBuffer(const std::string& bytes,
                                                 const std::string& name_for_errors) {
  paddle::framework::proto::ProgramDesc pb;
  if (!pb.ParsePartialFromString(bytes)) {
    return InvalidArgument(name_for_errors +
                           ": not a Paddle ProgramDesc (protobuf parsing of " +
                           std::to_string(bytes.size()) + " bytes failed)");
  }
  cpp::ProgramDesc prog;
  Status s = ProgramFromProto(pb, &prog);
  if (!s.ok()) return s.WithContext(name_for_errors);
  return prog;
}

StatusOr<cpp::ProgramDesc> LoadProgramFromFile(const std::string& path) {
  std::string bytes;
  RETURN_IF_ERROR(ReadFileToString(path, &bytes));
  return LoadProgramFromBuffer(bytes, path);
}

Status LoadNonCombinedModel(const std::string& dir, cpp::ProgramDesc* program,
                            Scope* scope) {
  if (!IsDirectory(dir)) {
    return NotFound("model directory '" + dir + "' does not exist or is not a directory");
  }
  for (const char* name : kNonCombinedNames) {
    const std::string path = JoinPath(dir, name);
    if (IsRegularFile(path)) return LoadNonCombinedFrom(path, dir, program, scope);
  }
  return NotFound(dir + ": no program file (looked for __model__, model, model.pdmodel)");
}

Status LoadCombinedModel(const std::string& model_file, const std::string& params_file,
                         cpp::ProgramDesc* program, Scope* scope) {
  std::string model_bytes, params_bytes;
  RETURN_IF_ERROR(ReadFileToString(model_file, &model_bytes));
  RETURN_IF_ERROR(ReadFileToString(params_file, &params_bytes));
  return LoadCombinedImpl(model_bytes, model_file, params_bytes, params_file, program,
                          scope);
}

Status LoadCombinedModelFromBuffers(const std::string& model_bytes,
                                    const std::string& params_bytes,
                                    cpp::ProgramDesc* program, Scope* scope) {
  return LoadCombinedImpl(model_bytes, kModelBufferName, params_bytes, kParamsBufferName,
                          program, scope);
}

StatusOr<ModelFiles> FindModelFiles(const std::string& dir) {
  std::vector<std::string> names;
  RETURN_IF_ERROR(ListDirectory(dir, &names));
  std::set<std::string> files;
  for (const auto& n : names) {
    if (IsRegularFile(JoinPath(dir, n))) files.insert(n);
  }
  auto combined = [&](const std::string& model, const std::string& params) {
    ModelFiles f;
    f.combined = true;
    f.model_file = JoinPath(dir, model);
    f.params_file = JoinPath(dir, params);
    return f;
  };
  if (files.count("__model__") && files.count("__params__")) {
    return combined("__model__", "__params__");
  }
  if (files.count("model") && files.count("params")) return combined("model", "params");

  // <stem>.pdmodel, or from Paddle 3 <stem>.json (PIR), next to
  // <stem>.pdiparams; a .pdmodel wins over a .json of the same stem.
  std::vector<std::string> programs;
  for (const auto& n : files) {
    const size_t dot = n.rfind('.');
    if (dot == std::string::npos || !files.count(n.substr(0, dot) + ".pdiparams")) continue;
    const std::string stem = n.substr(0, dot), ext = n.substr(dot);
    if (ext == ".pdmodel" || (ext == ".json" && !files.count(stem + ".pdmodel"))) {
      programs.push_back(n);
    }
  }
  auto params_of = [](const std::string& program) {
    return program.substr(0, program.rfind('.')) + ".pdiparams";
  };
  if (programs.size() == 1) return combined(programs[0], params_of(programs[0]));
  if (programs.size() > 1) {
    for (const auto& p : programs) {
      if (params_of(p) == "inference.pdiparams") return combined(p, "inference.pdiparams");
    }
    std::string list;
    for (const auto& p : programs) list += (list.empty() ? "" : ", ") + p;
    return InvalidArgument(dir + ": several combined models (" + list +
                           "); name the model_file and params_file explicitly");
  }

  for (const char* name : kNonCombinedNames) {
    if (files.count(name)) {
      ModelFiles f;
      f.model_file = JoinPath(dir, name);
      f.params_dir = dir;
      return f;
    }
  }
  return NotFound(dir +
                  ": no Paddle model found (looked for __model__ + __params__, "
                  "model + params, *.pdmodel or *.json + *.pdiparams, __model__, model, "
                  "model.pdmodel)");
}

Status LoadModel(const ModelSource& src, cpp::ProgramDesc* program, Scope* scope) {
  const bool buffers = !src.model_buffer.empty() || !src.params_buffer.empty();
  const bool paths =
      !src.model_dir.empty() || !src.model_file.empty() || !src.params_file.empty();
  if (buffers && paths) {
    return InvalidArgument("ModelSource: give either buffers or paths, not both");
  }
  if (buffers) {
    if (src.model_buffer.empty()) {
      return InvalidArgument("ModelSource: params_buffer given without model_buffer");
    }
    return LoadCombinedModelFromBuffers(src.model_buffer, src.params_buffer, program,
                                        scope);
  }
  if (!src.model_file.empty()) {
    if (!src.params_file.empty()) {
      return LoadCombinedModel(src.model_file, src.params_file, program, scope);
    }
    if (!src.model_dir.empty()) {
      return LoadNonCombinedFrom(src.model_file, src.model_dir, program, scope);
    }
    return InvalidArgument("ModelSource: model_file '" + src.model_file +
                           "' needs a params_file (combined) or a model_dir "
                           "(one file per parameter)");
  }
  if (!src.params_file.empty()) {
    return InvalidArgument("ModelSource: params_file '" + src.params_file +
                           "' given without model_file");
  }
  if (!src.model_dir.empty()) {
    ASSIGN_OR_RETURN(ModelFiles files, FindModelFiles(src.model_dir));
    if (files.combined) {
      return LoadCombinedModel(files.model_file, files.params_file, program, scope);
    }
    return LoadNonCombinedFrom(files.model_file, files.params_dir, program, scope);
  }
  return InvalidArgument("ModelSource is empty: set a model_dir, files or buffers");
}

}  // namespace lite
