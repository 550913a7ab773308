// Host fp32 kernel for yolo_box, following Paddle's CPU kernel term by term
// (sigmoid in double, grid offsets, anchor scaling, clipping to image - 1).
#include <cmath>
#include <cstring>

#include "lite/core/kernel.h"
#include "lite/operators/detection_ops.h"
#include "lite/operators/tensor_util.h"

namespace lite {
namespace kernels {
namespace host {
namespace {

inline float Sigmoid(float x) { return 1.0 / (1.0 + std::exp(-x)); }

// Flat index of `entry` (0..4 box/objectness, 5.. classes) of anchor `an` at
// grid cell `hw` of image `b`.
inline int64_t EntryIndex(int64_t b, int64_t an, int64_t hw, int64_t an_num,
                          int64_t an_stride, int64_t stride, int64_t entry,
                          bool iou_aware) {
  if (iou_aware) {
    return (b * an_num + an) * an_stride + (b * an_num + an_num + entry) * stride + hw;
  }
  return (b * an_num + an) * an_stride + entry * stride + hw;
}

}  // namespace

class YoloBoxCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::YoloBoxParam>();
    const DDim& xd = p.x->dims();
    const int64_t n = xd[0], h = xd[2], w = xd[3];
    const int64_t an_num = static_cast<int64_t>(p.anchors.size() / 2);
    const int64_t box_num = an_num * h * w;
    const int64_t stride = h * w;
    const int64_t an_stride = (p.class_num + 5) * stride;
    const int64_t input_h = p.downsample_ratio * h;
    const int64_t input_w = p.downsample_ratio * w;
    const float scale = p.scale_x_y;
    const float bias = -0.5f * (scale - 1.f);
    if (p.x->dtype() != DataType::kFloat32) {
      return Unimplemented(std::string("yolo_box on ") + DataTypeName(p.x->dtype()));
    }
    ASSIGN_OR_RETURN(std::vector<int64_t> img,
                     operators::ReadIntTensor(*p.img_size, "ImgSize"));
    p.boxes->Resize({n, box_num, 4});
    p.scores->Resize({n, box_num, p.class_num});
    float* boxes = p.boxes->mutable_data<float>();
    float* scores = p.scores->mutable_data<float>();
    std::memset(boxes, 0, p.boxes->memory_size());
    std::memset(scores, 0, p.scores->memory_size());
    const float* x = p.x->data<float>();
    if (p.x->numel() == 0) return Status::OK();
    if (!x) return FailedPrecondition("input X has no data");
    for (int64_t i = 0; i < n; ++i) {
      const int64_t img_h = img[2 * i], img_w = img[2 * i + 1];
      for (int64_t j = 0; j < an_num; ++j) {
        const float anchor_w = static_cast<float>(p.anchors[2 * j]);
        const float anchor_h = static_cast<float>(p.anchors[2 * j + 1]);
        for (int64_t k = 0; k < h; ++k) {
          for (int64_t l = 0; l < w; ++l) {
            const int64_t hw = k * w + l;
            float conf = Sigmoid(x[EntryIndex(i, j, hw, an_num, an_stride, stride, 4, p.iou_aware)]);
            if (p.iou_aware) {
              const float iou = Sigmoid(x[i * an_num * an_stride + (i * an_num + j) * stride + hw]);
              conf = std::pow(conf, static_cast<float>(1. - p.iou_aware_factor)) * std::pow(iou, p.iou_aware_factor);
            }
            if (conf < p.conf_thresh) continue;
            const int64_t bi = EntryIndex(i, j, hw, an_num, an_stride, stride, 0, p.iou_aware);
            const float cx = (l + Sigmoid(x[bi]) * scale + bias) * img_w / w;
            const float cy = (k + Sigmoid(x[bi + stride]) * scale + bias) * img_h / h;
            const float bw = std::exp(x[bi + 2 * stride]) * anchor_w * img_w / input_w;
            const float bh = std::exp(x[bi + 3 * stride]) * anchor_h * img_h / input_h;
            float* box = boxes + (i * box_num + j * stride + hw) * 4;
            box[0] = cx - bw / 2;
            box[1] = cy - bh / 2;
            box[2] = cx + bw / 2;
            box[3] = cy + bh / 2;
            if (p.clip_bbox) {
              box[0] = box[0] > 0 ? box[0] : 0.f;
              box[1] = box[1] > 0 ? box[1] : 0.f;
              box[2] = box[2] < img_w - 1 ? box[2] : static_cast<float>(img_w - 1);
              box[3] = box[3] < img_h - 1 ? box[3] : static_cast<float>(img_h - 1);
            }
            const int64_t li = EntryIndex(i, j, hw, an_num, an_stride, stride, 5, p.iou_aware);
            float* sc = scores + (i * box_num + j * stride + hw) * p.class_num;
            for (int c = 0; c < p.class_num; ++c) sc[c] = conf * Sigmoid(x[li + c * stride]);
          }
        }
      }
    }
    return Status::OK();
  }
};

}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(yolo_box, kHost, kFloat, kNCHW, lite::kernels::host::YoloBoxCompute, def)
    .BindInput("ImgSize", lite::Place(TARGET(kHost), PRECISION(kInt32)))
    .Finalize();
