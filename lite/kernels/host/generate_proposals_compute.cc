// Host fp32 kernel for generate_proposals(_v2) (generate_proposals_op.h):
// per image, rank anchors, decode, clip, filter, NMS, following Paddle's
// CPU kernel step by step with stable sorts.
#include <algorithm>
#include <cmath>
#include <vector>

#include "lite/core/kernel.h"
#include "lite/kernels/host/detection_util.h"
#include "lite/operators/generate_proposals_op.h"
#include "lite/operators/tensor_util.h"

namespace lite {
namespace kernels {
namespace host {
namespace {

// Largest log-scale a delta may apply to a width or height.
const float kBoxClip = std::log(1000.f / 16.f);

struct Proposals {
  std::vector<float> boxes;  // 4 per proposal
  std::vector<float> scores;
};

// Decodes anchor `a` by `d` (variances `v`) into `out`.
void Decode(const float* a, const float* d, const float* v, float offset, float* out) {
  const float aw = a[2] - a[0] + offset, ah = a[3] - a[1] + offset;
  const float acx = a[0] + 0.5f * aw, acy = a[1] + 0.5f * ah;
  const float cx = v[0] * d[0] * aw + acx;
  const float cy = v[1] * d[1] * ah + acy;
  const float w = std::exp(std::min(v[2] * d[2], kBoxClip)) * aw;
  const float h = std::exp(std::min(v[3] * d[3], kBoxClip)) * ah;
  out[0] = cx - w / 2;
  out[1] = cy - h / 2;
  out[2] = cx + w / 2 - offset;
  out[3] = cy + h / 2 - offset;
}

// `info` is (h, w[, scale]) of one image.
Proposals OneImage(const operators::GenerateProposalsParam& p, const float* info,
                   const std::vector<float>& scores, const std::vector<float>& deltas,
                   const float* anchors, const float* variances) {
  const float offset = p.pixel_offset ? 1.f : 0.f;
  std::vector<int> order = SortByScoreDesc(scores.data(), static_cast<int64_t>(scores.size()));
  if (p.pre_nms_top_n > 0 && p.pre_nms_top_n < static_cast<int>(order.size())) {
    order.resize(p.pre_nms_top_n);
  }
  const float im_h = info[0], im_w = info[1];
  const float im_scale = p.v2 ? 1.f : info[2];
  const float min_size = std::max(p.min_size, 1.f);
  Proposals kept;
  for (int idx : order) {
    float b[4];
    Decode(anchors + idx * 4, deltas.data() + idx * 4, variances + idx * 4, offset, b);
    for (int k = 0; k < 4; ++k) {
      const float limit = (k % 2 == 0 ? im_w : im_h) - offset;
      b[k] = std::max(std::min(b[k], limit), 0.f);
    }
    const float ws = b[2] - b[0] + offset, hs = b[3] - b[1] + offset;
    bool keep;
    if (p.pixel_offset) {
      const float x_ctr = b[0] + ws / 2, y_ctr = b[1] + hs / 2;
      keep = (b[2] - b[0]) / im_scale + 1 >= min_size && (b[3] - b[1]) / im_scale + 1 >= min_size &&
             x_ctr <= im_w && y_ctr <= im_h;
    } else {
      keep = ws >= min_size && hs >= min_size;
    }
    if (!keep) continue;
    kept.boxes.insert(kept.boxes.end(), b, b + 4);
    kept.scores.push_back(scores[idx]);
  }
  if (kept.scores.empty()) return Proposals{{0.f, 0.f, 0.f, 0.f}, {0.f}};
  if (p.nms_thresh <= 0.f) return kept;
  std::vector<int> nms_order =
      SortByScoreDesc(kept.scores.data(), static_cast<int64_t>(kept.scores.size()));
  std::vector<int> sel =
      GreedyNms(nms_order, kept.boxes.data(), 4, p.nms_thresh, p.eta, !p.pixel_offset);
  if (p.post_nms_top_n > 0 && p.post_nms_top_n < static_cast<int>(sel.size())) {
    sel.resize(p.post_nms_top_n);
  }
  Proposals out;
  for (int i : sel) {
    out.boxes.insert(out.boxes.end(), kept.boxes.begin() + i * 4, kept.boxes.begin() + i * 4 + 4);
    out.scores.push_back(kept.scores[i]);
  }
  return out;
}

}  // namespace

class GenerateProposalsCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::GenerateProposalsParam>();
    for (const Tensor* t : {p.scores, p.bbox_deltas, p.anchors, p.variances}) {
      if (t->dtype() != DataType::kFloat32) {
        return Unimplemented("generate_proposals on non-float32 inputs");
      }
    }
    const DDim& sd = p.scores->dims();
    const int64_t n = sd[0], a = sd[1], hw = sd[2] * sd[3];
    ASSIGN_OR_RETURN(std::vector<float> info,
                     operators::ReadFloatTensor(*p.im_info, p.v2 ? "ImShape" : "ImInfo"));
    const int64_t info_len = p.im_info->dims()[1];
    const float* scores = p.scores->data<float>();
    const float* deltas = p.bbox_deltas->data<float>();
    std::vector<Proposals> per_image;
    std::vector<uint64_t> starts = {0};
    std::vector<float> img_scores(hw * a), img_deltas(hw * a * 4);
    for (int64_t i = 0; i < n; ++i) {
      // NCHW -> (h, w, anchor) rows, as the anchors are laid out.
      for (int64_t c = 0; c < a; ++c) {
        for (int64_t s = 0; s < hw; ++s) {
          img_scores[s * a + c] = scores[(i * a + c) * hw + s];
          for (int k = 0; k < 4; ++k) {
            img_deltas[(s * a + c) * 4 + k] = deltas[((i * a + c) * 4 + k) * hw + s];
          }
        }
      }
      per_image.push_back(OneImage(p, info.data() + i * info_len, img_scores, img_deltas,
                                   p.anchors->data<float>(), p.variances->data<float>()));
      starts.push_back(starts.back() + per_image.back().scores.size());
    }
    const int64_t total = static_cast<int64_t>(starts.back());
    p.rpn_rois->Resize({total, 4});
    p.rpn_roi_probs->Resize({total, 1});
    float* rois = p.rpn_rois->mutable_data<float>();
    float* probs = p.rpn_roi_probs->mutable_data<float>();
    for (const Proposals& pr : per_image) {
      rois = std::copy(pr.boxes.begin(), pr.boxes.end(), rois);
      probs = std::copy(pr.scores.begin(), pr.scores.end(), probs);
    }
    p.rpn_rois->set_lod({starts});
    p.rpn_roi_probs->set_lod({starts});
    if (p.rpn_rois_num) {
      p.rpn_rois_num->Resize({n});
      int32_t* rn = p.rpn_rois_num->mutable_data<int32_t>();
      for (int64_t i = 0; i < n; ++i) rn[i] = static_cast<int32_t>(starts[i + 1] - starts[i]);
    }
    return Status::OK();
  }
};

}  // namespace host
}  // namespace kernels
}  // namespace lite

#define LITE_REGISTER_PROPOSALS_KERNEL(op)                                     \
  REGISTER_LITE_KERNEL(op, kHost, kFloat, kNCHW,                               \
                       lite::kernels::host::GenerateProposalsCompute, def)     \
      .BindOutput("RpnRoisNum", lite::Place(TARGET(kHost), PRECISION(kInt32))) \
      .Finalize()

LITE_REGISTER_PROPOSALS_KERNEL(generate_proposals);
LITE_REGISTER_PROPOSALS_KERNEL(generate_proposals_v2);
