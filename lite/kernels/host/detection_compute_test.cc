#include <gtest/gtest.h>

#include <cmath>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

// ---------------------------------------------------------------- yolo_box

struct YoloCfg {
  std::vector<int> anchors = {10, 13, 16, 30};
  int class_num = 2;
  float conf_thresh = 0.5f;
  int downsample = 8;
  bool clip = true;
  float scale_x_y = 1.f;
  bool iou_aware = false;
  float iou_factor = 0.5f;
};

double Sig(double v) { return 1.0 / (1.0 + std::exp(-v)); }

// Reference decoder addressing X by (batch, channel, row, col).
void YoloRef(const std::vector<float>& x, const DDim& xd, const std::vector<int>& img,
             const YoloCfg& cfg, std::vector<float>* boxes, std::vector<float>* scores) {
  const int n = xd[0], h = xd[2], w = xd[3], an = cfg.anchors.size() / 2, cn = cfg.class_num;
  const int box_num = an * h * w;
  boxes->assign(n * box_num * 4, 0.f);
  scores->assign(n * box_num * cn, 0.f);
  auto X = [&](int b, int ch, int k, int l) { return x[((b * xd[1] + ch) * h + k) * w + l]; };
  for (int b = 0; b < n; ++b) {
    const double ih = img[2 * b], iw = img[2 * b + 1];
    for (int a = 0; a < an; ++a) {
      const int base = (cfg.iou_aware ? an : 0) + a * (5 + cn);
      for (int k = 0; k < h; ++k) {
        for (int l = 0; l < w; ++l) {
          double conf = Sig(X(b, base + 4, k, l));
          if (cfg.iou_aware) {
            conf = std::pow(conf, 1.0 - cfg.iou_factor) *
                   std::pow(Sig(X(b, a, k, l)), cfg.iou_factor);
          }
          if (conf < cfg.conf_thresh) continue;
          const double s = cfg.scale_x_y, bias = -0.5 * (s - 1);
          double cx = (l + Sig(X(b, base, k, l)) * s + bias) * iw / w;
          double cy = (k + Sig(X(b, base + 1, k, l)) * s + bias) * ih / h;
          double bw = std::exp(X(b, base + 2, k, l)) * cfg.anchors[2 * a] * iw / (cfg.downsample * w);
          double bh = std::exp(X(b, base + 3, k, l)) * cfg.anchors[2 * a + 1] * ih / (cfg.downsample * h);
          double r[4] = {cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2};
          if (cfg.clip) {
            r[0] = std::max(r[0], 0.0);
            r[1] = std::max(r[1], 0.0);
            r[2] = std::min(r[2], iw - 1);
            r[3] = std::min(r[3], ih - 1);
          }
          const int idx = b * box_num + a * h * w + k * w + l;
          for (int q = 0; q < 4; ++q) (*boxes)[idx * 4 + q] = static_cast<float>(r[q]);
          for (int c = 0; c < cn; ++c) {
            (*scores)[idx * cn + c] = static_cast<float>(conf * Sig(X(b, base + 5 + c, k, l)));
          }
        }
      }
    }
  }
}

void RunYolo(const YoloCfg& cfg) {
  const int an = cfg.anchors.size() / 2;
  const DDim xd{2, an * (cfg.class_num + (cfg.iou_aware ? 6 : 5)), 2, 3};
  std::vector<float> x(Product(xd));
  for (size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.7 * i) * 2.5f;
  const std::vector<int> img = {16, 24, 50, 30};
  OpTester t("yolo_box");
  t.SetInput<float>("X", "x", xd, x);
  t.SetInput<int32_t>("ImgSize", "img", {2, 2}, img);
  t.SetOutput("Boxes", "boxes");
  t.SetOutput("Scores", "scores");
  t.SetAttr("anchors", std::vector<int32_t>(cfg.anchors.begin(), cfg.anchors.end()));
  t.SetAttr("class_num", cfg.class_num);
  t.SetAttr("conf_thresh", cfg.conf_thresh);
  t.SetAttr("downsample_ratio", cfg.downsample);
  t.SetAttr("clip_bbox", cfg.clip);
  t.SetAttr("scale_x_y", cfg.scale_x_y);
  t.SetAttr("iou_aware", cfg.iou_aware);
  t.SetAttr("iou_aware_factor", cfg.iou_factor);
  ASSERT_TRUE(t.Run().ok());
  std::vector<float> boxes, scores;
  YoloRef(x, xd, img, cfg, &boxes, &scores);
  const int64_t box_num = an * 2 * 3;
  ASSERT_EQ(t.Get("boxes").dims(), (DDim{2, box_num, 4}));
  ASSERT_EQ(t.Get("scores").dims(), (DDim{2, box_num, cfg.class_num}));
  auto gb = t.GetData<float>("boxes");
  auto gs = t.GetData<float>("scores");
  int zeros = 0;
  for (size_t i = 0; i < boxes.size(); ++i) {
    EXPECT_NEAR(gb[i], boxes[i], 1e-4 * (1 + std::fabs(boxes[i]))) << i;
  }
  for (size_t i = 0; i < scores.size(); ++i) {
    EXPECT_NEAR(gs[i], scores[i], 1e-5) << i;
    zeros += scores[i] == 0.f;
  }
  // The threshold must actually filter some, but not all, entries.
  EXPECT_GT(zeros, 0);
  EXPECT_LT(zeros, static_cast<int>(scores.size()));
}

