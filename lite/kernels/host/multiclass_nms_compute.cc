// Host fp32 kernel for multiclass_nms, multiclass_nms2 and multiclass_nms3,
// following Paddle's CPU algorithm: per class, boxes with score > threshold
// sorted by score (stable), cut to nms_top_k, greedy NMS with an adaptive
// threshold (nms_eta); then keep_top_k over all classes of the image. Output
// rows are grouped by ascending label (see detection_ops.h).
#include <algorithm>
#include <cstring>
#include <functional>
#include <map>
#include <utility>
#include <vector>

#include "lite/core/kernel.h"
#include "lite/kernels/host/detection_util.h"
#include "lite/operators/detection_ops.h"
#include "lite/operators/tensor_util.h"

namespace lite {
namespace kernels {
namespace host {
namespace {

// A strided view of one class's boxes and scores within one image.
struct ClassView {
  const float* boxes;
  int64_t box_stride;
  const float* scores;
  int64_t score_stride;
  int64_t num;
  const float* box(int64_t i) const { return boxes + i * box_stride; }
  float score(int64_t i) const { return scores[i * score_stride]; }
};

std::vector<int> NmsFast(const ClassView& v, const operators::MulticlassNmsParam& p) {
  std::vector<std::pair<float, int>> sorted;
  for (int64_t i = 0; i < v.num; ++i) {
    if (v.score(i) > p.score_threshold) sorted.emplace_back(v.score(i), static_cast<int>(i));
  }
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  if (p.nms_top_k > -1 && p.nms_top_k < static_cast<int>(sorted.size())) {
    sorted.resize(p.nms_top_k);
  }
  std::vector<int> order;
  for (const auto& s : sorted) order.push_back(s.second);
  return GreedyNms(order, v.boxes, v.box_stride, p.nms_threshold, p.nms_eta, p.normalized);
}

struct Image {
  // Returns the view of class c.
  std::function<ClassView(int)> view;
  int class_num = 0;
  bool per_class_boxes = false;  // 2-D scores: indices are sorted ascending
  int64_t index_offset = 0;      // Index = offset + idx (3-D) / idx*C+label (2-D)
};

// Paddle's MultiClassNMS for one image: label -> kept box indices.
std::map<int, std::vector<int>> ImageNms(const Image& im,
                                         const operators::MulticlassNmsParam& p) {
  std::map<int, std::vector<int>> indices;
  int num_det = 0;
  for (int c = 0; c < im.class_num; ++c) {
    if (c == p.background_label) continue;
    auto sel = NmsFast(im.view(c), p);
    if (im.per_class_boxes) std::stable_sort(sel.begin(), sel.end());
    num_det += static_cast<int>(sel.size());
    indices[c] = std::move(sel);
  }
  if (p.keep_top_k > -1 && num_det > p.keep_top_k) {
    std::vector<std::pair<float, std::pair<int, int>>> pairs;
    for (const auto& it : indices) {
      const ClassView v = im.view(it.first);
      for (int idx : it.second) pairs.push_back({v.score(idx), {it.first, idx}});
    }
    std::stable_sort(pairs.begin(), pairs.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    pairs.resize(p.keep_top_k);
    std::map<int, std::vector<int>> kept;
    for (const auto& pr : pairs) kept[pr.second.first].push_back(pr.second.second);
    if (im.per_class_boxes) {
      for (auto& it : kept) std::stable_sort(it.second.begin(), it.second.end());
    }
    indices.swap(kept);
  }
  return indices;
}

}  // namespace

class MulticlassNmsCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::MulticlassNmsParam>();
    const DDim& bd = p.bboxes->dims();
    const DDim& sd = p.scores->dims();
    if (p.bboxes->dtype() != DataType::kFloat32 || p.scores->dtype() != DataType::kFloat32) {
      return Unimplemented("multiclass_nms on non-float32 inputs");
    }
    const float* boxes = p.bboxes->data<float>();
    const float* scores = p.scores->data<float>();
    if ((p.bboxes->numel() > 0 && !boxes) || (p.scores->numel() > 0 && !scores)) {
      return FailedPrecondition("BBoxes or Scores has no data");
    }
    const int64_t box_size = bd[2];
    std::vector<Image> images;
    if (sd.size() == 3) {
      const int64_t n = sd[0], c = sd[1], m = sd[2];
      for (int64_t i = 0; i < n; ++i) {
        Image im;
        im.class_num = static_cast<int>(c);
        im.index_offset = i * m;
        im.view = [=](int cls) {
          return ClassView{boxes + i * m * box_size, box_size,
                           scores + (i * c + cls) * m, 1, m};
        };
        images.push_back(std::move(im));
      }
    } else {
      const int64_t c = sd[1];
      ASSIGN_OR_RETURN(std::vector<int64_t> lod,
                       BoxImageOffsets(p.rois_num, *p.bboxes, sd[0], false, "multiclass_nms"));
      for (size_t i = 0; i + 1 < lod.size(); ++i) {
        const int64_t start = lod[i], m = lod[i + 1] - lod[i];
        Image im;
        im.class_num = static_cast<int>(c);
        im.per_class_boxes = true;
        im.index_offset = start * c;
        im.view = [=](int cls) {
          return ClassView{boxes + (start * c + cls) * box_size, c * box_size,
                           scores + start * c + cls, c, m};
        };
        images.push_back(std::move(im));
      }
    }

