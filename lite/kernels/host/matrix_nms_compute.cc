// Host fp32 kernel for matrix_nms (matrix_nms_op.h), following Paddle's CPU
// algorithm with stable sorts so equal scores keep a fixed order.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "lite/core/kernel.h"
#include "lite/kernels/host/detection_util.h"
#include "lite/operators/matrix_nms_op.h"

namespace lite {
namespace kernels {
namespace host {
namespace {

struct Kept {
  int box;
  int label;
  float score;
};

// Matrix NMS of one class: appends the surviving boxes to `kept`.
void DecayClass(const float* boxes, const float* scores, int64_t num_boxes, int label,
                const operators::MatrixNmsParam& p, std::vector<Kept>* kept) {
  std::vector<int> order;
  for (int i : SortByScoreDesc(scores, num_boxes)) {
    if (scores[i] > p.score_threshold) order.push_back(i);
  }
  if (p.nms_top_k > -1 && static_cast<int>(order.size()) > p.nms_top_k) {
    order.resize(p.nms_top_k);
  }
  const size_t n = order.size();
  if (n == 0) return;
  // iou[i][j] for j < i, and each box's largest IoU with a better box.
  std::vector<std::vector<float>> iou(n);
  std::vector<float> max_iou(n, 0.f);
  for (size_t i = 1; i < n; ++i) {
    for (size_t j = 0; j < i; ++j) {
      const float v = JaccardOverlap(boxes + order[i] * 4, boxes + order[j] * 4, p.normalized);
      iou[i].push_back(v);
      max_iou[i] = std::max(max_iou[i], v);
    }
  }
  if (scores[order[0]] > p.post_threshold) kept->push_back({order[0], label, scores[order[0]]});
  for (size_t i = 1; i < n; ++i) {
    float min_decay = 1.f;
    for (size_t j = 0; j < i; ++j) {
      const float decay =
          p.use_gaussian
              ? std::exp((max_iou[j] * max_iou[j] - iou[i][j] * iou[i][j]) * p.gaussian_sigma)
              : (1.f - iou[i][j]) / (1.f - max_iou[j]);
      min_decay = std::min(min_decay, decay);
    }
    const float decayed = min_decay * scores[order[i]];
    if (decayed > p.post_threshold) kept->push_back({order[i], label, decayed});
  }
}

}  // namespace

class MatrixNmsCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::MatrixNmsParam>();
    if (p.bboxes->dtype() != DataType::kFloat32 || p.scores->dtype() != DataType::kFloat32) {
      return Unimplemented("matrix_nms on non-float32 inputs");
    }
    const DDim& sd = p.scores->dims();
    const int64_t n = sd[0], classes = sd[1], m = sd[2];
    const float* boxes = p.bboxes->data<float>();
    const float* scores = p.scores->data<float>();
    if ((p.bboxes->numel() > 0 && !boxes) || (p.scores->numel() > 0 && !scores)) {
      return FailedPrecondition("matrix_nms: BBoxes or Scores has no data");
    }
    std::vector<std::vector<Kept>> per_image(n);
    std::vector<uint64_t> starts = {0};
    for (int64_t i = 0; i < n; ++i) {
      std::vector<Kept>& kept = per_image[i];
      for (int64_t c = 0; c < classes; ++c) {
        if (c == p.background_label) continue;
        DecayClass(boxes + i * m * 4, scores + (i * classes + c) * m, m, static_cast<int>(c), p,
                   &kept);
      }
      std::stable_sort(kept.begin(), kept.end(),
                       [](const Kept& a, const Kept& b) { return a.score > b.score; });
      if (p.keep_top_k > -1 && static_cast<int64_t>(kept.size()) > p.keep_top_k) {
        kept.resize(p.keep_top_k);
      }
      starts.push_back(starts.back() + kept.size());
    }
    const int64_t total = static_cast<int64_t>(starts.back());
    p.out->Resize({total, 6});
    float* out = p.out->mutable_data<float>();
    int32_t* index = nullptr;
    if (p.index) {
      p.index->Resize({total, 1});
      index = p.index->mutable_data<int32_t>();
    }
    int64_t row = 0;
    for (int64_t i = 0; i < n; ++i) {
      for (const Kept& k : per_image[i]) {
        float* o = out + row * 6;
        o[0] = static_cast<float>(k.label);
        o[1] = k.score;
        std::memcpy(o + 2, boxes + (i * m + k.box) * 4, 4 * sizeof(float));
        if (index) index[row] = static_cast<int32_t>(i * m + k.box);
        ++row;
      }
    }
    p.out->set_lod({starts});
    if (p.index) p.index->set_lod({starts});
    if (p.rois_num) {
      p.rois_num->Resize({n});
      int32_t* rn = p.rois_num->mutable_data<int32_t>();
      for (int64_t i = 0; i < n; ++i) rn[i] = static_cast<int32_t>(starts[i + 1] - starts[i]);
    }
    return Status::OK();
  }
};

}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(matrix_nms, kHost, kFloat, kNCHW, lite::kernels::host::MatrixNmsCompute, def)
    .BindOutput("Index", lite::Place(TARGET(kHost), PRECISION(kInt32)))
    .BindOutput("RoisNum", lite::Place(TARGET(kHost), PRECISION(kInt32)))
    .Finalize();
