#include "lite/api/saving.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "lite/core/program.h"
#include "lite/model_parser/file_util.h"
#include "lite/model_parser/model_saver.h"
#include "lite/model_parser/naive_buffer/naive_buffer.h"

namespace lite {

namespace {
Status CheckOptimized(const cpp::ProgramDesc& program, const std::string& path) {
  if (program.blocks.empty()) return InvalidArgument(path + ": the program has no blocks");
  const auto& ops = program.blocks[0].ops;
  for (size_t i = 0; i < ops.size(); ++i) {
    if (ops[i].GetAttr<std::string>(kKernelKeyAttr, "").empty()) {
      return FailedPrecondition(path + ": op #" + std::to_string(i) + " " + ops[i].Type() +
                                " carries no picked kernel (attr " + kKernelKeyAttr +
                                "); only optimized programs can be saved");
    }
  }
  return Status::OK();
}
}  // namespace

std::string NaiveBufferPath(const std::string& path) {
  const std::string ext = ".nb";
  if (path.size() >= ext.size() &&
      path.compare(path.size() - ext.size(), ext.size(), ext) == 0) {
    return path;
  }
  return path + ext;
}

Status SaveOptimized(const cpp::ProgramDesc& program, const Scope& scope,
                     const std::string& path, paddle::lite_api::ModelType type,
                     std::string* written) {
  if (path.empty()) return InvalidArgument("SaveOptimizedModel: empty output path");
  if (type == paddle::lite_api::ModelType::kProtobuf) {
    RETURN_IF_ERROR(CheckOptimized(program, path));
    if (::mkdir(path.c_str(), 0755) != 0 && errno != EEXIST) {
      return NotFound("cannot create directory '" + path + "': " + std::strerror(errno));
    }
    if (!IsDirectory(path)) {
      return InvalidArgument("'" + path + "' exists and is not a directory");
    }
    RETURN_IF_ERROR(
        SaveCombinedModel(program, scope, JoinPath(path, "__model__"), JoinPath(path, "__params__")));
    if (written) *written = path;
    return Status::OK();
  }
  const std::string file = NaiveBufferPath(path);
  RETURN_IF_ERROR(CheckOptimized(program, file));
  RETURN_IF_ERROR(naive_buffer::SaveToFile(program, scope, file));
  if (written) *written = file;
  return Status::OK();
}

}  // namespace lite
