#include "lite/operators/conv_op.h"

#include <cmath>

#include "lite/operators/channel_last.h"
#include "lite/operators/conv_util.h"

namespace lite {
namespace operators {

// ---- shared by conv2d and conv2d_transpose ----

Status ConvOpBase::BindConvInputs(ConvParam* p) {
  ASSIGN_OR_RETURN(Tensor * input, Input("Input"));
  ASSIGN_OR_RETURN(Tensor * filter, Input("Filter"));
  p->input = input;
  p->filter = filter;
  p->bias = OptionalInput("Bias");
  return Status::OK();
}

Status ConvOpBase::ParseConvAttrs(const cpp::OpDesc& desc, ConvParam* p) const {
  p->strides = desc.GetAttr<std::vector<int>>("strides", {1, 1});
  std::vector<int> pads = desc.GetAttr<std::vector<int>>("paddings", {0, 0});
  p->dilations = desc.GetAttr<std::vector<int>>("dilations", {1, 1});
  p->groups = desc.GetAttr<int>("groups", 1);
  p->padding_algorithm = desc.GetAttr<std::string>("padding_algorithm", "EXPLICIT");
  p->data_format = desc.GetAttr<std::string>("data_format", "NCHW");

  if (!IsChannelFirstLayout(p->data_format)) {
    return ChannelLastUnsupported(DebugName(), "data_format", p->data_format);
  }
  if (p->strides.size() != 2 || p->strides[0] <= 0 || p->strides[1] <= 0) {
    return OpError("attribute strides must be 2 positive values, got " +
                   IntsToString(p->strides));
  }
  if (p->dilations.size() != 2 || p->dilations[0] <= 0 || p->dilations[1] <= 0) {
    return OpError("attribute dilations must be 2 positive values, got " +
                   IntsToString(p->dilations));
  }
  if (!ExpandPaddings2D(pads, &p->paddings)) {
    return OpError("attribute paddings must have 2 or 4 values, got " + IntsToString(pads));
  }
  for (int v : p->paddings) {
    if (v < 0) return OpError("attribute paddings must be >= 0, got " + IntsToString(pads));
  }
  if (p->groups < 1) {
    return OpError("attribute groups must be >= 1, got " + std::to_string(p->groups));
  }
  if (!IsKnownPaddingAlgorithm(p->padding_algorithm)) {
    return OpError("attribute padding_algorithm must be EXPLICIT, SAME or VALID, got '" +
                   p->padding_algorithm + "'");
  }
  return Status::OK();
}

Status ConvOpBase::CheckConvRanks(const ConvParam& p) const {
  const DDim& in = p.input->dims();
  const DDim& w = p.filter->dims();
  if (in.size() != 4) return OpError("input Input must be 4-D NCHW, got " + DimsToString(in));
  if (w.size() != 4) return OpError("input Filter must be 4-D, got " + DimsToString(w));
  return Status::OK();
}

Status ConvOpBase::CheckConvBias(const ConvParam& p, int64_t c_out) const {
  if (p.bias && p.bias->numel() != c_out) {
    return OpError("input Bias must hold C_out = " + std::to_string(c_out) +
                   " values, got dims " + DimsToString(p.bias->dims()));
  }
  return Status::OK();
}

ConvOpBase::Window ConvOpBase::ResolveWindow(ConvParam* p) {
  const DDim& in = p->input->dims();
  const DDim& w = p->filter->dims();
  Window win{{in[2], in[3]}, {static_cast<int>(w[2]), static_cast<int>(w[3])}};
  p->eff_paddings = p->paddings;
  p->eff_dilations = p->dilations;
  ApplyPaddingAlgorithm2D(p->padding_algorithm, win.in_hw, win.ksize, p->strides,
                          &p->eff_paddings, &p->eff_dilations);
  return win;
}

// ---- conv2d / depthwise_conv2d ----

Status ConvOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  RETURN_IF_ERROR(BindConvInputs(&param_));
  ASSIGN_OR_RETURN(param_.output, Output("Output"));
  param_.residual = OptionalInput("ResidualData");
  RETURN_IF_ERROR(ParseConvAttrs(desc, &param_));
  ASSIGN_OR_RETURN(param_.act, FusedActivation::FromOpDesc(desc));
  param_.post_scale = desc.GetAttr<float>("fuse_post_scale", 1.f);
  param_.post_bias = desc.GetAttr<float>("fuse_post_bias", 0.f);
  param_.enable_fp16 = desc.GetAttr<bool>("enable_fp16", false);
  if (!std::isfinite(param_.post_scale) || !std::isfinite(param_.post_bias)) {
    return OpError("fuse_post_scale / fuse_post_bias must be finite");
  }
  return ParseInt8Attrs(desc);
}

Status ConvOpBase::ParseInt8Scales(const cpp::OpDesc& desc, int64_t c_out,
                                   ConvParam* p) const {
  p->enable_int8 = desc.GetAttr<bool>("enable_int8", false);
  if (!p->enable_int8) return Status::OK();
  p->input_scale = desc.GetAttr<float>("Input_scale", 0.f);
  p->filter_scales = desc.GetAttr<std::vector<float>>("Filter_scales", {});
  p->quant_round_type = desc.GetAttr<int32_t>("quant_round_type", 1);
  if (!(p->input_scale > 0.f) || !std::isfinite(p->input_scale)) {
    return OpError("int8 conv needs Input_scale > 0, got " + std::to_string(p->input_scale));
  }
  if (p->quant_round_type != 0 && p->quant_round_type != 1) {
    return OpError("quant_round_type must be 0 or 1");
  }
  if (p->filter->dtype() != DataType::kInt8 ||
      static_cast<int64_t>(p->filter_scales.size()) != c_out) {
    return OpError("int8 conv needs an int8 Filter and one Filter_scales value per output "
                   "channel (Filter " + std::string(DataTypeName(p->filter->dtype())) + " " +
                   DimsToString(p->filter->dims()) + ", " +
                   std::to_string(p->filter_scales.size()) + " scales)");
  }
  return Status::OK();
}

Status ConvOp::ParseInt8Attrs(const cpp::OpDesc& desc) {
  const DDim& f = param_.filter->dims();
  RETURN_IF_ERROR(ParseInt8Scales(desc, f.empty() ? -1 : f[0], &param_));
  if (!param_.enable_int8) return Status::OK();
  ASSIGN_OR_RETURN(param_.input_dtype, LevelsDtype(desc, "Input_dtype"));
  ASSIGN_OR_RETURN(param_.output_dtype, LevelsDtype(desc, "Output_dtype"));
  if (param_.output_dtype == DataType::kFloat32) return Status::OK();
  param_.output_scale = desc.GetAttr<float>("Output_scale", 0.f);
  param_.output_round_type = desc.GetAttr<int32_t>("Output_round_type", 1);
  if (!(param_.output_scale > 0.f) || !std::isfinite(param_.output_scale)) {
    return OpError("int8 output needs Output_scale > 0, got " +
                   std::to_string(param_.output_scale));
  }
  if (param_.output_round_type != 0 && param_.output_round_type != 1) {
    return OpError("Output_round_type must be 0 or 1");
  }
  return Status::OK();
}

// "float32" (default), "int8" or "uint8": what an int8 conv's Input or
// Output holds.
StatusOr<DataType> ConvOp::LevelsDtype(const cpp::OpDesc& desc, const std::string& attr) const {
  const std::string name = desc.GetAttr<std::string>(attr, "float32");
  for (DataType t : {DataType::kFloat32, DataType::kInt8, DataType::kUInt8}) {
    if (name == DataTypeName(t)) return t;
  }
  return OpError(attr + " must be float32, int8 or uint8, got '" + name + "'");
}

Status ConvOp::CheckDims() const {
  RETURN_IF_ERROR(CheckConvRanks(param_));
  const DDim& in = param_.input->dims();
  const DDim& w = param_.filter->dims();
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
  return CheckConvBias(param_, w[0]);
}

Status ConvOp::InferShape() {
  RETURN_IF_ERROR(CheckDims());
  const DDim& in = param_.input->dims();
  const DDim& w = param_.filter->dims();
  const Window win = ResolveWindow(&param_);
  DDim out = {in[0], w[0], 0, 0};
  for (int i = 0; i < 2; ++i) {
    out[2 + i] = ConvOutputSize(win.in_hw[i], win.ksize[i], param_.eff_dilations[i],
                                param_.eff_paddings[2 * i],
                                param_.eff_paddings[2 * i + 1], param_.strides[i]);
    if (out[2 + i] <= 0) {
      return OpError("output size " + DimsToString(out) +
                     " is not positive for input " + DimsToString(in) +
                     ", filter " + DimsToString(w));
    }
  }
  if (param_.residual) {
    if (param_.residual->dims() != out) {
      return OpError("input ResidualData must have Output's dims " + DimsToString(out) +
                     ", got " + DimsToString(param_.residual->dims()));
    }
  }
  param_.output->Resize(out);
  param_.output->set_lod(param_.input->lod());
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

namespace lite {
namespace operators {

int64_t ConvFlops(const Tensor* f, const Tensor* out) {
  if (!f || !out || f->dims().size() != 4) return 0;
  return 2 * out->numel() * f->dims()[1] * f->dims()[2] * f->dims()[3];
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(conv2d, lite::operators::ConvOp);
REGISTER_LITE_OP(depthwise_conv2d, lite::operators::ConvOp);
