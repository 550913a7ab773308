#include "lite/operators/box_clip_op.h"

#include "lite/operators/op_with_param.h"

namespace lite {
namespace operators {

namespace {

class BoxClipOp : public OpWithParam<BoxClipParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override { return Status::OK(); }
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

}  // namespace

Status BoxClipOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * input, Input("Input"));
  ASSIGN_OR_RETURN(Tensor * im_info, Input("ImInfo"));
  param_.input = input;
  param_.im_info = im_info;
  ASSIGN_OR_RETURN(param_.out, Output("Output"));
  return Status::OK();
}

Status BoxClipOp::InferShape() {
  const DDim& d = param_.input->dims();
  const DDim& info = param_.im_info->dims();
  if (info.size() != 2 || info[1] != 3) {
    return OpError("ImInfo must be [N, 3], got " + DimsToString(info));
  }
  if (d.empty() || d.back() != 4 || (d.size() != 2 && d.size() != 3)) {
    return OpError("Input must be [N, M, 4] or [K, 4], got " + DimsToString(d));
  }
  const LoD& lod = param_.input->lod();
  const bool batched = d.size() == 3 ? d[0] == info[0]
                                     : (lod.empty() ? info[0] == 1
                                                    : lod.back().size() == size_t(info[0]) + 1);
  if (!batched) {
    return OpError("Input " + DimsToString(d) + " (LoD levels " + std::to_string(lod.size()) +
                   ") does not split into the " + std::to_string(info[0]) + " images of ImInfo");
  }
  param_.out->Resize(d);
  param_.out->set_dtype(DataType::kFloat32);
  param_.out->set_lod(lod);
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(box_clip, lite::operators::BoxClipOp);
