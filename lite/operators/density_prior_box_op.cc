#include "lite/operators/density_prior_box_op.h"

#include "lite/operators/op_with_param.h"

namespace lite {
namespace operators {

namespace {

class DensityPriorBoxOp : public OpWithParam<DensityPriorBoxParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

}  // namespace

Status DensityPriorBoxOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * input, Input("Input"));
  ASSIGN_OR_RETURN(Tensor * image, Input("Image"));
  param_.input = input;
  param_.image = image;
  ASSIGN_OR_RETURN(param_.boxes, Output("Boxes"));
  ASSIGN_OR_RETURN(param_.variances, Output("Variances"));
  param_.fixed_sizes = desc.GetAttr<std::vector<float>>("fixed_sizes", {});
  param_.fixed_ratios = desc.GetAttr<std::vector<float>>("fixed_ratios", {});
  param_.densities = desc.GetAttr<std::vector<int32_t>>("densities", {});
  param_.variance = desc.GetAttr<std::vector<float>>("variances", {0.1f, 0.1f, 0.2f, 0.2f});
  param_.clip = desc.GetAttr<bool>("clip", false);
  param_.flatten_to_2d = desc.GetAttr<bool>("flatten_to_2d", false);
  param_.step_w = desc.GetAttr<float>("step_w", 0.f);
  param_.step_h = desc.GetAttr<float>("step_h", 0.f);
  param_.offset = desc.GetAttr<float>("offset", 0.5f);
  return Status::OK();
}

Status DensityPriorBoxOp::CheckShape() const {
  const auto& p = param_;
  if (p.fixed_sizes.empty()) return OpError("fixed_sizes is empty");
  if (p.fixed_ratios.empty()) return OpError("fixed_ratios is empty");
  if (p.densities.size() != p.fixed_sizes.size()) {
    return OpError("densities (" + std::to_string(p.densities.size()) +
                   ") must be as many as fixed_sizes (" + std::to_string(p.fixed_sizes.size()) +
                   ")");
  }
  for (size_t i = 0; i < p.fixed_sizes.size(); ++i) {
    if (!(p.fixed_sizes[i] > 0.f)) {
      return OpError("fixed_sizes[" + std::to_string(i) + "] must be > 0");
    }
    if (p.densities[i] <= 0) return OpError("densities[" + std::to_string(i) + "] must be > 0");
  }
  for (float r : p.fixed_ratios) {
    if (!(r > 0.f)) return OpError("fixed_ratios must be > 0");
  }
  if (p.variance.size() != 4) return OpError("variances must hold 4 values");
  if (p.step_w < 0.f || p.step_h < 0.f) return OpError("step_w and step_h must be >= 0");
  return Status::OK();
}

Status DensityPriorBoxOp::InferShape() {
  const DDim& in = param_.input->dims();
  const DDim& img = param_.image->dims();
  if (in.size() != 4 || img.size() != 4) {
    return OpError("Input " + DimsToString(in) + " and Image " + DimsToString(img) +
                   " must be 4-D NCHW");
  }
  const int64_t priors = param_.num_priors();
  const DDim out = param_.flatten_to_2d ? DDim{in[2] * in[3] * priors, 4}
                                        : DDim{in[2], in[3], priors, 4};
  for (Tensor* t : {param_.boxes, param_.variances}) {
    t->Resize(out);
    t->set_dtype(DataType::kFloat32);
  }
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(density_prior_box, lite::operators::DensityPriorBoxOp);
