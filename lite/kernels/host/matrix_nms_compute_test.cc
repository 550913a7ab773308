// matrix_nms against a reference written from the algorithm's definition
// (full IoU matrix in double, decay per pair), over linear and gaussian
// decay, pixel and normalized boxes, the thresholds, both top-k cuts and the
// background label; plus the empty result.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

constexpr int kN = 2, kC = 3, kM = 12;

struct MatrixCfg {
  float score_threshold = 0.1f, post_threshold = 0.f;
  int nms_top_k = -1, keep_top_k = -1, background = 0;
  bool gaussian = false, normalized = true;
  float sigma = 2.f;
};

double Iou(const float* a, const float* b, bool normalized) {
  const double e = normalized ? 0 : 1;
  auto area = [&](const float* r) {
    return (r[2] < r[0] || r[3] < r[1]) ? 0.0 : (r[2] - r[0] + e) * (r[3] - r[1] + e);
  };
  const double iw = std::min(a[2], b[2]) - std::max(a[0], b[0]) + e;
  const double ih = std::min(a[3], b[3]) - std::max(a[1], b[1]) + e;
  if (iw <= 0 || ih <= 0) return 0;
  return iw * ih / (area(a) + area(b) - iw * ih);
}

struct Row {
  int label, index;
  double score;
};

std::vector<std::vector<Row>> RefMatrixNms(const std::vector<float>& boxes,
                                           const std::vector<float>& scores, const MatrixCfg& c) {
  std::vector<std::vector<Row>> out(kN);
  for (int b = 0; b < kN; ++b) {
    std::vector<Row> rows;
    for (int cls = 0; cls < kC; ++cls) {
      if (cls == c.background) continue;
      const float* s = &scores[(b * kC + cls) * kM];
      std::vector<int> cand;
      for (int i = 0; i < kM; ++i) {
        if (s[i] > c.score_threshold) cand.push_back(i);
      }
      std::stable_sort(cand.begin(), cand.end(), [&](int x, int y) { return s[x] > s[y]; });
      if (c.nms_top_k > -1 && static_cast<int>(cand.size()) > c.nms_top_k) cand.resize(c.nms_top_k);
      const int n = cand.size();
      auto box = [&](int k) { return &boxes[(b * kM + cand[k]) * 4]; };
      std::vector<double> comp(n, 0);  // largest IoU with a better box
      for (int i = 0; i < n; ++i) {
        for (int j = 0; j < i; ++j) comp[i] = std::max(comp[i], Iou(box(i), box(j), c.normalized));
      }
      for (int i = 0; i < n; ++i) {
        double decay = 1;
        for (int j = 0; j < i; ++j) {
          const double iou = Iou(box(i), box(j), c.normalized);
          const double d = c.gaussian ? std::exp((comp[j] * comp[j] - iou * iou) * c.sigma)
                                      : (1 - iou) / (1 - comp[j]);
          decay = std::min(decay, d);
        }
        const double score = decay * s[cand[i]];
        if (score > c.post_threshold) rows.push_back({cls, b * kM + cand[i], score});
      }
    }
    std::stable_sort(rows.begin(), rows.end(),
                     [](const Row& x, const Row& y) { return x.score > y.score; });
    if (c.keep_top_k > -1 && static_cast<int>(rows.size()) > c.keep_top_k) rows.resize(c.keep_top_k);
    out[b] = rows;
  }
  return out;
}

// Clustered boxes so that overlaps (and decays) are substantial.
std::vector<float> MakeBoxes(float scale) {
  std::vector<float> v;
  const std::vector<float> r = RandomFloats(kN * kM * 4, 3, 0.f, 1.f);
  for (int i = 0; i < kN * kM; ++i) {
    const float cx = (i % 3) * 0.3f + 0.2f * r[i * 4], cy = 0.4f + 0.2f * r[i * 4 + 1];
    const float w = 0.2f + 0.2f * r[i * 4 + 2], h = 0.2f + 0.2f * r[i * 4 + 3];
    for (float q : {cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2}) v.push_back(q * scale);
  }
  return v;
}

