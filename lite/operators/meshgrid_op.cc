#include "lite/operators/meshgrid_op.h"

#include "lite/operators/op_with_param.h"

namespace lite {
namespace operators {

namespace {

class MeshgridOp : public OpWithParam<MeshgridParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

}  // namespace

Status MeshgridOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  for (Tensor* t : InputList("X")) param_.xs.push_back(t);
  param_.outs = OutputList("Out");
  return Status::OK();
}

Status MeshgridOp::CheckShape() const {
  if (param_.xs.empty()) return OpError("input X list is empty");
  if (param_.xs.size() != param_.outs.size()) {
    return OpError(std::to_string(param_.xs.size()) + " inputs but " +
                   std::to_string(param_.outs.size()) + " outputs");
  }
  return Status::OK();
}

Status MeshgridOp::InferShape() {
  DDim grid;
  for (size_t i = 0; i < param_.xs.size(); ++i) {
    const Tensor* x = param_.xs[i];
    if (x->dims().size() > 1) {
      return OpError("input " + std::to_string(i) + " must be 1-D, got " +
                     DimsToString(x->dims()));
    }
    if (x->dtype() != param_.xs[0]->dtype()) {
      return OpError("input " + std::to_string(i) + " is " + DataTypeName(x->dtype()) +
                     " but input 0 is " + DataTypeName(param_.xs[0]->dtype()));
    }
    grid.push_back(x->numel());
  }
  for (Tensor* out : param_.outs) {
    out->Resize(grid);
    out->set_dtype(param_.xs[0]->dtype());
  }
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(meshgrid, lite::operators::MeshgridOp);
