#include "lite/model_parser/persistable_params.h"

#include <algorithm>

namespace lite {

namespace {
constexpr int kPaddleReaderType = 15;  // VarType::READER
}  // namespace

Status ListParamVars(const cpp::ProgramDesc& program, const std::string& file,
                     std::vector<const cpp::VarDesc*>* out) {
  out->clear();
  if (program.blocks.empty()) {
    return InvalidArgument(file + ": the program has no blocks");
  }
  for (const cpp::VarDesc& v : program.blocks[0].vars) {
    if (!v.persistable) continue;
    switch (v.kind) {
      case cpp::VarKind::kFeedList:
      case cpp::VarKind::kFetchList:
        continue;
      case cpp::VarKind::kLoDTensor:
        out->push_back(&v);
        continue;
      case cpp::VarKind::kOther:
        if (v.raw_type == kPaddleReaderType) continue;
        break;
      case cpp::VarKind::kTensorArray:
        break;
    }
    return Unimplemented(file + ": var '" + v.name +
                         "' is persistable but not a LoDTensor (Paddle type " +
                         std::to_string(v.kind == cpp::VarKind::kTensorArray ? 13
                                                                             : v.raw_type) +
                         "); only LoDTensor parameters can be loaded or saved");
  }
  auto by_name = [](const cpp::VarDesc* a, const cpp::VarDesc* b) {
    return a->name < b->name;
  };
  std::sort(out->begin(), out->end(), by_name);
  out->erase(std::unique(out->begin(), out->end(),
                         [](const cpp::VarDesc* a, const cpp::VarDesc* b) {
                           return a->name == b->name;
                         }),
             out->end());
  return Status::OK();
}

Status CheckTensorMatchesVar(const Tensor& t, const cpp::VarDesc& var,
                             const std::string& file) {
  if (var.dtype != DataType::kUnknown && t.dtype() != var.dtype) {
    return InvalidArgument(file + ": var '" + var.name + "': tensor dtype " +
                           DataTypeName(t.dtype()) + " differs from VarDesc dtype " +
                           DataTypeName(var.dtype));
  }
  bool same = t.dims().size() == var.dims.size();
  for (size_t i = 0; same && i < var.dims.size(); ++i) {
    same = var.dims[i] == -1 || var.dims[i] == t.dims()[i];
  }
  if (!same) {
    return InvalidArgument(file + ": var '" + var.name + "': tensor dims " +
                           DimsToString(t.dims()) + " differ from VarDesc dims " +
                           DimsToString(var.dims));
  }
  return Status::OK();
}

}  // namespace lite
