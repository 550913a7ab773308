// Detection post-processing ops: yolo_box and multiclass_nms / 2 / 3.
//
// yolo_box decodes a YOLOv3 head X [N, A*(5+C), H, W] (A = anchors/2; with
// iou_aware an extra A IoU channels lead each batch) against ImgSize [N, 2]
// (h, w; int) into Boxes [N, A*H*W, 4] and Scores [N, A*H*W, C]; entries whose
// confidence is below conf_thresh stay 0.
//
// multiclass_nms* run Paddle's per-class greedy NMS (score_threshold,
// nms_top_k, adaptive nms_eta) and then keep_top_k across classes. BBoxes
// [N, M, 4] with Scores [N, C, M], or BBoxes [M, C, 4] with Scores [M, C]
// split per image by RoisNum (multiclass_nms3) or BBoxes' LoD. Out is
// [K, 6] rows (label, score, x1, y1, x2, y2), grouped per image and, within
// an image, by ascending label (Paddle's order), with LoD {0, k0, k0+k1...}.
// Index (int32 [K, 1]) and NmsRoisNum (int32 [N]) are optional outputs. With
// no detection at all, Out is [0, 6] (Paddle 2.x; Paddle's v1 multiclass_nms
// kernel returns [[-1]] instead). Out's dims are only known after the kernel
// runs; InferShape sets a [0, 6] placeholder.
#pragma once

#include <vector>

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct YoloBoxParam : OpParam {
  const Tensor* x = nullptr;
  const Tensor* img_size = nullptr;
  Tensor* boxes = nullptr;
  Tensor* scores = nullptr;
  std::vector<int> anchors;
  int class_num = 0;
  float conf_thresh = 0.01f;
  int downsample_ratio = 32;
  bool clip_bbox = true;
  float scale_x_y = 1.f;
  bool iou_aware = false;
  float iou_aware_factor = 0.5f;
};

struct MulticlassNmsParam : OpParam {
  const Tensor* bboxes = nullptr;
  const Tensor* scores = nullptr;
  const Tensor* rois_num = nullptr;  // optional (2-D scores)
  Tensor* out = nullptr;
  Tensor* index = nullptr;         // optional
  Tensor* nms_rois_num = nullptr;  // optional
  int background_label = 0;
  float score_threshold = 0.f;
  int nms_top_k = -1;
  float nms_threshold = 0.3f;
  float nms_eta = 1.f;
  int keep_top_k = -1;
  bool normalized = true;
};

}  // namespace operators
}  // namespace lite
