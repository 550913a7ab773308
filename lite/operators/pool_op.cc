#include "lite/operators/pool_op.h"

#include "lite/operators/conv_util.h"

namespace lite {
namespace operators {

Status PoolOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  param_.pooling_type = desc.GetAttr<std::string>("pooling_type", "");
  param_.ksize = desc.GetAttr<std::vector<int>>("ksize", {});
  param_.strides = desc.GetAttr<std::vector<int>>("strides", {1, 1});
  std::vector<int> pads = desc.GetAttr<std::vector<int>>("paddings", {0, 0});
  param_.global_pooling = desc.GetAttr<bool>("global_pooling", false);
  param_.adaptive = desc.GetAttr<bool>("adaptive", false);
  param_.ceil_mode = desc.GetAttr<bool>("ceil_mode", false);
  param_.exclusive = desc.GetAttr<bool>("exclusive", true);
  param_.padding_algorithm = desc.GetAttr<std::string>("padding_algorithm", "EXPLICIT");
  param_.data_format = desc.GetAttr<std::string>("data_format", "NCHW");

  if (param_.pooling_type != "max" && param_.pooling_type != "avg") {
    return Unimplemented("op " + DebugName() + ": pooling_type '" + param_.pooling_type +
                         "' is not supported (max or avg)");
  }
  if (!IsChannelFirstLayout(param_.data_format)) {
    return Unimplemented("op " + DebugName() + ": data_format '" + param_.data_format +
                         "' is not supported (NCHW only)");
  }
  if (param_.ksize.size() != 2) {
    return OpError("attribute ksize must have 2 values, got " + IntsToString(param_.ksize));
  }
  if (!param_.global_pooling && (param_.ksize[0] <= 0 || param_.ksize[1] <= 0)) {
    return OpError("attribute ksize must be positive, got " + IntsToString(param_.ksize));
  }
  if (param_.strides.size() != 2 || param_.strides[0] <= 0 || param_.strides[1] <= 0) {
    return OpError("attribute strides must be 2 positive values, got " +
                   IntsToString(param_.strides));
  }
  if (!ExpandPaddings2D(pads, &param_.paddings)) {
    return OpError("attribute paddings must have 2 or 4 values, got " + IntsToString(pads));
  }
  for (int p : param_.paddings) {
    if (p < 0) return OpError("attribute paddings must be >= 0, got " + IntsToString(pads));
  }
  if (!IsKnownPaddingAlgorithm(param_.padding_algorithm)) {
    return OpError("attribute padding_algorithm must be EXPLICIT, SAME or VALID, got '" +
                   param_.padding_algorithm + "'");
  }
  return Status::OK();
}

Status PoolOp::CheckShape() const {
  if (param_.x->dims().size() != 4) {
    return OpError("input X must be 4-D NCHW, got " + DimsToString(param_.x->dims()));
  }
  return Status::OK();
}

Status PoolOp::InferShape() {
  RETURN_IF_ERROR(CheckShape());
  const DDim& in = param_.x->dims();
  const int64_t in_hw[2] = {in[2], in[3]};
  param_.eff_paddings = param_.paddings;
  ApplyPaddingAlgorithm2D(param_.padding_algorithm, in_hw, param_.ksize, param_.strides,
                          &param_.eff_paddings, nullptr);
  param_.eff_ksize = param_.ksize;
  if (param_.global_pooling || param_.adaptive) {
    std::fill(param_.eff_paddings.begin(), param_.eff_paddings.end(), 0);
  }
  if (param_.global_pooling) {
    param_.eff_ksize = {static_cast<int>(in[2]), static_cast<int>(in[3])};
  }
  DDim out = {in[0], in[1], 0, 0};
  for (int i = 0; i < 2; ++i) {
    if (param_.adaptive) {
      out[2 + i] = param_.eff_ksize[i];
    } else {
      out[2 + i] = PoolOutputSize(in_hw[i], param_.eff_ksize[i], param_.eff_paddings[2 * i],
                                  param_.eff_paddings[2 * i + 1], param_.strides[i],
                                  param_.ceil_mode);
    }
    if (out[2 + i] < 0) {
      return OpError("output size " + DimsToString(out) + " is negative for input " +
                     DimsToString(in) + " and ksize " + IntsToString(param_.eff_ksize));
    }
  }
  param_.out->Resize(out);
  param_.out->set_lod(param_.x->lod());
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(pool2d, lite::operators::PoolOp);
DECLARE_LITE_OP_ATTR_VALUES(pool2d, pooling_type, "avg", "max");
DECLARE_LITE_OP_ATTR_VALUES(pool2d, padding_algorithm, "EXPLICIT", "SAME", "VALID");