    std::vector<std::map<int, std::vector<int>>> kept;
    std::vector<uint64_t> starts = {0};
    for (const Image& im : images) {
      kept.push_back(ImageNms(im, p));
      uint64_t count = 0;
      for (const auto& it : kept.back()) count += it.second.size();
      starts.push_back(starts.back() + count);
    }
    const int64_t total = static_cast<int64_t>(starts.back());
    p.out->Resize({total, box_size + 2});
    float* out = p.out->mutable_data<float>();
    int32_t* index = nullptr;
    if (p.index) {
      p.index->Resize({total, 1});
      index = p.index->mutable_data<int32_t>();
    }
    int64_t row = 0;
    for (size_t i = 0; i < images.size(); ++i) {
      const Image& im = images[i];
      for (const auto& it : kept[i]) {
        const int label = it.first;
        const ClassView v = im.view(label);
        for (int idx : it.second) {
          float* o = out + row * (box_size + 2);
          o[0] = static_cast<float>(label);
          o[1] = v.score(idx);
          std::memcpy(o + 2, v.box(idx), box_size * sizeof(float));
          if (index) {
            index[row] = static_cast<int32_t>(
                im.per_class_boxes ? im.index_offset + idx * im.class_num + label
                                   : im.index_offset + idx);
          }
          ++row;
        }
      }
    }
    p.out->set_lod({starts});
    if (p.index) p.index->set_lod({starts});
    if (p.nms_rois_num) {
      p.nms_rois_num->Resize({static_cast<int64_t>(images.size())});
      int32_t* nr = p.nms_rois_num->mutable_data<int32_t>();
      for (size_t i = 0; i < images.size(); ++i) {
        nr[i] = static_cast<int32_t>(starts[i + 1] - starts[i]);
      }
    }
    return Status::OK();
  }
};

}  // namespace host
}  // namespace kernels
}  // namespace lite

#define LITE_REGISTER_NMS_KERNEL(op)                                           \
  REGISTER_LITE_KERNEL(op, kHost, kFloat, kNCHW,                               \
                       lite::kernels::host::MulticlassNmsCompute, def)         \
      .BindInput("RoisNum", lite::Place(TARGET(kHost), PRECISION(kInt32)))     \
      .BindOutput("Index", lite::Place(TARGET(kHost), PRECISION(kInt32)))      \
      .BindOutput("NmsRoisNum", lite::Place(TARGET(kHost), PRECISION(kInt32))) \
      .Finalize()

LITE_REGISTER_NMS_KERNEL(multiclass_nms);
LITE_REGISTER_NMS_KERNEL(multiclass_nms2);
LITE_REGISTER_NMS_KERNEL(multiclass_nms3);
