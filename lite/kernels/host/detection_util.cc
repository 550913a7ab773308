#include "lite/kernels/host/detection_util.h"

#include <algorithm>
#include <numeric>

#include "lite/operators/tensor_util.h"

namespace lite {
namespace kernels {
namespace host {

float BoxArea(const float* b, bool normalized) {
  if (b[2] < b[0] || b[3] < b[1]) return 0.f;
  const float w = b[2] - b[0];
  const float h = b[3] - b[1];
  return normalized ? w * h : (w + 1) * (h + 1);
}

float JaccardOverlap(const float* a, const float* b, bool normalized) {
  if (b[0] > a[2] || b[2] < a[0] || b[1] > a[3] || b[3] < a[1]) return 0.f;
  const float ix0 = std::max(a[0], b[0]);
  const float iy0 = std::max(a[1], b[1]);
  const float ix1 = std::min(a[2], b[2]);
  const float iy1 = std::min(a[3], b[3]);
  const float norm = normalized ? 0.f : 1.f;
  const float iw = ix1 - ix0 + norm;
  const float ih = iy1 - iy0 + norm;
  const float inter = iw * ih;
  return inter / (BoxArea(a, normalized) + BoxArea(b, normalized) - inter);
}

StatusOr<std::vector<int64_t>> BoxImageOffsets(const Tensor* rois_num, const Tensor& boxes,
                                               int64_t total, bool single_image_fallback,
                                               const std::string& what) {
  std::vector<int64_t> offsets;
  std::string source;
  if (rois_num) {
    source = "RoisNum";
    ASSIGN_OR_RETURN(std::vector<int64_t> counts,
                     operators::ReadIntTensor(*rois_num, what + ": RoisNum"));
    offsets.push_back(0);
    for (int64_t c : counts) {
      if (c < 0) return InvalidArgument(what + ": RoisNum holds a negative count");
      offsets.push_back(offsets.back() + c);
    }
  } else if (!boxes.lod().empty()) {
    source = "the LoD";
    for (uint64_t v : boxes.lod().back()) offsets.push_back(static_cast<int64_t>(v));
  } else if (single_image_fallback) {
    return std::vector<int64_t>{0, total};
  } else {
    return InvalidArgument(what + ": the boxes need RoisNum or a LoD to be split per image");
  }
  if (offsets.empty() || offsets.front() != 0 || offsets.back() != total) {
    return InvalidArgument(what + ": " + source + " covers " +
                           std::to_string(offsets.empty() ? 0 : offsets.back()) +
                           " boxes but there are " + std::to_string(total));
  }
  return offsets;
}

void ClipBoxesAndFillVariances(float* boxes, float* var, int64_t n, bool clip,
                               const std::vector<float>& variance) {
  if (clip) {
    for (int64_t i = 0; i < n; ++i) boxes[i] = std::min(std::max(boxes[i], 0.f), 1.f);
  }
  for (int64_t i = 0; i < n; ++i) var[i] = variance[i % 4];
}

std::vector<int> SortByScoreDesc(const float* scores, int64_t n) {
  std::vector<int> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [scores](int a, int b) { return scores[a] > scores[b]; });
  return order;
}

std::vector<int> GreedyNms(const std::vector<int>& order, const float* boxes, int64_t box_stride,
                           float threshold, float eta, bool normalized) {
  std::vector<int> selected;
  for (int idx : order) {
    bool keep = true;
    for (int kept : selected) {
      // Written as Paddle does, so a NaN overlap suppresses too.
      keep = JaccardOverlap(boxes + idx * box_stride, boxes + kept * box_stride, normalized) <=
             threshold;
      if (!keep) break;
    }
    if (keep) {
      selected.push_back(idx);
      if (eta < 1.f && threshold > 0.5f) threshold *= eta;
    }
  }
  return selected;
}

}  // namespace host
}  // namespace kernels
}  // namespace lite
