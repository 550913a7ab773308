// generate_proposals(_v2) against a reference written from the op's
// definition (per image: rank, decode, clip, filter, greedy NMS) over v1's
// ImInfo scale, v2's pixel_offset, eta, the top-N cuts, NMS off, and the
// image whose boxes are all filtered out.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

constexpr int kN = 2, kA = 3, kH = 4, kW = 5;

struct PropCfg {
  bool v2 = true, pixel_offset = true;
  int pre = 40, post = 12;
  float nms = 0.5f, min_size = 2.f, eta = 1.f;
};

struct Ref {
  std::vector<float> rois, probs;
  std::vector<int> num;
};

double Iou(const double* a, const double* b, double e) {
  const double iw = std::min(a[2], b[2]) - std::max(a[0], b[0]) + e;
  const double ih = std::min(a[3], b[3]) - std::max(a[1], b[1]) + e;
  if (iw <= 0 || ih <= 0) return 0;
  const double area_a = (a[2] - a[0] + e) * (a[3] - a[1] + e);
  const double area_b = (b[2] - b[0] + e) * (b[3] - b[1] + e);
  return iw * ih / (area_a + area_b - iw * ih);
}

Ref RefProposals(const std::vector<float>& scores, const std::vector<float>& deltas,
                 const std::vector<float>& info, int info_len, const std::vector<float>& anchors,
                 const std::vector<float>& var, const PropCfg& c) {
  Ref r;
  const double off = c.pixel_offset ? 1 : 0;
  for (int b = 0; b < kN; ++b) {
    struct Cand {
      double score;
      int h, w, a;
    };
    std::vector<Cand> cands;
    for (int h = 0; h < kH; ++h) {
      for (int w = 0; w < kW; ++w) {
        for (int a = 0; a < kA; ++a) {
          cands.push_back({scores[((b * kA + a) * kH + h) * kW + w], h, w, a});
        }
      }
    }
    std::stable_sort(cands.begin(), cands.end(),
                     [](const Cand& x, const Cand& y) { return x.score > y.score; });
    if (c.pre > 0 && static_cast<int>(cands.size()) > c.pre) cands.resize(c.pre);
    const double ih = info[b * info_len], iw = info[b * info_len + 1];
    const double scale = c.v2 ? 1 : info[b * info_len + 2];
    std::vector<std::vector<double>> boxes;
    std::vector<double> kept_scores;
    for (const Cand& k : cands) {
      const int row = (k.h * kW + k.w) * kA + k.a;
      const float* an = &anchors[row * 4];
      const float* v = &var[row * 4];
      double d[4];
      for (int q = 0; q < 4; ++q) d[q] = deltas[((b * kA + k.a) * 4 + q) * kH * kW + k.h * kW + k.w];
      const double aw = an[2] - an[0] + off, ah = an[3] - an[1] + off;
      const double cx = v[0] * d[0] * aw + an[0] + aw / 2, cy = v[1] * d[1] * ah + an[1] + ah / 2;
      const double bw = std::exp(std::min(v[2] * d[2], std::log(1000.0 / 16))) * aw;
      const double bh = std::exp(std::min(v[3] * d[3], std::log(1000.0 / 16))) * ah;
      std::vector<double> box = {cx - bw / 2, cy - bh / 2, cx + bw / 2 - off, cy + bh / 2 - off};
      box[0] = std::min(std::max(box[0], 0.0), iw - off);
      box[2] = std::min(std::max(box[2], 0.0), iw - off);
      box[1] = std::min(std::max(box[1], 0.0), ih - off);
      box[3] = std::min(std::max(box[3], 0.0), ih - off);
      const double ms = std::max<double>(c.min_size, 1);
      bool keep;
      if (c.pixel_offset) {
        const double wo = (box[2] - box[0]) / scale + 1, ho = (box[3] - box[1]) / scale + 1;
        const double xc = box[0] + (box[2] - box[0] + 1) / 2, yc = box[1] + (box[3] - box[1] + 1) / 2;
        keep = wo >= ms && ho >= ms && xc <= iw && yc <= ih;
      } else {
        keep = box[2] - box[0] >= ms && box[3] - box[1] >= ms;
      }
      if (keep) {
        boxes.push_back(box);
        kept_scores.push_back(k.score);
      }
    }
    if (boxes.empty()) {
      boxes.push_back({0, 0, 0, 0});
      kept_scores.push_back(0);
    } else if (c.nms > 0) {
      // Candidates are already best first; greedy suppression.
      std::vector<int> sel;
      double thr = c.nms;
      for (size_t i = 0; i < boxes.size(); ++i) {
        bool keep = true;
        for (int j : sel) keep = keep && Iou(boxes[i].data(), boxes[j].data(), off) <= thr;
        if (!keep) continue;
        sel.push_back(i);
        if (c.eta < 1 && thr > 0.5) thr *= c.eta;
      }
      if (c.post > 0 && static_cast<int>(sel.size()) > c.post) sel.resize(c.post);
      std::vector<std::vector<double>> nb;
      std::vector<double> ns;
      for (int j : sel) {
        nb.push_back(boxes[j]);
        ns.push_back(kept_scores[j]);
      }
      boxes.swap(nb);
      kept_scores.swap(ns);
    }
    for (size_t i = 0; i < boxes.size(); ++i) {
      for (double v : boxes[i]) r.rois.push_back(static_cast<float>(v));
      r.probs.push_back(static_cast<float>(kept_scores[i]));
    }
    r.num.push_back(static_cast<int>(boxes.size()));
  }
  return r;
}

