// Box helpers shared by the host detection kernels (multiclass_nms,
// matrix_nms, generate_proposals, distribute_fpn_proposals, ...), written
// after Paddle's detection functions so every kernel scores overlaps the
// same way.
//
// Boxes are 4 floats (x1, y1, x2, y2). `normalized` boxes live in [0, 1]
// and have width x2 - x1; pixel boxes (normalized == false) count both end
// pixels: width x2 - x1 + 1. Pure functions; callers own all buffers.
#pragma once

#include <cstdint>
#include <utility>
#include <string>
#include <vector>

#include "lite/base/tensor.h"
#include "lite/utils/status.h"

namespace lite {
namespace kernels {
namespace host {

// Area of `b`; 0 for an inverted box.
float BoxArea(const float* b, bool normalized);

// Intersection over union of `a` and `b`; 0 when they do not touch.
float JaccardOverlap(const float* a, const float* b, bool normalized);

// Indices of `scores[0..n)` ordered by descending score; ties keep
// ascending index (stable), so the order never depends on the sort.
std::vector<int> SortByScoreDesc(const float* scores, int64_t n);

// Where each image's boxes start among the `total` rows of `boxes`:
// {0, n0, n0 + n1, ..., total}, from `rois_num` (int [N]) when given, else
// from the last LoD level of `boxes`, else (with `single_image_fallback`)
// all rows for one image. Errors name `what` (the op) and say which
// source disagrees with `total`.
StatusOr<std::vector<int64_t>> BoxImageOffsets(const Tensor* rois_num, const Tensor& boxes,
                                               int64_t total, bool single_image_fallback,
                                               const std::string& what);

// The shared tail of the prior-box kernels: with `clip`, boxes[0..n) are
// clamped to [0, 1]; var[i] = variance[i % 4].
void ClipBoxesAndFillVariances(float* boxes, float* var, int64_t n, bool clip,
                               const std::vector<float>& variance);

// Paddle's greedy NMS over `order` (candidate indices, best first): a box
// is kept when its overlap with every kept box is <= the threshold, which
// after each kept box is multiplied by `eta` while eta < 1 and the
// threshold > 0.5. Box i is `boxes + i * box_stride`. Returns kept indices
// in `order`'s order.
std::vector<int> GreedyNms(const std::vector<int>& order, const float* boxes, int64_t box_stride,
                           float threshold, float eta, bool normalized);

}  // namespace host
}  // namespace kernels
}  // namespace lite
