#include "lite/operators/conv_op.h"

#include "lite/operators/conv_util.h"

namespace lite {
namespace operators {

Status ConvOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * input, Input("Input"));
  ASSIGN_OR_RETURN(Tensor * filter, Input("Filter"));
  param_.input = input;
  param_.filter = filter;
  param_.bias = OptionalInput("Bias");
  ASSIGN_OR_RETURN(param_.output, Output("Output"));
  if (desc.HasInput("ResidualData")) {
    return Unimplemented("op " + DebugName() +
                         ": input ResidualData (fused residual add) is not supported");
  }

  param_.strides = desc.GetAttr<std::vector<int>>("strides", {1, 1});
  std::vector<int> pads = desc.GetAttr<std::vector<int>>("paddings", {0, 0});
  param_.dilations = desc.GetAttr<std::vector<int>>("dilations", {1, 1});
  param_.groups = desc.GetAttr<int>("groups", 1);
  param_.padding_algorithm =
      desc.GetAttr<std::string>("padding_algorithm", "EXPLICIT");
  param_.data_format = desc.GetAttr<std::string>("data_format", "NCHW");

  if (!IsChannelFirstLayout(param_.data_format)) {
    return Unimplemented("op " + DebugName() + ": data_format '" +
                         param_.data_format + "' is not supported (NCHW only)");
  }
  if (param_.strides.size() != 2 || param_.strides[0] <= 0 || param_.strides[1] <= 0) {
    return OpError("attribute strides must be 2 positive values, got " +
                   IntsToString(param_.strides));
  }
  if (param_.dilations.size() != 2 || param_.dilations[0] <= 0 ||
      param_.dilations[1] <= 0) {
    return OpError("attribute dilations must be 2 positive values, got " +
                   IntsToString(param_.dilations));
  }
  if (!ExpandPaddings2D(pads, &param_.paddings)) {
    return OpError("attribute paddings must have 2 or 4 values, got " +
                   IntsToString(pads));
  }
  for (int p : param_.paddings) {
    if (p < 0) return OpError("attribute paddings must be >= 0, got " + IntsToString(pads));
  }
  if (param_.groups < 1) {
    return OpError("attribute groups must be >= 1, got " + std::to_string(param_.groups));
  }
  if (!IsKnownPaddingAlgorithm(param_.padding_algorithm)) {
    return OpError("attribute padding_algorithm must be EXPLICIT, SAME or VALID, got '" +
                   param_.padding_algorithm + "'");
  }
  ASSIGN_OR_RETURN(param_.act, FusedActivation::FromOpDesc(desc));
  return Status::OK();
}

Status ConvOp::CheckDims() const {
  const DDim& in = param_.input->dims();
  const DDim& w = param_.filter->dims();
  if (in.size() != 4) {
    return OpError("input Input must be 4-D NCHW, got " + DimsToString(in));
  }
  if (w.size() != 4) {
    return OpError("input Filter must be 4-D, got " + DimsToString(w));
  }
  const int64_t g = param_.groups;
  if (in[1] != w[1] * g) {
    return OpError("input channels " + std::to_string(in[1]) +
                   " must equal Filter dim 1 (" + std::to_string(w[1]) +
                   ") * groups (" + std::to_string(g) + ")");
  }
  if (w[0] % g != 0) {
    return OpError("output channels " + std::to_string(w[0]) +
                   " must be divisible by groups " + std::to_string(g));
  }
  if (param_.bias && param_.bias->numel() != w[0]) {
    return OpError("input Bias must hold C_out = " + std::to_string(w[0]) +
                   " values, got dims " + DimsToString(param_.bias->dims()));
  }
  return Status::OK();
}

Status ConvOp::CheckShape() const { return CheckDims(); }

Status ConvOp::InferShape() {
  RETURN_IF_ERROR(CheckDims());
  const DDim& in = param_.input->dims();
  const DDim& w = param_.filter->dims();
  const int64_t in_hw[2] = {in[2], in[3]};
  const std::vector<int> ksize = {static_cast<int>(w[2]), static_cast<int>(w[3])};
  param_.eff_paddings = param_.paddings;
  param_.eff_dilations = param_.dilations;
  ApplyPaddingAlgorithm2D(param_.padding_algorithm, in_hw, ksize, param_.strides,
                          &param_.eff_paddings, &param_.eff_dilations);
  DDim out = {in[0], w[0], 0, 0};
  for (int i = 0; i < 2; ++i) {
    out[2 + i] = ConvOutputSize(in_hw[i], ksize[i], param_.eff_dilations[i],
                                param_.eff_paddings[2 * i],
                                param_.eff_paddings[2 * i + 1], param_.strides[i]);
    if (out[2 + i] <= 0) {
      return OpError("output size " + DimsToString(out) +
                     " is not positive for input " + DimsToString(in) +
                     ", filter " + DimsToString(w));
    }
  }
  param_.output->Resize(out);
  param_.output->set_lod(param_.input->lod());
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(conv2d, lite::operators::ConvOp);
REGISTER_LITE_OP(depthwise_conv2d, lite::operators::ConvOp);
