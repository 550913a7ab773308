#include "lite/operators/pool_op.h"

#include "lite/operators/channel_last.h"
#include "lite/operators/conv_util.h"

namespace lite {
namespace operators {

Status PoolOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  param_.pooling_type = desc.GetAttr<std::string>("pooling_type", "");
  const size_t rank = kind_ == PoolOpKind::kPool3d ? 3 : 2;
  param_.ksize = desc.GetAttr<std::vector<int>>("ksize", {});
  param_.strides = desc.GetAttr<std::vector<int>>("strides", std::vector<int>(rank, 1));
  std::vector<int> pads = desc.GetAttr<std::vector<int>>("paddings", std::vector<int>(rank, 0));
  param_.global_pooling = desc.GetAttr<bool>("global_pooling", false);
  param_.adaptive = desc.GetAttr<bool>("adaptive", false);
  param_.ceil_mode = desc.GetAttr<bool>("ceil_mode", false);
  param_.exclusive = desc.GetAttr<bool>("exclusive", true);
  param_.padding_algorithm = desc.GetAttr<std::string>("padding_algorithm", "EXPLICIT");
  param_.data_format = desc.GetAttr<std::string>("data_format", rank == 3 ? "NCDHW" : "NCHW");

  if (param_.pooling_type != "max" && param_.pooling_type != "avg") {
    return Unimplemented("op " + DebugName() + ": pooling_type '" + param_.pooling_type +
                         "' is not supported (max or avg)");
  }
  const bool channel_first = rank == 3 ? param_.data_format == "NCDHW" ||
                                               param_.data_format == "AnyLayout"
                                         : IsChannelFirstLayout(param_.data_format);
  if (!channel_first) {
    return ChannelLastUnsupported(DebugName(), "data_format", param_.data_format,
                                  rank == 3 ? "NCDHW" : "NCHW");
  }
  const std::string n = std::to_string(rank);
  if (param_.ksize.size() != rank) {
    return OpError("attribute ksize must have " + n + " values, got " + IntsToString(param_.ksize));
  }
  for (size_t i = 0; i < rank; ++i) {
    if (!param_.global_pooling && param_.ksize[i] <= 0) {
      return OpError("attribute ksize must be positive, got " + IntsToString(param_.ksize));
    }
    if (param_.strides.size() != rank || param_.strides[i] <= 0) {
      return OpError("attribute strides must be " + n + " positive values, got " +
                     IntsToString(param_.strides));
    }
  }
  if (!ExpandPaddings(pads, rank, &param_.paddings)) {
    return OpError("attribute paddings must have " + n + " or " + std::to_string(2 * rank) +
                   " values, got " + IntsToString(pads));
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
  const size_t rank = param_.ksize.size();
  if (param_.x->dims().size() != rank + 2) {
    return OpError(std::string(rank == 3 ? "input X must be 5-D NCDHW, got "
                                         : "input X must be 4-D NCHW, got ") +
                   DimsToString(param_.x->dims()));
  }
  return Status::OK();
}

Status PoolOp::InferShape() {
  RETURN_IF_ERROR(CheckShape());
  const DDim& in = param_.x->dims();
  const size_t rank = param_.ksize.size();
  const int64_t* in_sp = in.data() + 2;  // the spatial sizes
  param_.eff_paddings = param_.paddings;
  ApplyPaddingAlgorithm(param_.padding_algorithm, in_sp, rank, param_.ksize, param_.strides,
                        &param_.eff_paddings, nullptr);
  param_.eff_ksize = param_.ksize;
  if (param_.global_pooling || param_.adaptive) {
    std::fill(param_.eff_paddings.begin(), param_.eff_paddings.end(), 0);
  }
  if (param_.global_pooling) {
    for (size_t i = 0; i < rank; ++i) param_.eff_ksize[i] = static_cast<int>(in_sp[i]);
  }
  DDim out = in;
  for (size_t i = 0; i < rank; ++i) {
    if (param_.adaptive) {
      out[2 + i] = param_.eff_ksize[i];
    } else {
      out[2 + i] = PoolOutputSize(in_sp[i], param_.eff_ksize[i], param_.eff_paddings[2 * i],
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

REGISTER_LITE_OP_KIND(pool2d, lite::operators::PoolOp, lite::operators::PoolOpKind::kPool2d);
REGISTER_LITE_OP_KIND(pool3d, lite::operators::PoolOp, lite::operators::PoolOpKind::kPool3d);
DECLARE_LITE_OP_ATTR_VALUES(pool2d, pooling_type, "avg", "max");
DECLARE_LITE_OP_ATTR_VALUES(pool2d, padding_algorithm, "EXPLICIT", "SAME", "VALID");
DECLARE_LITE_OP_ATTR_VALUES(pool3d, pooling_type, "avg", "max");
DECLARE_LITE_OP_ATTR_VALUES(pool3d, padding_algorithm, "EXPLICIT", "SAME", "VALID");