TEST(YoloBox, MatchesReference) { RunYolo(YoloCfg{}); }

TEST(YoloBox, NoClipScaleXYAndIouAware) {
  YoloCfg c;
  c.clip = false;
  c.scale_x_y = 1.05f;
  RunYolo(c);
  c.iou_aware = true;
  c.iou_factor = 0.4f;
  c.conf_thresh = 0.4f;
  c.anchors = {10, 13, 16, 30, 33, 23};
  RunYolo(c);
}

TEST(YoloBox, BadShapesFail) {
  OpTester t("yolo_box");
  t.SetInput<float>("X", "x", {1, 13, 2, 2}, std::vector<float>(52));  // needs 14
  t.SetInput<int32_t>("ImgSize", "img", {1, 2}, {8, 8});
  t.SetOutput("Boxes", "boxes");
  t.SetOutput("Scores", "scores");
  t.SetAttr("anchors", std::vector<int32_t>{1, 2, 3, 4});
  t.SetAttr("class_num", 2);
  EXPECT_FALSE(t.Run().ok());
}

// ---------------------------------------------------------- multiclass_nms

struct Nms {
  OpTester t;
  explicit Nms(const std::string& op = "multiclass_nms3") : t(op) {
    t.SetOutput("Out", "out");
    t.SetAttr("background_label", 0);
    t.SetAttr("score_threshold", 0.3f);
    t.SetAttr("nms_top_k", -1);
    t.SetAttr("nms_threshold", 0.45f);
    t.SetAttr("keep_top_k", -1);
    t.SetAttr("normalized", true);
  }
  std::vector<std::vector<float>> Rows() {
    auto d = t.GetData<float>("out");
    std::vector<std::vector<float>> rows;
    for (size_t i = 0; i + 6 <= d.size(); i += 6) rows.emplace_back(d.begin() + i, d.begin() + i + 6);
    return rows;
  }
};

// Image 0: four boxes; class 0 is background.
const std::vector<float> kBoxes = {0, 0, 1, 1,          0.05f, 0.05f, 1.05f, 1.05f,
                                   2, 2, 3, 3,          0, 0, 0.5f, 1};
const std::vector<float> kScores = {0.9f, 0.9f, 0.9f, 0.9f,    // background
                                    0.8f, 0.9f, 0.1f, 0.6f,    // class 1
                                    0.2f, 0.35f, 0.7f, 0.05f};  // class 2

void SetTwoImages(OpTester* t) {
  std::vector<float> boxes = kBoxes, scores = kScores;
  boxes.insert(boxes.end(), kBoxes.begin(), kBoxes.end());
  scores.insert(scores.end(), 12, 0.1f);  // image 1: nothing above 0.3
  t->SetInput<float>("BBoxes", "b", {2, 4, 4}, boxes);
  t->SetInput<float>("Scores", "s", {2, 3, 4}, scores);
  t->SetOutput("Index", "index");
  t->SetOutput("NmsRoisNum", "num");
}

std::vector<float> Row(float label, float score, int box) {
  std::vector<float> r = {label, score};
  r.insert(r.end(), kBoxes.begin() + box * 4, kBoxes.begin() + box * 4 + 4);
  return r;
}

TEST(MulticlassNms, SuppressionAndBackgroundGroupedByLabel) {
  Nms n;
  SetTwoImages(&n.t);
  ASSERT_TRUE(n.t.Run().ok());
  // class 1: box1 (0.9) suppresses box0 (IoU 0.82), keeps box3 (IoU 0.40);
  // class 2: box2 (0.7) and box1 (0.35); background ignored.
  EXPECT_EQ(n.t.Get("out").dims(), (DDim{4, 6}));
  EXPECT_EQ(n.Rows(), (std::vector<std::vector<float>>{
                          Row(1, 0.9f, 1), Row(1, 0.6f, 3), Row(2, 0.7f, 2), Row(2, 0.35f, 1)}));
  EXPECT_EQ(n.t.GetData<int32_t>("index"), (std::vector<int32_t>{1, 3, 2, 1}));
  EXPECT_EQ(n.t.GetData<int32_t>("num"), (std::vector<int32_t>{4, 0}));
  EXPECT_EQ(n.t.Get("out").lod(), (LoD{{0, 4, 4}}));
}

TEST(MulticlassNms, KeepTopKAcrossClasses) {
  Nms n;
  SetTwoImages(&n.t);
  n.t.SetAttr("keep_top_k", 3);
  ASSERT_TRUE(n.t.Run().ok());
  EXPECT_EQ(n.Rows(), (std::vector<std::vector<float>>{
                          Row(1, 0.9f, 1), Row(1, 0.6f, 3), Row(2, 0.7f, 2)}));
  EXPECT_EQ(n.t.GetData<int32_t>("num"), (std::vector<int32_t>{3, 0}));
}

