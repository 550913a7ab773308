#include "lite/operators/lod_util.h"

namespace lite {
namespace operators {

std::string LodToString(const LoD& lod) {
  std::string out = "[";
  for (size_t l = 0; l < lod.size(); ++l) {
    out += l ? ", [" : "[";
    for (size_t i = 0; i < lod[l].size(); ++i) out += (i ? "," : "") + std::to_string(lod[l][i]);
    out += "]";
  }
  return out + "]";
}

Status CheckLastLevel(const OpLite& op, const LoD& lod, int64_t rows) {
  if (lod.empty()) {
    return InvalidArgument("op " + op.DebugName() + ": input has no LoD (sequence offsets)");
  }
  const auto& level = lod.back();
  if (level.empty() || level.front() != 0) {
    return InvalidArgument("op " + op.DebugName() + ": LoD must start at 0");
  }
  for (size_t i = 1; i < level.size(); ++i) {
    if (level[i] < level[i - 1]) {
      return InvalidArgument("op " + op.DebugName() + ": LoD offsets decrease at " +
                             std::to_string(i) + " (" + std::to_string(level[i - 1]) + " > " +
                             std::to_string(level[i]) + ")");
    }
  }
  if (static_cast<int64_t>(level.back()) != rows) {
    return InvalidArgument("op " + op.DebugName() + ": LoD ends at " +
                           std::to_string(level.back()) + " but the input has " +
                           std::to_string(rows) + " rows");
  }
  return Status::OK();
}

StatusOr<LoD> AgreedLoD(const OpLite& op, const std::vector<const Tensor*>& inputs) {
  const LoD* agreed = nullptr;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const LoD& lod = inputs[i]->lod();
    if (lod.empty()) continue;
    if (!agreed) {
      agreed = &lod;
    } else if (lod != *agreed) {
      return InvalidArgument("op " + op.DebugName() + ": inputs disagree on LoD: " +
                             LodToString(*agreed) + " vs " + LodToString(lod) + " (input " +
                             std::to_string(i) + ")");
    }
  }
  return agreed ? *agreed : LoD{};
}

}  // namespace operators
}  // namespace lite
