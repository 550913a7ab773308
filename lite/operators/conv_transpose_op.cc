#include "lite/operators/conv_transpose_op.h"

#include "lite/operators/conv_util.h"

namespace lite {
namespace operators {

Status ConvTransposeOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * input, Input("Input"));
  ASSIGN_OR_RETURN(Tensor * filter, Input("Filter"));
  param_.input = input;
  param_.filter = filter;
  param_.bias = OptionalInput("Bias");
  param_.output_size_tensor = OptionalInput("OutputSize");
  ASSIGN_OR_RETURN(param_.output, Output("Output"));

  param_.strides = desc.GetAttr<std::vector<int>>("strides", {1, 1});
  std::vector<int> pads = desc.GetAttr<std::vector<int>>("paddings", {0, 0});
  param_.dilations = desc.GetAttr<std::vector<int>>("dilations", {1, 1});
  param_.groups = desc.GetAttr<int>("groups", 1);
  param_.padding_algorithm = desc.GetAttr<std::string>("padding_algorithm", "EXPLICIT");
  param_.data_format = desc.GetAttr<std::string>("data_format", "NCHW");
  param_.output_padding = desc.GetAttr<std::vector<int>>("output_padding", {});
  param_.output_size = desc.GetAttr<std::vector<int>>("output_size", {});

  if (!IsChannelFirstLayout(param_.data_format)) {
    return Unimplemented("op " + DebugName() + ": data_format '" + param_.data_format +
                         "' is not supported (NCHW only)");
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
    return OpError("attribute paddings must have 2 or 4 values, got " + IntsToString(pads));
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
  if (!param_.output_padding.empty() && param_.output_padding.size() != 2) {
    return OpError("attribute output_padding must be empty or 2 values, got " +
                   IntsToString(param_.output_padding));
  }
  if (!param_.output_size.empty() && param_.output_size.size() != 2) {
    return OpError("attribute output_size must be empty or 2 values, got " +
                   IntsToString(param_.output_size));
  }
  ASSIGN_OR_RETURN(param_.act, FusedActivation::FromOpDesc(desc));
  return Status::OK();
}

Status ConvTransposeOp::CheckDims() const {
  const DDim& in = param_.input->dims();
  const DDim& w = param_.filter->dims();
  if (in.size() != 4) return OpError("input Input must be 4-D NCHW, got " + DimsToString(in));
  if (w.size() != 4) return OpError("input Filter must be 4-D, got " + DimsToString(w));
  if (in[1] != w[0]) {
    return OpError("input channels " + std::to_string(in[1]) +
                   " must equal Filter dim 0, got filter " + DimsToString(w));
  }
  if (in[1] % param_.groups != 0) {
    return OpError("input channels " + std::to_string(in[1]) +
                   " must be divisible by groups " + std::to_string(param_.groups));
  }
  const int64_t c_out = w[1] * param_.groups;
  if (param_.bias && param_.bias->numel() != c_out) {
    return OpError("input Bias must hold C_out = " + std::to_string(c_out) +
                   " values, got dims " + DimsToString(param_.bias->dims()));
  }
  return Status::OK();
}

Status ConvTransposeOp::CheckShape() const { return CheckDims(); }

Status ConvTransposeOp::InferShape() {
  RETURN_IF_ERROR(CheckDims());
  const DDim& in = param_.input->dims();
  const DDim& w = param_.filter->dims();
  const int64_t in_hw[2] = {in[2], in[3]};
  const std::vector<int> ksize = {static_cast<int>(w[2]), static_cast<int>(w[3])};
  param_.eff_paddings = param_.paddings;
  param_.eff_dilations = param_.dilations;
  ApplyPaddingAlgorithm2D(param_.padding_algorithm, in_hw, ksize, param_.strides,
                          &param_.eff_paddings, &param_.eff_dilations);

  std::vector<int64_t> out_size(param_.output_size.begin(), param_.output_size.end());
  if (const Tensor* t = param_.output_size_tensor) {
    if (t->numel() != 2) {
      return OpError("input OutputSize must hold 2 values, got dims " +
                     DimsToString(t->dims()));
    }
    out_size.assign(2, 0);
    for (int i = 0; i < 2; ++i) {
      if (t->dtype() == DataType::kInt32) {
        out_size[i] = t->data<int32_t>()[i];
      } else if (t->dtype() == DataType::kInt64) {
        out_size[i] = t->data<int64_t>()[i];
      } else {
        return OpError(std::string("input OutputSize must be int32 or int64, got ") +
                       DataTypeName(t->dtype()));
      }
    }
  }

  DDim out = {in[0], w[1] * param_.groups, 0, 0};
  for (int i = 0; i < 2; ++i) {
    const int64_t inferred = ConvTransposeOutputSize(
        in_hw[i], ksize[i], param_.eff_dilations[i], param_.eff_paddings[2 * i],
        param_.eff_paddings[2 * i + 1], param_.strides[i]);
    int64_t size = inferred;
    if (!out_size.empty()) {
      if (out_size[i] < inferred || out_size[i] >= inferred + param_.strides[i]) {
        return OpError("output_size[" + std::to_string(i) + "] = " +
                       std::to_string(out_size[i]) + " must be in [" +
                       std::to_string(inferred) + ", " +
                       std::to_string(inferred + param_.strides[i]) + ")");
      }
      size = out_size[i];
    } else if (!param_.output_padding.empty()) {
      const int op = param_.output_padding[i];
      if (op < 0 || op >= std::max(param_.strides[i], param_.eff_dilations[i])) {
        return OpError("output_padding " + IntsToString(param_.output_padding) +
                       " must be >= 0 and < max(stride, dilation)");
      }
      size = inferred + op;
    }
    if (size <= 0) {
      return OpError("output size is not positive for input " + DimsToString(in) +
                     ", filter " + DimsToString(w));
    }
    out[2 + i] = size;
  }
  param_.output->Resize(out);
  param_.output->set_lod(param_.input->lod());
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(conv2d_transpose, lite::operators::ConvTransposeOp);
REGISTER_LITE_OP(depthwise_conv2d_transpose, lite::operators::ConvTransposeOp);
