#include "lite/operators/grid_sampler_op.h"

#include "lite/operators/op_with_param.h"

namespace lite {
namespace operators {

namespace {

class GridSamplerOp : public OpWithParam<GridSamplerParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

}  // namespace

Status GridSamplerOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  ASSIGN_OR_RETURN(Tensor * grid, Input("Grid"));
  param_.x = x;
  param_.grid = grid;
  ASSIGN_OR_RETURN(param_.out, Output("Output"));
  const std::string mode = desc.GetAttr<std::string>("mode", "bilinear");
  if (mode != "bilinear" && mode != "nearest") {
    return OpError("mode '" + mode + "' is not supported (bilinear, nearest)");
  }
  param_.bilinear = mode == "bilinear";
  param_.padding_mode = desc.GetAttr<std::string>("padding_mode", "zeros");
  const std::string& pad = param_.padding_mode;
  if (pad != "zeros" && pad != "border" && pad != "reflection") {
    return OpError("padding_mode '" + pad + "' is not supported (zeros, border, reflection)");
  }
  param_.align_corners = desc.GetAttr<bool>("align_corners", true);
  return Status::OK();
}

Status GridSamplerOp::CheckShape() const {
  for (const Tensor* t : {param_.x, param_.grid}) {
    if (t->dtype() != DataType::kFloat32 && t->dtype() != DataType::kUnknown) {
      return OpError(std::string("X and Grid must be float32, got ") + DataTypeName(t->dtype()));
    }
  }
  return Status::OK();
}

Status GridSamplerOp::InferShape() {
  const DDim& xd = param_.x->dims();
  const DDim& gd = param_.grid->dims();
  if (xd.size() != 4 || gd.size() != 4 || gd[3] != 2 || gd[0] != xd[0]) {
    return OpError("X " + DimsToString(xd) + " and Grid " + DimsToString(gd) +
                   " must be [N, C, H, W] and [N, Ho, Wo, 2]");
  }
  param_.out->Resize({xd[0], xd[1], gd[1], gd[2]});
  param_.out->set_dtype(DataType::kFloat32);
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(grid_sampler, lite::operators::GridSamplerOp);
