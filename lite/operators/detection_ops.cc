#include "lite/operators/detection_ops.h"

#include "lite/operators/op_with_param.h"

namespace lite {
namespace operators {

namespace {

class YoloBoxOp : public OpWithParam<YoloBoxParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

class MulticlassNmsOp : public OpWithParam<MulticlassNmsParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

}  // namespace

// ---- yolo_box ----
Status YoloBoxOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  ASSIGN_OR_RETURN(Tensor * img, Input("ImgSize"));
  param_.img_size = img;
  ASSIGN_OR_RETURN(param_.boxes, Output("Boxes"));
  ASSIGN_OR_RETURN(param_.scores, Output("Scores"));
  for (const char* required : {"anchors", "class_num"}) {
    if (!desc.HasAttr(required)) {
      return OpError(std::string("missing required attribute '") + required + "'");
    }
  }
  param_.anchors = desc.GetAttr<std::vector<int32_t>>("anchors", {});
  param_.class_num = desc.GetAttr<int32_t>("class_num", 0);
  param_.conf_thresh = desc.GetAttr<float>("conf_thresh", 0.01f);
  param_.downsample_ratio = desc.GetAttr<int32_t>("downsample_ratio", 32);
  param_.clip_bbox = desc.GetAttr<bool>("clip_bbox", true);
  param_.scale_x_y = desc.GetAttr<float>("scale_x_y", 1.f);
  param_.iou_aware = desc.GetAttr<bool>("iou_aware", false);
  param_.iou_aware_factor = desc.GetAttr<float>("iou_aware_factor", 0.5f);
  const std::string layout = desc.GetAttr<std::string>("data_format", "NCHW");
  if (layout != "NCHW" && layout != "AnyLayout") {
    return Unimplemented("op " + DebugName() + ": data_format '" + layout +
                         "' is not supported (NCHW only)");
  }
  return Status::OK();
}

Status YoloBoxOp::CheckShape() const {
  const auto& p = param_;
  if (p.anchors.empty() || p.anchors.size() % 2 != 0) {
    return OpError("anchors must hold a positive, even number of values");
  }
  if (p.class_num <= 0) return OpError("class_num must be > 0");
  if (p.downsample_ratio <= 0) return OpError("downsample_ratio must be > 0");
  if (!(p.scale_x_y > 0.f)) return OpError("scale_x_y must be > 0");
  if (p.iou_aware && (p.iou_aware_factor < 0.f || p.iou_aware_factor > 1.f)) {
    return OpError("iou_aware_factor must be in [0, 1]");
  }
  return Status::OK();
}

Status YoloBoxOp::InferShape() {
  const auto& p = param_;
  const DDim& xd = p.x->dims();
  const DDim& id = p.img_size->dims();
  if (xd.size() != 4) return OpError("X must be 4-D NCHW, got " + DimsToString(xd));
  if (id.size() != 2 || id[1] != 2) {
    return OpError("ImgSize must be [N, 2], got " + DimsToString(id));
  }
  if (id[0] != xd[0]) {
    return OpError("ImgSize batch " + std::to_string(id[0]) + " != X batch " +
                   std::to_string(xd[0]));
  }
  const int64_t an_num = static_cast<int64_t>(p.anchors.size() / 2);
  const int64_t want_c = an_num * (p.class_num + (p.iou_aware ? 6 : 5));
  if (xd[1] != want_c) {
    return OpError("X has " + std::to_string(xd[1]) + " channels, expected " +
                   std::to_string(want_c) + " = anchors/2 * (" +
                   (p.iou_aware ? "6" : "5") + " + class_num)");
  }
  const int64_t box_num = an_num * xd[2] * xd[3];
  param_.boxes->Resize({xd[0], box_num, 4});
  param_.scores->Resize({xd[0], box_num, p.class_num});
  param_.boxes->set_dtype(DataType::kFloat32);
  param_.scores->set_dtype(DataType::kFloat32);
  return Status::OK();
}

// ---- multiclass_nms / multiclass_nms2 / multiclass_nms3 ----
Status MulticlassNmsOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * b, Input("BBoxes"));
  param_.bboxes = b;
  ASSIGN_OR_RETURN(Tensor * s, Input("Scores"));
  param_.scores = s;
  param_.rois_num = OptionalInput("RoisNum");
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  param_.index = OptionalOutput("Index");
  param_.nms_rois_num = OptionalOutput("NmsRoisNum");
  for (const char* required : {"score_threshold", "nms_top_k", "keep_top_k"}) {
    if (!desc.HasAttr(required)) {
      return OpError(std::string("missing required attribute '") + required + "'");
    }
  }
  param_.background_label = desc.GetAttr<int32_t>("background_label", 0);
  param_.score_threshold = desc.GetAttr<float>("score_threshold", 0.f);
  param_.nms_top_k = desc.GetAttr<int32_t>("nms_top_k", -1);
  param_.nms_threshold = desc.GetAttr<float>("nms_threshold", 0.3f);
  param_.nms_eta = desc.GetAttr<float>("nms_eta", 1.f);
  param_.keep_top_k = desc.GetAttr<int32_t>("keep_top_k", -1);
  param_.normalized = desc.GetAttr<bool>("normalized", true);
  return Status::OK();
}

Status MulticlassNmsOp::CheckShape() const {
  // Paddle accepts any nms_threshold / nms_eta (eta >= 1 disables adaptation).
  if (!param_.bboxes || !param_.scores || !param_.out) {
    return OpError("BBoxes, Scores and Out must be bound");
  }
  return Status::OK();
}

Status MulticlassNmsOp::InferShape() {
  const DDim& bd = param_.bboxes->dims();
  const DDim& sd = param_.scores->dims();
  if (sd.size() == 3) {
    if (bd.size() != 3 || bd[0] != sd[0] || bd[1] != sd[2]) {
      return OpError("BBoxes " + DimsToString(bd) + " must be [N, M, 4] for Scores [N, C, M] " +
                     DimsToString(sd));
    }
  } else if (sd.size() == 2) {
    if (bd.size() != 3 || bd[0] != sd[0] || bd[1] != sd[1]) {
      return OpError("BBoxes " + DimsToString(bd) + " must be [M, C, 4] for Scores [M, C] " +
                     DimsToString(sd));
    }
  } else {
    return OpError("Scores must be 2-D or 3-D, got " + DimsToString(sd));
  }
  if (bd[2] != 4) {
    return Unimplemented("op " + DebugName() + ": only 4-value boxes are supported, got " +
                         std::to_string(bd[2]) + " (polygon NMS)");
  }
  // Placeholder: the number of kept boxes is known only after the kernel ran.
  param_.out->Resize({0, bd[2] + 2});
  param_.out->set_dtype(DataType::kFloat32);
  if (param_.index) {
    param_.index->Resize({0, 1});
    param_.index->set_dtype(DataType::kInt32);
  }
  if (param_.nms_rois_num) param_.nms_rois_num->set_dtype(DataType::kInt32);
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(yolo_box, lite::operators::YoloBoxOp);
REGISTER_LITE_OP(multiclass_nms, lite::operators::MulticlassNmsOp);
REGISTER_LITE_OP(multiclass_nms2, lite::operators::MulticlassNmsOp);
REGISTER_LITE_OP(multiclass_nms3, lite::operators::MulticlassNmsOp);
