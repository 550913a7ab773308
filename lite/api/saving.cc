#include "lite/api/saving.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "lite/core/program.h"
#include "lite/utils/file_util.h"
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

namespace {
// Moves the files of a verified temporary output to their final names.
Status Publish(const std::string& from, const std::string& to) {
  if (std::rename(from.c_str(), to.c_str()) != 0) {
    return Internal("cannot rename '" + from + "' to '" + to + "': " + std::strerror(errno));
  }
  return Status::OK();
}

const char* const kProtobufFiles[] = {"__model__", "__params__"};

void RemoveProtobufDir(const std::string& dir) {
  for (const char* f : kProtobufFiles) std::remove(JoinPath(dir, f).c_str());
  ::rmdir(dir.c_str());
}

std::string TemporaryName(const std::string& path) {
  return path + ".tmp" + std::to_string(::getpid());
}
}  // namespace

Status SaveOptimizedVerified(const cpp::ProgramDesc& program, const Scope& scope,
                             const std::string& path, paddle::lite_api::ModelType type,
                             const VerifyWritten& verify, std::string* written,
                             const std::vector<DeviceRecord>& compiled) {
  if (path.empty()) return InvalidArgument("SaveOptimizedModel: empty output path");
  if (type == paddle::lite_api::ModelType::kProtobuf) {
    RETURN_IF_ERROR(CheckOptimized(program, path));
    const bool exists = IsDirectory(path);
    if (!exists && ::access(path.c_str(), F_OK) == 0) {
      return InvalidArgument("'" + path + "' exists and is not a directory");
    }
    const std::string tmp = TemporaryName(path);
    RemoveProtobufDir(tmp);
    if (::mkdir(tmp.c_str(), 0755) != 0) {
      return NotFound("cannot create directory '" + tmp + "': " + std::strerror(errno));
    }
    Status s = SaveCombinedModel(program, scope, JoinPath(tmp, "__model__"),
                                 JoinPath(tmp, "__params__"));
    if (s.ok() && verify) s = verify(tmp);
    if (s.ok() && !exists) s = Publish(tmp, path);
    for (const char* f : kProtobufFiles) {
      if (s.ok() && exists) s = Publish(JoinPath(tmp, f), JoinPath(path, f));
    }
    RemoveProtobufDir(tmp);
    RETURN_IF_ERROR(s);
    if (written) *written = path;
    return Status::OK();
  }
  const std::string file = NaiveBufferPath(path);
  RETURN_IF_ERROR(CheckOptimized(program, file));
  const std::string tmp = TemporaryName(file);
  Status s = naive_buffer::SaveToFile(program, scope, tmp, compiled);
  if (s.ok() && verify) s = verify(tmp);
  if (s.ok()) s = Publish(tmp, file);
  if (!s.ok()) std::remove(tmp.c_str());
  RETURN_IF_ERROR(s);
  if (written) *written = file;
  return Status::OK();
}

Status SaveOptimized(const cpp::ProgramDesc& program, const Scope& scope,
                     const std::string& path, paddle::lite_api::ModelType type,
                     std::string* written) {
  return SaveOptimizedVerified(program, scope, path, type, VerifyWritten(), written);
}

}  // namespace lite
