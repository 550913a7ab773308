#include "lite/operators/conv_transpose_op.h"

#include "lite/operators/conv_util.h"

namespace lite {
namespace operators {

Status ConvTransposeOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  RETURN_IF_ERROR(BindConvInputs(&param_));
  param_.output_size_tensor = OptionalInput("OutputSize");
  ASSIGN_OR_RETURN(param_.output, Output("Output"));

  param_.output_padding = desc.GetAttr<std::vector<int>>("output_padding", {});
  param_.output_size = desc.GetAttr<std::vector<int>>("output_size", {});

  RETURN_IF_ERROR(ParseConvAttrs(desc, &param_));
  if (!param_.output_padding.empty() && param_.output_padding.size() != 2) {
    return OpError("attribute output_padding must be empty or 2 values, got " +
                   IntsToString(param_.output_padding));
  }
  if (!param_.output_size.empty() && param_.output_size.size() != 2) {
    return OpError("attribute output_size must be empty or 2 values, got " +
                   IntsToString(param_.output_size));
  }
  ASSIGN_OR_RETURN(param_.act, FusedActivation::FromOpDesc(desc));
  return ParseInt8Attrs(desc);
}

Status ConvTransposeOp::ParseInt8Attrs(const cpp::OpDesc& desc) {
  const DDim& f = param_.filter->dims();
  return ParseInt8Scales(desc, f.size() == 4 ? f[1] * param_.groups : -1, &param_);
}

Status ConvTransposeOp::CheckDims() const {
  RETURN_IF_ERROR(CheckConvRanks(param_));
  const DDim& in = param_.input->dims();
  const DDim& w = param_.filter->dims();
  if (in[1] != w[0]) {
    return OpError("input channels " + std::to_string(in[1]) +
                   " must equal Filter dim 0, got filter " + DimsToString(w));
  }
  if (in[1] % param_.groups != 0) {
    return OpError("input channels " + std::to_string(in[1]) +
                   " must be divisible by groups " + std::to_string(param_.groups));
  }
  return CheckConvBias(param_, w[1] * param_.groups);
}

Status ConvTransposeOp::InferShape() {
  RETURN_IF_ERROR(CheckDims());
  const DDim& in = param_.input->dims();
  const DDim& w = param_.filter->dims();
  const Window win = ResolveWindow(&param_);

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
        win.in_hw[i], win.ksize[i], param_.eff_dilations[i], param_.eff_paddings[2 * i],
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

namespace lite {
namespace operators {

int64_t ConvTransposeOp::Flops() const {
  const Tensor* f = param_.filter;
  const Tensor* in = param_.input;
  if (!f || !in || f->dims().size() != 4) return 0;
  return 2 * in->numel() * f->dims()[1] * f->dims()[2] * f->dims()[3];
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(conv2d_transpose, lite::operators::ConvTransposeOp);
REGISTER_LITE_OP(depthwise_conv2d_transpose, lite::operators::ConvTransposeOp);
