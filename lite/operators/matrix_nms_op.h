// matrix_nms (SOLOv2's Matrix NMS): instead of dropping overlapping boxes,
// every box's score decays by its overlaps with the higher-scored boxes of
// its class, all at once. BBoxes [N, M, 4], Scores [N, C, M].
//
// Per image and class (not background_label): boxes with score >
// score_threshold, best first (stable), cut to nms_top_k; box i's decayed
// score is score_i * min over j < i of decay(iou_ij, max_iou_j), where
// max_iou_j is box j's largest IoU with a box before it, and decay is
// (1 - iou) / (1 - max_iou), or exp((max_iou^2 - iou^2) * gaussian_sigma)
// with use_gaussian. The best box keeps its score. Boxes whose (decayed)
// score is <= post_threshold go. All classes of an image are then ordered
// by decayed score (stable: class, then rank) and cut to keep_top_k.
//
// Out [K, 6] rows (label, decayed score, x1, y1, x2, y2) grouped per image
// with LoD {0, k0, k0 + k1, ...}; Index int32 [K, 1] is image * M + box;
// RoisNum (optional) int32 [N] the rows per image. Out's dims are known
// only after the kernel ran; InferShape sets [0, 6]. Owned by
// lite/operators.
#pragma once

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct MatrixNmsParam : OpParam {
  const Tensor* bboxes = nullptr;
  const Tensor* scores = nullptr;
  Tensor* out = nullptr;
  Tensor* index = nullptr;     // optional
  Tensor* rois_num = nullptr;  // optional
  float score_threshold = 0.f;
  float post_threshold = 0.f;
  int nms_top_k = -1;
  int keep_top_k = -1;
  bool use_gaussian = false;
  float gaussian_sigma = 2.f;
  int background_label = 0;
  bool normalized = true;
};

}  // namespace operators
}  // namespace lite
