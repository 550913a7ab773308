// generate_proposals and generate_proposals_v2: the RPN head of Faster /
// Mask R-CNN turned into region proposals. Scores [N, A, H, W],
// BboxDeltas [N, 4A, H, W], Anchors and Variances [H, W, A, 4] (or any
// shape of H * W * A * 4 values), and per image ImInfo [N, 3] (h, w, scale;
// v1) or ImShape [N, 2] (h, w; v2).
//
// Per image: the H * W * A anchors by descending score (stable), cut to
// pre_nms_topN (> 0); deltas decoded against the anchors (box_coder's
// decode_center_size with the variances, exp clamped at log(1000 / 16));
// boxes clipped to the image; boxes narrower or lower than
// max(min_size, 1) dropped (v1 measures them at the original scale,
// im_info[2], and also drops boxes whose centre is outside the image);
// greedy NMS at nms_thresh with the adaptive eta, cut to post_nms_topN
// (> 0). nms_thresh <= 0 skips NMS and the post cut. When no box survives
// the filter, the image yields one zero box with score 0 (as Paddle does).
// pixel_offset (v2 only; v1 always true) counts both end pixels of a box
// (+1 widths, IoU on pixels).
//
// RpnRois [K, 4] and RpnRoiProbs [K, 1] hold all images' proposals with
// LoD {0, k0, k0 + k1, ...}; RpnRoisNum (optional) int32 [N]. K is known
// only after the kernel ran; InferShape sets [0, 4] / [0, 1]. Owned by
// lite/operators.
#pragma once

#include <string>

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct GenerateProposalsParam : OpParam {
  const Tensor* scores = nullptr;
  const Tensor* bbox_deltas = nullptr;
  const Tensor* im_info = nullptr;  // ImInfo (v1) or ImShape (v2)
  const Tensor* anchors = nullptr;
  const Tensor* variances = nullptr;
  Tensor* rpn_rois = nullptr;
  Tensor* rpn_roi_probs = nullptr;
  Tensor* rpn_rois_num = nullptr;  // optional
  bool v2 = false;
  int pre_nms_top_n = 6000;
  int post_nms_top_n = 1000;
  float nms_thresh = 0.5f;
  float min_size = 0.1f;
  float eta = 1.f;
  bool pixel_offset = true;
};

}  // namespace operators
}  // namespace lite
