#include "lite/operators/conv3d_op.h"

#include "lite/operators/conv_util.h"
#include "lite/operators/op_with_param.h"

namespace lite {
namespace operators {

namespace {

class Conv3dOp : public OpWithParam<Conv3dParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

}  // namespace

Status Conv3dOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * input, Input("Input"));
  param_.input = input;
  ASSIGN_OR_RETURN(Tensor * filter, Input("Filter"));
  param_.filter = filter;
  ASSIGN_OR_RETURN(param_.output, Output("Output"));
  if (OptionalInput("ResidualData")) {
    return Unimplemented("op " + DebugName() + ": input ResidualData is not supported");
  }
  param_.strides = desc.GetAttr<std::vector<int>>("strides", {1, 1, 1});
  const std::vector<int> pads = desc.GetAttr<std::vector<int>>("paddings", {0, 0, 0});
  param_.dilations = desc.GetAttr<std::vector<int>>("dilations", {1, 1, 1});
  param_.groups = desc.GetAttr<int32_t>("groups", 1);
  param_.padding_algorithm = desc.GetAttr<std::string>("padding_algorithm", "EXPLICIT");
  const std::string layout = desc.GetAttr<std::string>("data_format", "NCDHW");
  if (layout != "NCDHW" && layout != "AnyLayout") {
    return Unimplemented("op " + DebugName() + ": data_format '" + layout +
                         "' is not supported (NCDHW only)");
  }
  if (!ExpandPaddings(pads, 3, &param_.paddings)) {
    return OpError("attribute paddings must have 3 or 6 values, got " + IntsToString(pads));
  }
  for (int p : param_.paddings) {
    if (p < 0) return OpError("attribute paddings must be >= 0, got " + IntsToString(pads));
  }
  for (const auto* v : {&param_.strides, &param_.dilations}) {
    if (v->size() != 3 || (*v)[0] <= 0 || (*v)[1] <= 0 || (*v)[2] <= 0) {
      return OpError(std::string("attribute ") + (v == &param_.strides ? "strides" : "dilations") +
                     " must be 3 positive values, got " + IntsToString(*v));
    }
  }
  if (param_.groups < 1) {
    return OpError("attribute groups must be >= 1, got " + std::to_string(param_.groups));
  }
  if (!IsKnownPaddingAlgorithm(param_.padding_algorithm)) {
    return OpError("attribute padding_algorithm must be EXPLICIT, SAME or VALID, got '" +
                   param_.padding_algorithm + "'");
  }
  return Status::OK();
}

Status Conv3dOp::CheckShape() const {
  const DDim& in = param_.input->dims();
  const DDim& f = param_.filter->dims();
  if (in.size() != 5) return OpError("input Input must be 5-D NCDHW, got " + DimsToString(in));
  if (f.size() != 5) return OpError("input Filter must be 5-D, got " + DimsToString(f));
  if (f[0] % param_.groups != 0) {
    return OpError("Filter " + DimsToString(f) + ": output channels are not a multiple of groups " +
                   std::to_string(param_.groups));
  }
  if (in[1] >= 0 && in[1] != f[1] * param_.groups) {
    return OpError("Input channels " + std::to_string(in[1]) + " != Filter " + DimsToString(f) +
                   " channels * groups " + std::to_string(param_.groups));
  }
  return Status::OK();
}

Status Conv3dOp::InferShape() {
  RETURN_IF_ERROR(CheckShape());
  const DDim& in = param_.input->dims();
  const DDim& f = param_.filter->dims();
  const std::vector<int> ksize = {static_cast<int>(f[2]), static_cast<int>(f[3]),
                                  static_cast<int>(f[4])};
  param_.eff_paddings = param_.paddings;
  param_.eff_dilations = param_.dilations;
  ApplyPaddingAlgorithm(param_.padding_algorithm, in.data() + 2, 3, ksize, param_.strides,
                        &param_.eff_paddings, &param_.eff_dilations);
  DDim out = {in[0], f[0], 0, 0, 0};
  for (int i = 0; i < 3; ++i) {
    out[2 + i] = in[2 + i] < 0
                     ? -1
                     : ConvOutputSize(in[2 + i], ksize[i], param_.eff_dilations[i],
                                      param_.eff_paddings[2 * i], param_.eff_paddings[2 * i + 1],
                                      param_.strides[i]);
    if (in[2 + i] >= 0 && out[2 + i] <= 0) {
      return OpError("output size " + DimsToString(out) + " is not positive for Input " +
                     DimsToString(in) + " and Filter " + DimsToString(f));
    }
  }
  param_.output->Resize(out);
  param_.output->set_lod(param_.input->lod());
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(conv3d, lite::operators::Conv3dOp);
DECLARE_LITE_OP_ATTR_VALUES(conv3d, padding_algorithm, "EXPLICIT", "SAME", "VALID");
