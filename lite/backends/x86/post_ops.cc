#include "lite/backends/x86/post_ops.h"

#include "lite/backends/x86/dnnl_util.h"

namespace lite {
namespace x86 {

using Act = operators::FusedActivation;
using dnnl::algorithm;

bool DnnlExpressible(const Act& act) {
  if (act.kind == Act::kHardSwish) {
    return act.alpha == 6.f && act.beta == 6.f && act.gamma == 3.f;
  }
  return true;
}

bool FusedActivationExpressible(const cpp::OpDesc& desc) {
  auto act = Act::FromOpDesc(desc);
  return act.ok() && DnnlExpressible(*act);
}

void AppendActivation(const Act& act, dnnl::post_ops* ops) {
  switch (act.kind) {
    case Act::kNone: return;
    case Act::kRelu: return ops->append_eltwise(1.f, algorithm::eltwise_relu, 0.f, 0.f);
    case Act::kLeakyRelu:
      return ops->append_eltwise(1.f, algorithm::eltwise_relu, act.alpha, 0.f);
    case Act::kRelu6: return ops->append_eltwise(1.f, algorithm::eltwise_clip, 0.f, act.alpha);
    case Act::kSigmoid: return ops->append_eltwise(1.f, algorithm::eltwise_logistic, 0.f, 0.f);
    case Act::kTanh: return ops->append_eltwise(1.f, algorithm::eltwise_tanh, 0.f, 0.f);
    case Act::kSwish: return ops->append_eltwise(1.f, algorithm::eltwise_swish, act.alpha, 0.f);
    case Act::kHardSigmoid:
      ops->append_eltwise(1.f, algorithm::eltwise_linear, act.alpha, act.beta);
      return ops->append_eltwise(1.f, algorithm::eltwise_clip, 0.f, 1.f);
    case Act::kHardSwish:
      return ops->append_eltwise(1.f, algorithm::eltwise_hardswish, 0.f, 0.f);
  }
}

dnnl::primitive_attr ActivationAttr(const Act& act) {
  dnnl::post_ops ops;
  AppendActivation(act, &ops);
  dnnl::primitive_attr attr;
  attr.set_post_ops(ops);
  return attr;
}

std::vector<dnnl::eltwise_forward> EltwiseChain(const dnnl::post_ops& ops,
                                                const dnnl::memory::desc& md) {
  std::vector<dnnl::eltwise_forward> chain;
  for (int i = 0; i < ops.len(); ++i) {
    dnnl::algorithm alg;
    float scale, alpha, beta;
    ops.get_params_eltwise(i, scale, alg, alpha, beta);
    dnnl::eltwise_forward::desc d(dnnl::prop_kind::forward_inference, alg, md, alpha, beta);
    chain.emplace_back(dnnl::eltwise_forward::primitive_desc(d, CpuEngine()));
  }
  return chain;
}

}  // namespace x86
}  // namespace lite
