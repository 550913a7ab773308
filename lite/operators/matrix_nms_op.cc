#include "lite/operators/matrix_nms_op.h"

#include "lite/operators/op_with_param.h"

namespace lite {
namespace operators {

namespace {

class MatrixNmsOp : public OpWithParam<MatrixNmsParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

}  // namespace

Status MatrixNmsOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * b, Input("BBoxes"));
  ASSIGN_OR_RETURN(Tensor * s, Input("Scores"));
  param_.bboxes = b;
  param_.scores = s;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  param_.index = OptionalOutput("Index");
  param_.rois_num = OptionalOutput("RoisNum");
  for (const char* required : {"score_threshold", "nms_top_k", "keep_top_k"}) {
    if (!desc.HasAttr(required)) {
      return OpError(std::string("missing required attribute '") + required + "'");
    }
  }
  param_.score_threshold = desc.GetAttr<float>("score_threshold", 0.f);
  param_.nms_top_k = desc.GetAttr<int32_t>("nms_top_k", -1);
  param_.keep_top_k = desc.GetAttr<int32_t>("keep_top_k", -1);
  param_.post_threshold = desc.GetAttr<float>("post_threshold", 0.f);
  param_.use_gaussian = desc.GetAttr<bool>("use_gaussian", false);
  param_.gaussian_sigma = desc.GetAttr<float>("gaussian_sigma", 2.f);
  param_.background_label = desc.GetAttr<int32_t>("background_label", 0);
  param_.normalized = desc.GetAttr<bool>("normalized", true);
  return Status::OK();
}

Status MatrixNmsOp::CheckShape() const {
  if (param_.use_gaussian && !(param_.gaussian_sigma > 0.f)) {
    return OpError("gaussian_sigma must be > 0 with use_gaussian");
  }
  return Status::OK();
}

Status MatrixNmsOp::InferShape() {
  const DDim& bd = param_.bboxes->dims();
  const DDim& sd = param_.scores->dims();
  if (sd.size() != 3 || bd.size() != 3 || bd[0] != sd[0] || bd[1] != sd[2]) {
    return OpError("BBoxes " + DimsToString(bd) + " must be [N, M, 4] for Scores [N, C, M] " +
                   DimsToString(sd));
  }
  if (bd[2] != 4) return OpError("BBoxes must hold 4 values per box, got " + std::to_string(bd[2]));
  // Placeholder: the number of kept boxes is known only after the kernel ran.
  param_.out->Resize({0, 6});
  param_.out->set_dtype(DataType::kFloat32);
  if (param_.index) {
    param_.index->Resize({0, 1});
    param_.index->set_dtype(DataType::kInt32);
  }
  if (param_.rois_num) {
    param_.rois_num->Resize({bd[0]});
    param_.rois_num->set_dtype(DataType::kInt32);
  }
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(matrix_nms, lite::operators::MatrixNmsOp);
