#include "lite/operators/anchor_generator_op.h"

#include "lite/operators/op_with_param.h"

namespace lite {
namespace operators {

namespace {

class AnchorGeneratorOp : public OpWithParam<AnchorGeneratorParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

}  // namespace

Status AnchorGeneratorOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * input, Input("Input"));
  param_.input = input;
  ASSIGN_OR_RETURN(param_.anchors, Output("Anchors"));
  ASSIGN_OR_RETURN(param_.variances, Output("Variances"));
  param_.anchor_sizes = desc.GetAttr<std::vector<float>>("anchor_sizes", {});
  param_.aspect_ratios = desc.GetAttr<std::vector<float>>("aspect_ratios", {});
  param_.variance = desc.GetAttr<std::vector<float>>("variances", {0.1f, 0.1f, 0.2f, 0.2f});
  param_.stride = desc.GetAttr<std::vector<float>>("stride", {16.f, 16.f});
  param_.offset = desc.GetAttr<float>("offset", 0.5f);
  return Status::OK();
}

Status AnchorGeneratorOp::CheckShape() const {
  if (param_.anchor_sizes.empty() || param_.aspect_ratios.empty()) {
    return OpError("anchor_sizes and aspect_ratios must not be empty");
  }
  for (float r : param_.aspect_ratios) {
    if (r <= 0.f) return OpError("aspect_ratios must be > 0");
  }
  if (param_.stride.size() != 2 || param_.stride[0] <= 0.f || param_.stride[1] <= 0.f) {
    return OpError("stride must hold 2 positive values");
  }
  if (param_.variance.size() != 4) return OpError("variances must hold 4 values");
  return Status::OK();
}

Status AnchorGeneratorOp::InferShape() {
  const DDim& in = param_.input->dims();
  if (in.size() != 4) return OpError("Input must be 4-D NCHW, got " + DimsToString(in));
  const int64_t per_cell =
      static_cast<int64_t>(param_.anchor_sizes.size() * param_.aspect_ratios.size());
  for (Tensor* t : {param_.anchors, param_.variances}) {
    t->Resize({in[2], in[3], per_cell, 4});
    t->set_dtype(DataType::kFloat32);
  }
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(anchor_generator, lite::operators::AnchorGeneratorOp);
