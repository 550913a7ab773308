#include "lite/operators/box_coder_op.h"

#include "lite/operators/op_with_param.h"

#include <string>

namespace lite {
namespace operators {

namespace {

class BoxCoderOp : public OpWithParam<BoxCoderParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

}  // namespace

Status BoxCoderOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * prior, Input("PriorBox"));
  ASSIGN_OR_RETURN(Tensor * target, Input("TargetBox"));
  param_.prior = prior;
  param_.target = target;
  param_.prior_var = OptionalInput("PriorBoxVar");
  ASSIGN_OR_RETURN(param_.out, Output("OutputBox"));
  const std::string code = desc.GetAttr<std::string>("code_type", "encode_center_size");
  if (code != "encode_center_size" && code != "decode_center_size") {
    return OpError("code_type '" + code + "' is not supported");
  }
  param_.encode = code == "encode_center_size";
  param_.normalized = desc.GetAttr<bool>("box_normalized", true);
  param_.axis = desc.GetAttr<int32_t>("axis", 0);
  param_.variance = desc.GetAttr<std::vector<float>>("variance", {});
  return Status::OK();
}

Status BoxCoderOp::CheckShape() const {
  if (param_.axis != 0 && param_.axis != 1) {
    return OpError("axis must be 0 or 1, got " + std::to_string(param_.axis));
  }
  if (!param_.variance.empty() && param_.variance.size() != 4) {
    return OpError("variance must hold 4 values, got " + std::to_string(param_.variance.size()));
  }
  return Status::OK();
}

Status BoxCoderOp::InferShape() {
  const DDim& pd = param_.prior->dims();
  const DDim& td = param_.target->dims();
  if (pd.size() != 2 || pd[1] != 4) return OpError("PriorBox must be [M, 4], got " + DimsToString(pd));
  if (param_.prior_var && param_.prior_var->dims() != pd) {
    return OpError("PriorBoxVar " + DimsToString(param_.prior_var->dims()) +
                   " must match PriorBox " + DimsToString(pd));
  }
  if (param_.encode) {
    if (td.size() != 2 || td[1] != 4) {
      return OpError("TargetBox must be [N, 4] to encode, got " + DimsToString(td));
    }
    param_.out->Resize({td[0], pd[0], 4});
  } else {
    if (td.size() != 3 || td[2] != 4 || td[param_.axis == 0 ? 1 : 0] != pd[0]) {
      return OpError("TargetBox " + DimsToString(td) + " must be [N, M, 4] with M = " +
                     std::to_string(pd[0]) + " priors on axis " +
                     std::to_string(param_.axis == 0 ? 1 : 0));
    }
    param_.out->Resize(td);
  }
  param_.out->set_dtype(DataType::kFloat32);
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(box_coder, lite::operators::BoxCoderOp);