TEST(MulticlassNms, NmsTopKAndNoBackground) {
  Nms n("multiclass_nms");
  n.t.SetInput<float>("BBoxes", "b", {1, 4, 4}, kBoxes);
  n.t.SetInput<float>("Scores", "s", {1, 3, 4}, kScores);
  n.t.SetAttr("nms_top_k", 1);
  n.t.SetAttr("background_label", -1);
  ASSERT_TRUE(n.t.Run().ok());
  EXPECT_EQ(n.Rows(), (std::vector<std::vector<float>>{
                          Row(0, 0.9f, 0), Row(1, 0.9f, 1), Row(2, 0.7f, 2)}));
}

TEST(MulticlassNms, AdaptiveEtaAndUnnormalizedIoU) {
  const std::vector<float> boxes = {0, 0, 1, 1, 0, 0, 0.4f, 1};  // IoU 0.4
  for (float eta : {1.f, 0.5f}) {
    Nms n;
    n.t.SetInput<float>("BBoxes", "b", {1, 2, 4}, boxes);
    n.t.SetInput<float>("Scores", "s", {1, 2, 2}, {0, 0, 0.9f, 0.8f});
    n.t.SetAttr("nms_threshold", 0.6f);
    n.t.SetAttr("nms_eta", eta);
    ASSERT_TRUE(n.t.Run().ok());
    // eta 0.5: the threshold drops to 0.3 after the first kept box.
    EXPECT_EQ(n.t.Get("out").dims()[0], eta < 1 ? 1 : 2) << eta;
  }
  const std::vector<float> px = {0, 0, 9, 9, 5, 0, 14, 9};  // IoU 0.33 (+1) / 0.29
  for (bool normalized : {true, false}) {
    Nms n;
    n.t.SetInput<float>("BBoxes", "b", {1, 2, 4}, px);
    n.t.SetInput<float>("Scores", "s", {1, 2, 2}, {0, 0, 0.9f, 0.8f});
    n.t.SetAttr("nms_threshold", 0.3f);
    n.t.SetAttr("normalized", normalized);
    ASSERT_TRUE(n.t.Run().ok());
    EXPECT_EQ(n.t.Get("out").dims()[0], normalized ? 2 : 1) << normalized;
  }
}

TEST(MulticlassNms, NoDetectionGivesEmptyOut) {
  Nms n;
  n.t.SetInput<float>("BBoxes", "b", {1, 4, 4}, kBoxes);
  n.t.SetInput<float>("Scores", "s", {1, 3, 4}, std::vector<float>(12, 0.1f));
  n.t.SetOutput("Index", "index");
  n.t.SetOutput("NmsRoisNum", "num");
  ASSERT_TRUE(n.t.Run().ok());
  EXPECT_EQ(n.t.Get("out").dims(), (DDim{0, 6}));
  EXPECT_EQ(n.t.Get("index").dims(), (DDim{0, 1}));
  EXPECT_EQ(n.t.GetData<int32_t>("num"), (std::vector<int32_t>{0}));
}

TEST(MulticlassNms, TwoDimScoresWithRoisNum) {
  Nms n;
  // 3 rois x 2 classes; image 0 has rois 0-1, image 1 has roi 2.
  n.t.SetInput<float>("BBoxes", "b", {3, 2, 4},
                      {9, 9, 9, 9, 0, 0, 1, 1,     // roi 0 (class 0 box, class 1 box)
                       9, 9, 9, 9, 0, 0, 1, 1,     // roi 1
                       9, 9, 9, 9, 0, 0, 2, 2});   // roi 2
  n.t.SetInput<float>("Scores", "s", {3, 2}, {0.9f, 0.6f, 0.9f, 0.9f, 0.9f, 0.8f});
  n.t.SetInput<int32_t>("RoisNum", "rn", {2}, {2, 1});
  n.t.SetOutput("Index", "index");
  n.t.SetOutput("NmsRoisNum", "num");
  ASSERT_TRUE(n.t.Run().ok());
  EXPECT_EQ(n.Rows(), (std::vector<std::vector<float>>{{1, 0.9f, 0, 0, 1, 1},
                                                       {1, 0.8f, 0, 0, 2, 2}}));
  EXPECT_EQ(n.t.GetData<int32_t>("index"), (std::vector<int32_t>{3, 5}));
  EXPECT_EQ(n.t.GetData<int32_t>("num"), (std::vector<int32_t>{1, 1}));
}

TEST(MulticlassNms, MissingRequiredAttrFails) {
  OpTester t("multiclass_nms3");
  t.SetInput<float>("BBoxes", "b", {1, 4, 4}, kBoxes);
  t.SetInput<float>("Scores", "s", {1, 3, 4}, kScores);
  t.SetOutput("Out", "out");
  t.SetAttr("score_threshold", 0.3f);
  EXPECT_FALSE(t.Run().ok());
}

}  // namespace
}  // namespace lite
