#include "lite/kernels/x86/conv_transpose_compute.h"

#include <memory>
#include <string>
#include <vector>

#include "lite/backends/x86/post_ops.h"

namespace lite {
namespace kernels {
namespace x86 {

namespace {
// The strategies in the order they are asked (conv_transpose_compute.h).
std::vector<std::unique_ptr<ConvTransposeStrategy>> ConvTransposeStrategies() {
  std::vector<std::unique_ptr<ConvTransposeStrategy>> list;
  list.push_back(MakeConvTransposeNarrowStrategy());
  list.push_back(MakeConvTransposeScatterStrategy());
  list.push_back(MakeConvTransposeRowGemmStrategy());
  list.push_back(MakeConvTransposeRowsStrategy());
  list.push_back(MakeConvTransposeDeconvStrategy());
  list.push_back(MakeConvTransposeHostStrategy());
  return list;
}
}  // namespace

ConvTransposeCompute::ConvTransposeCompute() : strategies_(ConvTransposeStrategies()) {}

Status ConvTransposeCompute::RunDnnl() {
  const auto& p = Param<operators::ConvTransposeParam>();
  ConvTransposeContext c{*this, p};
  if (p.input->dims() != planned_dims_) {
    RETURN_IF_ERROR(strategies_.Choose(c));
    planned_dims_ = p.input->dims();
  }
  return strategies_.Run(c);
}

Verdict NonOverlappingStrided(const ConvTransposeContext& c) {
  const operators::ConvTransposeParam& p = c.p;
  const DDim& in = p.input->dims();
  const DDim& f = p.filter->dims();
  const DDim& out = p.output->dims();
  if (p.strides[0] == 1 && p.strides[1] == 1) return Verdict::Decline("stride 1");
  for (int v : p.eff_paddings) {
    if (v != 0) return Verdict::Decline("padded");
  }
  if (!(p.groups == 1 && p.strides[0] == f[2] && p.strides[1] == f[3] &&
        p.eff_dilations[0] == 1 && p.eff_dilations[1] == 1 && out[2] == in[2] * f[2] &&
        out[3] == in[3] * f[3])) {
    return Verdict::Decline("windows overlap (kernel != stride, groups or dilation)");
  }
  if (!c.kernel.nhwc() || p.input->persistable()) {
    return Verdict::Decline("not an NHWC activation input");
  }
  return Verdict::Accept();
}

namespace {
bool ConvTransposeAccepts(const cpp::OpDesc& desc) {
  return lite::x86::FusedActivationExpressible(desc) &&
         desc.GetAttr<std::string>("data_format", "NCHW") != "NHWC" &&
         !desc.HasInput("OutputSize");
}
}  // namespace

}  // namespace x86
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(conv2d_transpose, kX86, kFloat, kNHWC,
                     lite::kernels::x86::ConvTransposeCompute, def)
    .SetAccepts(lite::kernels::x86::ConvTransposeAccepts)
    .Finalize();
REGISTER_LITE_KERNEL(depthwise_conv2d_transpose, kX86, kFloat, kNHWC,
                     lite::kernels::x86::ConvTransposeCompute, def)
    .SetAccepts(lite::kernels::x86::ConvTransposeAccepts)
    .Finalize();
