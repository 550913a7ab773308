#include "lite/base/fused_activation.h"

#include <map>

namespace lite {
namespace operators {

namespace {
const std::map<std::string, FusedActivation::Kind>& KindsByName() {
  static const auto* kinds = new std::map<std::string, FusedActivation::Kind>{
      {"", FusedActivation::kNone},
      {"relu", FusedActivation::kRelu},
      {"relu6", FusedActivation::kRelu6},
      {"leaky_relu", FusedActivation::kLeakyRelu},
      {"hard_swish", FusedActivation::kHardSwish},
      {"hard_sigmoid", FusedActivation::kHardSigmoid},
      {"sigmoid", FusedActivation::kSigmoid},
      {"swish", FusedActivation::kSwish},
      {"tanh", FusedActivation::kTanh},
  };
  return *kinds;
}
}  // namespace

const char* FusedActivation::name() const {
  for (const auto& kv : KindsByName()) {
    if (kv.second == kind) return kv.first.c_str();
  }
  return "";
}

StatusOr<FusedActivation> FusedActivation::FromOpDesc(const cpp::OpDesc& desc) {
  FusedActivation act;
  std::string name = desc.GetAttr<std::string>("fuse_activation", "");
  auto it = KindsByName().find(name);
  if (it == KindsByName().end()) {
    return Unimplemented("op " + desc.Type() + ": unsupported fuse_activation '" +
                         name + "'");
  }
  act.kind = it->second;
  act.alpha = desc.GetAttr<float>("fuse_alpha", 0.f);
  act.beta = desc.GetAttr<float>("fuse_beta", 0.f);
  act.gamma = desc.GetAttr<float>("fuse_gamma", 0.f);
  return act;
}

StatusOr<FusedActivation> FusedActivation::FromActivationOp(const cpp::OpDesc& op) {
  FusedActivation act;
  const std::string& t = op.Type();
  auto it = KindsByName().find(t);
  if (t.empty() || it == KindsByName().end()) {
    return Unimplemented("activation " + t + " cannot be fused");
  }
  act.kind = it->second;
  switch (act.kind) {
    case kRelu6: act.alpha = op.GetAttr<float>("threshold", 6.f); break;
    case kLeakyRelu: act.alpha = op.GetAttr<float>("alpha", 0.02f); break;
    case kHardSwish:
      act.alpha = op.GetAttr<float>("threshold", 6.f);
      act.beta = op.GetAttr<float>("scale", 6.f);
      act.gamma = op.GetAttr<float>("offset", 3.f);
      break;
    case kHardSigmoid:
      act.alpha = op.GetAttr<float>("slope", 0.2f);
      act.beta = op.GetAttr<float>("offset", 0.5f);
      break;
    case kSwish: act.alpha = op.GetAttr<float>("beta", 1.f); break;
    default: break;
  }
  return act;
}

void FusedActivation::ToOpDesc(cpp::OpDesc* desc) const {
  desc->SetAttr("fuse_activation", std::string(name()));
  desc->SetAttr("fuse_alpha", alpha);
  desc->SetAttr("fuse_beta", beta);
  desc->SetAttr("fuse_gamma", gamma);
}

}  // namespace operators
}  // namespace lite
