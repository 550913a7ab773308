#include "lite/operators/batch_norm_op.h"

#include <utility>

#include "lite/operators/channel_last.h"
#include "lite/operators/op_with_param.h"

namespace lite {
namespace operators {

namespace {

class BatchNormOp : public OpWithParam<BatchNormParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

}  // namespace

Status BatchNormOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  param_.scale = OptionalInput("Scale");
  param_.bias = OptionalInput("Bias");
  ASSIGN_OR_RETURN(Tensor * mean, Input("Mean"));
  ASSIGN_OR_RETURN(Tensor * variance, Input("Variance"));
  param_.mean = mean;
  param_.variance = variance;
  ASSIGN_OR_RETURN(param_.y, Output("Y"));
  param_.mean_out = OptionalOutput("MeanOut");
  param_.variance_out = OptionalOutput("VarianceOut");
  param_.saved_mean = OptionalOutput("SavedMean");
  param_.saved_variance = OptionalOutput("SavedVariance");
  param_.epsilon = desc.GetAttr<float>("epsilon", 1e-5f);
  param_.data_layout = desc.GetAttr<std::string>("data_layout", "NCHW");
  const std::string& l = param_.data_layout;
  if (l != "NCHW" && l != "NCDHW" && l != "AnyLayout") {
    return ChannelLastUnsupported(DebugName(), "data_layout", l);
  }
  if (param_.epsilon < 0.f) {
    return OpError("attribute epsilon must be >= 0, got " + std::to_string(param_.epsilon));
  }
  return Status::OK();
}

Status BatchNormOp::CheckShape() const {
  const DDim& xd = param_.x->dims();
  if (xd.size() < 2 || xd.size() > 5) {
    return OpError("input X must be 2-D to 5-D, got " + DimsToString(xd));
  }
  const int64_t c = xd[1];
  const std::pair<const char*, const Tensor*> vecs[] = {{"Scale", param_.scale},
                                                        {"Bias", param_.bias},
                                                        {"Mean", param_.mean},
                                                        {"Variance", param_.variance}};
  for (const auto& v : vecs) {
    if (v.second && v.second->numel() != c) {
      return OpError(std::string("input ") + v.first + " must hold C = " +
                     std::to_string(c) + " values, got dims " +
                     DimsToString(v.second->dims()));
    }
  }
  return Status::OK();
}

Status BatchNormOp::InferShape() {
  const DDim& xd = param_.x->dims();
  if (xd.size() < 2) return OpError("input X must be 2-D to 5-D, got " + DimsToString(xd));
  param_.y->Resize(xd);
  param_.y->set_lod(param_.x->lod());
  const DDim c_dims = {xd[1]};
  for (Tensor* t : {param_.mean_out, param_.variance_out, param_.saved_mean,
                    param_.saved_variance}) {
    if (t) t->Resize(c_dims);
  }
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(batch_norm, lite::operators::BatchNormOp);