void RunAndCheck(const PropCfg& c, const std::vector<float>& info, const std::string& name) {
  const int info_len = c.v2 ? 2 : 3;
  const std::vector<float> scores = RandomFloats(kN * kA * kH * kW, 5, 0.f, 1.f);
  const std::vector<float> deltas = RandomFloats(kN * kA * 4 * kH * kW, 6, -0.6f, 0.6f);
  std::vector<float> anchors, var;
  const float sizes[kA] = {6.f, 10.f, 16.f};
  for (int h = 0; h < kH; ++h) {
    for (int w = 0; w < kW; ++w) {
      for (int a = 0; a < kA; ++a) {
        const float cx = 8.f * w + 4.f, cy = 8.f * h + 4.f, s = sizes[a] / 2;
        for (float v : {cx - s, cy - s * 0.8f, cx + s, cy + s * 0.8f}) anchors.push_back(v);
        for (float v : {0.1f, 0.1f, 0.2f, 0.2f}) var.push_back(v);
      }
    }
  }
  OpTester t(c.v2 ? "generate_proposals_v2" : "generate_proposals");
  t.SetInput<float>("Scores", "s", {kN, kA, kH, kW}, scores);
  t.SetInput<float>("BboxDeltas", "d", {kN, 4 * kA, kH, kW}, deltas);
  t.SetInput<float>(c.v2 ? "ImShape" : "ImInfo", "info", {kN, info_len}, info);
  t.SetInput<float>("Anchors", "an", {kH, kW, kA, 4}, anchors);
  t.SetInput<float>("Variances", "var", {kH, kW, kA, 4}, var);
  t.SetAttr("pre_nms_topN", c.pre);
  t.SetAttr("post_nms_topN", c.post);
  t.SetAttr("nms_thresh", c.nms);
  t.SetAttr("min_size", c.min_size);
  t.SetAttr("eta", c.eta);
  if (c.v2) t.SetAttr("pixel_offset", c.pixel_offset);
  t.SetOutput("RpnRois", "rois");
  t.SetOutput("RpnRoiProbs", "probs");
  t.SetOutput("RpnRoisNum", "num");
  ASSERT_TRUE(t.Run().ok()) << name;
  const Ref want = RefProposals(scores, deltas, info, info_len, anchors, var, c);
  const std::vector<float> rois = t.GetData<float>("rois");
  const std::vector<float> probs = t.GetData<float>("probs");
  ASSERT_EQ(rois.size(), want.rois.size()) << name;
  ASSERT_EQ(probs.size(), want.probs.size()) << name;
  for (size_t i = 0; i < rois.size(); ++i) EXPECT_NEAR(rois[i], want.rois[i], 1e-3) << name << " " << i;
  for (size_t i = 0; i < probs.size(); ++i) EXPECT_FLOAT_EQ(probs[i], want.probs[i]) << name;
  const std::vector<int32_t> num = t.GetData<int32_t>("num");
  EXPECT_EQ(std::vector<int>(num.begin(), num.end()), want.num) << name;
  EXPECT_EQ(t.Get("rois").lod(),
            (LoD{{0, static_cast<uint64_t>(want.num[0]),
                  static_cast<uint64_t>(want.num[0] + want.num[1])}}))
      << name;
}

TEST(GenerateProposals, V2MatchesReference) {
  const std::vector<float> shape = {32.f, 40.f, 26.f, 30.f};
  PropCfg c;
  RunAndCheck(c, shape, "v2 default");
  c.pixel_offset = false;
  RunAndCheck(c, shape, "v2 no pixel offset");
  c = PropCfg();
  c.nms = 0.7f;
  c.eta = 0.9f;
  c.pre = -1;
  c.post = -1;
  RunAndCheck(c, shape, "v2 adaptive eta, no cuts");
  c = PropCfg();
  c.nms = 0.f;
  c.pre = 10;
  RunAndCheck(c, shape, "v2 nms off");
  c = PropCfg();
  RunAndCheck(c, {32.f, 40.f, 0.5f, 0.5f}, "v2 second image filtered out");
}

TEST(GenerateProposals, V1UsesImInfoScale) {
  PropCfg c;
  c.v2 = false;
  c.min_size = 6.f;
  RunAndCheck(c, {32.f, 40.f, 1.f, 26.f, 30.f, 2.f}, "v1 scales 1 and 2");
}

TEST(GenerateProposals, V1RejectsPixelOffsetFalse) {
  OpTester t("generate_proposals");
  t.SetInput<float>("Scores", "s", {1, 1, 1, 1}, {0.5f});
  t.SetInput<float>("BboxDeltas", "d", {1, 4, 1, 1}, {0, 0, 0, 0});
  t.SetInput<float>("ImInfo", "info", {1, 3}, {8, 8, 1});
  t.SetInput<float>("Anchors", "an", {1, 1, 1, 4}, {0, 0, 4, 4});
  t.SetInput<float>("Variances", "var", {1, 1, 1, 4}, {1, 1, 1, 1});
  t.SetAttr("pixel_offset", false);
  t.SetOutput("RpnRois", "rois");
  t.SetOutput("RpnRoiProbs", "probs");
  const Status s = t.Run();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("pixel_offset = false needs generate_proposals_v2"),
            std::string::npos)
      << s.message();
}

}  // namespace
}  // namespace lite
