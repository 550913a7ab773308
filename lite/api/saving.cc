#include "lite/api/saving.h"

#include <sys/stat.h>

#include "lite/model_parser/model_saver.h"

namespace lite {

Status SaveOptimized(const cpp::ProgramDesc& program, const Scope& scope,
                     const std::string& path, paddle::lite_api::ModelType type) {
  if (type == paddle::lite_api::ModelType::kProtobuf) {
    if (::mkdir(path.c_str(), 0755) != 0 && errno != EEXIST) {
      return NotFound("cannot create directory " + path);
    }
    return SaveCombinedModel(program, scope, path + "/__model__", path + "/__params__");
  }
  return Unimplemented("naive_buffer format is not available yet (" + path + ")");
}

}  // namespace lite
