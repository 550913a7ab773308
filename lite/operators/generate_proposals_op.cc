#include "lite/operators/generate_proposals_op.h"

#include "lite/operators/op_with_param.h"

namespace lite {
namespace operators {

namespace {

// The op types GenerateProposalsOp serves.
enum class GenerateProposalsOpKind { kGenerateProposals, kGenerateProposalsV2 };

class GenerateProposalsOp : public OpWithParam<GenerateProposalsParam> {
 public:
  GenerateProposalsOp(std::string type, GenerateProposalsOpKind kind)
      : OpWithParam<GenerateProposalsParam>(std::move(type)), kind_(kind) {}
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  const GenerateProposalsOpKind kind_;
};

}  // namespace

Status GenerateProposalsOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  param_.v2 = kind_ == GenerateProposalsOpKind::kGenerateProposalsV2;
  ASSIGN_OR_RETURN(Tensor * scores, Input("Scores"));
  ASSIGN_OR_RETURN(Tensor * deltas, Input("BboxDeltas"));
  ASSIGN_OR_RETURN(Tensor * info, Input(param_.v2 ? "ImShape" : "ImInfo"));
  ASSIGN_OR_RETURN(Tensor * anchors, Input("Anchors"));
  ASSIGN_OR_RETURN(Tensor * variances, Input("Variances"));
  param_.scores = scores;
  param_.bbox_deltas = deltas;
  param_.im_info = info;
  param_.anchors = anchors;
  param_.variances = variances;
  ASSIGN_OR_RETURN(param_.rpn_rois, Output("RpnRois"));
  ASSIGN_OR_RETURN(param_.rpn_roi_probs, Output("RpnRoiProbs"));
  param_.rpn_rois_num = OptionalOutput("RpnRoisNum");
  param_.pre_nms_top_n = desc.GetAttr<int32_t>("pre_nms_topN", 6000);
  param_.post_nms_top_n = desc.GetAttr<int32_t>("post_nms_topN", 1000);
  param_.nms_thresh = desc.GetAttr<float>("nms_thresh", 0.5f);
  param_.min_size = desc.GetAttr<float>("min_size", 0.1f);
  param_.eta = desc.GetAttr<float>("eta", 1.f);
  if (!param_.v2 && desc.HasAttr("pixel_offset") && !desc.GetAttr<bool>("pixel_offset", true)) {
    return OpError("pixel_offset = false needs generate_proposals_v2");
  }
  param_.pixel_offset = param_.v2 ? desc.GetAttr<bool>("pixel_offset", true) : true;
  return Status::OK();
}

Status GenerateProposalsOp::CheckShape() const {
  if (!(param_.eta > 0.f)) return OpError("eta must be > 0");
  return Status::OK();
}

Status GenerateProposalsOp::InferShape() {
  const auto& p = param_;
  const DDim& sd = p.scores->dims();
  const DDim& dd = p.bbox_deltas->dims();
  if (sd.size() != 4) return OpError("Scores must be [N, A, H, W], got " + DimsToString(sd));
  if (dd.size() != 4 || dd[0] != sd[0] || dd[1] != 4 * sd[1] || dd[2] != sd[2] ||
      dd[3] != sd[3]) {
    return OpError("BboxDeltas " + DimsToString(dd) + " must be [N, 4A, H, W] for Scores " +
                   DimsToString(sd));
  }
  const int64_t boxes = sd[1] * sd[2] * sd[3] * 4;
  if (p.anchors->numel() != boxes || p.variances->numel() != boxes) {
    return OpError("Anchors " + DimsToString(p.anchors->dims()) + " and Variances " +
                   DimsToString(p.variances->dims()) + " must hold H * W * A * 4 = " +
                   std::to_string(boxes) + " values");
  }
  const DDim& id = p.im_info->dims();
  const int64_t info_len = p.v2 ? 2 : 3;
  if (id.size() != 2 || id[0] != sd[0] || id[1] < info_len) {
    return OpError(std::string(p.v2 ? "ImShape" : "ImInfo") + " must be [N, " +
                   std::to_string(info_len) + "], got " + DimsToString(id));
  }
  // Placeholders: the number of proposals is known only after the kernel ran.
  p.rpn_rois->Resize({0, 4});
  p.rpn_rois->set_dtype(DataType::kFloat32);
  p.rpn_roi_probs->Resize({0, 1});
  p.rpn_roi_probs->set_dtype(DataType::kFloat32);
  if (p.rpn_rois_num) {
    p.rpn_rois_num->Resize({sd[0]});
    p.rpn_rois_num->set_dtype(DataType::kInt32);
  }
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP_KIND(generate_proposals, lite::operators::GenerateProposalsOp,
                      lite::operators::GenerateProposalsOpKind::kGenerateProposals);
REGISTER_LITE_OP_KIND(generate_proposals_v2, lite::operators::GenerateProposalsOp,
                      lite::operators::GenerateProposalsOpKind::kGenerateProposalsV2);