void RunAndCheck(const MatrixCfg& c, const std::string& name) {
  const std::vector<float> boxes = MakeBoxes(c.normalized ? 1.f : 50.f);
  const std::vector<float> scores = RandomFloats(kN * kC * kM, 11, 0.f, 1.f);
  OpTester t("matrix_nms");
  t.SetInput<float>("BBoxes", "b", {kN, kM, 4}, boxes);
  t.SetInput<float>("Scores", "s", {kN, kC, kM}, scores);
  t.SetAttr("score_threshold", c.score_threshold);
  t.SetAttr("post_threshold", c.post_threshold);
  t.SetAttr("nms_top_k", c.nms_top_k);
  t.SetAttr("keep_top_k", c.keep_top_k);
  t.SetAttr("background_label", c.background);
  t.SetAttr("use_gaussian", c.gaussian);
  t.SetAttr("gaussian_sigma", c.sigma);
  t.SetAttr("normalized", c.normalized);
  t.SetOutput("Out", "out");
  t.SetOutput("Index", "index");
  t.SetOutput("RoisNum", "num");
  ASSERT_TRUE(t.Run().ok()) << name;
  const auto want = RefMatrixNms(boxes, scores, c);
  const std::vector<float> out = t.GetData<float>("out");
  const std::vector<int32_t> index = t.GetData<int32_t>("index");
  const std::vector<int32_t> num = t.GetData<int32_t>("num");
  ASSERT_EQ(num.size(), static_cast<size_t>(kN)) << name;
  std::vector<uint64_t> lod = {0};
  size_t row = 0;
  for (int b = 0; b < kN; ++b) {
    EXPECT_EQ(num[b], static_cast<int>(want[b].size())) << name << " image " << b;
    lod.push_back(lod.back() + want[b].size());
    for (const Row& r : want[b]) {
      ASSERT_LT(row, index.size()) << name;
      EXPECT_EQ(index[row], r.index) << name << " row " << row;
      EXPECT_EQ(out[row * 6], r.label) << name << " row " << row;
      EXPECT_NEAR(out[row * 6 + 1], r.score, 1e-5) << name << " row " << row;
      for (int q = 0; q < 4; ++q) EXPECT_EQ(out[row * 6 + 2 + q], boxes[r.index * 4 + q]);
      ++row;
    }
  }
  EXPECT_EQ(t.Get("out").dims(), (DDim{static_cast<int64_t>(row), 6})) << name;
  EXPECT_EQ(t.Get("out").lod(), (LoD{lod})) << name;
}

TEST(MatrixNms, MatchesReferenceOverAttributes) {
  MatrixCfg c;
  RunAndCheck(c, "linear");
  c.gaussian = true;
  RunAndCheck(c, "gaussian");
  c.sigma = 0.5f;
  c.post_threshold = 0.3f;
  RunAndCheck(c, "gaussian sigma 0.5, post_threshold");
  c = MatrixCfg();
  c.normalized = false;
  c.nms_top_k = 5;
  c.keep_top_k = 6;
  RunAndCheck(c, "pixel boxes, top-k cuts");
  c = MatrixCfg();
  c.background = -1;
  c.post_threshold = 0.2f;
  c.score_threshold = 0.3f;
  RunAndCheck(c, "no background, thresholds");
}

TEST(MatrixNms, NothingAboveThresholdGivesEmptyOut) {
  OpTester t("matrix_nms");
  t.SetInput<float>("BBoxes", "b", {2, 3, 4}, std::vector<float>(24, 0.5f));
  t.SetInput<float>("Scores", "s", {2, 2, 3}, std::vector<float>(12, 0.05f));
  t.SetAttr("score_threshold", 0.1f);
  t.SetAttr("nms_top_k", -1);
  t.SetAttr("keep_top_k", -1);
  t.SetOutput("Out", "out");
  t.SetOutput("RoisNum", "num");
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dims(), (DDim{0, 6}));
  EXPECT_EQ(t.GetData<int32_t>("num"), (std::vector<int32_t>{0, 0}));
}

TEST(MatrixNms, MissingKeepTopKIsAnError) {
  OpTester t("matrix_nms");
  t.SetInput<float>("BBoxes", "b", {1, 1, 4}, {0, 0, 1, 1});
  t.SetInput<float>("Scores", "s", {1, 1, 1}, {0.5f});
  t.SetAttr("score_threshold", 0.1f);
  t.SetAttr("nms_top_k", -1);
  t.SetOutput("Out", "out");
  const Status s = t.Run();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("missing required attribute 'keep_top_k'"), std::string::npos)
      << s.message();
}

}  // namespace
}  // namespace lite
