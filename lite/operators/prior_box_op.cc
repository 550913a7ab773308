#include "lite/operators/prior_box_op.h"

#include "lite/operators/op_with_param.h"

#include <cmath>

namespace lite {
namespace operators {

namespace {

class PriorBoxOp : public OpWithParam<PriorBoxParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

}  // namespace

Status PriorBoxOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * input, Input("Input"));
  ASSIGN_OR_RETURN(Tensor * image, Input("Image"));
  param_.input = input;
  param_.image = image;
  ASSIGN_OR_RETURN(param_.boxes, Output("Boxes"));
  ASSIGN_OR_RETURN(param_.variances, Output("Variances"));
  param_.min_sizes = desc.GetAttr<std::vector<float>>("min_sizes", {});
  param_.max_sizes = desc.GetAttr<std::vector<float>>("max_sizes", {});
  param_.variance = desc.GetAttr<std::vector<float>>("variances", {0.1f, 0.1f, 0.2f, 0.2f});
  param_.clip = desc.GetAttr<bool>("clip", false);
  param_.step_w = desc.GetAttr<float>("step_w", 0.f);
  param_.step_h = desc.GetAttr<float>("step_h", 0.f);
  param_.offset = desc.GetAttr<float>("offset", 0.5f);
  param_.min_max_aspect_ratios_order = desc.GetAttr<bool>("min_max_aspect_ratios_order", false);
  const bool flip = desc.GetAttr<bool>("flip", false);
  param_.aspect_ratios = {1.f};
  for (float ar : desc.GetAttr<std::vector<float>>("aspect_ratios", {})) {
    bool seen = false;
    for (float have : param_.aspect_ratios) seen = seen || std::fabs(ar - have) < 1e-6f;
    if (seen) continue;
    param_.aspect_ratios.push_back(ar);
    if (flip) param_.aspect_ratios.push_back(1.f / ar);
  }
  return Status::OK();
}

Status PriorBoxOp::CheckShape() const {
  if (param_.min_sizes.empty()) return OpError("min_sizes is empty");
  for (float m : param_.min_sizes) {
    if (m <= 0.f) return OpError("min_sizes must be > 0, got " + std::to_string(m));
  }
  if (!param_.max_sizes.empty() && param_.max_sizes.size() != param_.min_sizes.size()) {
    return OpError("max_sizes must be empty or as many as min_sizes");
  }
  for (size_t i = 0; i < param_.max_sizes.size(); ++i) {
    if (param_.max_sizes[i] <= param_.min_sizes[i]) {
      return OpError("max_sizes[" + std::to_string(i) + "] must be > min_sizes[" +
                     std::to_string(i) + "]");
    }
  }
  if (param_.variance.size() != 4) return OpError("variances must hold 4 values");
  for (float ar : param_.aspect_ratios) {
    if (ar <= 0.f) return OpError("aspect_ratios must be > 0");
  }
  return Status::OK();
}

Status PriorBoxOp::InferShape() {
  const DDim& in = param_.input->dims();
  const DDim& img = param_.image->dims();
  if (in.size() != 4 || img.size() != 4) {
    return OpError("Input " + DimsToString(in) + " and Image " + DimsToString(img) +
                   " must be 4-D NCHW");
  }
  const DDim out{in[2], in[3], param_.num_priors(), 4};
  for (Tensor* t : {param_.boxes, param_.variances}) {
    t->Resize(out);
    t->set_dtype(DataType::kFloat32);
  }
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(prior_box, lite::operators::PriorBoxOp);
