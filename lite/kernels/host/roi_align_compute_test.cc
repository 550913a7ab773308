// roi_align against a per-output reference (double, sample by sample) over
// aligned, fixed and adaptive sampling, spatial_scale, regions partly off
// the map, and the per-image split by RoisNum or by LoD.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

constexpr int kN = 2, kC = 3, kH = 6, kW = 7;

double Bilinear(const std::vector<float>& x, int b, int c, double y, double xx) {
  if (y < -1 || y > kH || xx < -1 || xx > kW) return 0;
  y = std::max(y, 0.0);
  xx = std::max(xx, 0.0);
  int y0 = static_cast<int>(y), x0 = static_cast<int>(xx);
  int y1 = y0 + 1, x1 = x0 + 1;
  if (y0 >= kH - 1) y0 = y1 = kH - 1, y = y0;
  if (x0 >= kW - 1) x0 = x1 = kW - 1, xx = x0;
  auto at = [&](int h, int w) { return static_cast<double>(x[((b * kC + c) * kH + h) * kW + w]); };
  const double ly = y - y0, lx = xx - x0;
  return (1 - ly) * (1 - lx) * at(y0, x0) + (1 - ly) * lx * at(y0, x1) + ly * (1 - lx) * at(y1, x0) +
         ly * lx * at(y1, x1);
}

struct AlignCfg {
  int ph = 2, pw = 3;
  float scale = 0.5f;
  int ratio = 2;
  bool aligned = false;
  bool use_rois_num = true;
};

std::vector<float> RefAlign(const std::vector<float>& x, const std::vector<float>& rois,
                            const std::vector<int>& image_of, const AlignCfg& c) {
  std::vector<float> out;
  const double off = c.aligned ? 0.5 : 0;
  for (size_t r = 0; r < image_of.size(); ++r) {
    const double x0 = rois[r * 4] * c.scale - off, y0 = rois[r * 4 + 1] * c.scale - off;
    double w = rois[r * 4 + 2] * c.scale - off - x0, h = rois[r * 4 + 3] * c.scale - off - y0;
    if (!c.aligned) w = std::max(w, 1.0), h = std::max(h, 1.0);
    const int gh = c.ratio > 0 ? c.ratio : static_cast<int>(std::ceil(h / c.ph));
    const int gw = c.ratio > 0 ? c.ratio : static_cast<int>(std::ceil(w / c.pw));
    for (int ch = 0; ch < kC; ++ch) {
      for (int i = 0; i < c.ph; ++i) {
        for (int j = 0; j < c.pw; ++j) {
          double sum = 0;
          for (int iy = 0; iy < gh; ++iy) {
            for (int ix = 0; ix < gw; ++ix) {
              sum += Bilinear(x, image_of[r], ch, y0 + (i + (iy + 0.5) / gh) * h / c.ph,
                              x0 + (j + (ix + 0.5) / gw) * w / c.pw);
            }
          }
          out.push_back(static_cast<float>(sum / std::max(gh * gw, 1)));
        }
      }
    }
  }
  return out;
}

TEST(RoiAlign, MatchesReferenceOverAttributes) {
  const std::vector<float> x = RandomFloats(kN * kC * kH * kW, 7, -2.f, 2.f);
  // Image 0: two regions (one past the right/bottom edge); image 1: three
  // (one smaller than a pixel at scale 0.5, one starting left of the map).
  const std::vector<float> rois = {1, 1, 9, 7,  4, 2, 20, 16, 0, 0, 13, 11,
                                   3, 3, 3.5f, 3.8f, -4, 1, 6, 9};
  const std::vector<int> image_of = {0, 0, 1, 1, 1};
  std::vector<AlignCfg> cases(5);
  cases[1].aligned = true;
  cases[2].ratio = -1;
  cases[3].ratio = 0;
  cases[3].aligned = true;
  cases[3].scale = 1.f;
  cases[4].use_rois_num = false;
  cases[4].ph = 1;
  cases[4].pw = 1;
  for (size_t k = 0; k < cases.size(); ++k) {
    const AlignCfg& c = cases[k];
    OpTester t("roi_align");
    t.SetInput<float>("X", "x", {kN, kC, kH, kW}, x);
    Tensor* r = t.SetInput<float>("ROIs", "rois", {5, 4}, rois);
    if (c.use_rois_num) {
      t.SetInput<int32_t>("RoisNum", "rn", {2}, {2, 3});
    } else {
      r->set_lod({{0, 2, 5}});
    }
    t.SetAttr("pooled_height", c.ph);
    t.SetAttr("pooled_width", c.pw);
    t.SetAttr("spatial_scale", c.scale);
    t.SetAttr("sampling_ratio", c.ratio);
    t.SetAttr("aligned", c.aligned);
    t.SetOutput("Out", "out");
    ASSERT_TRUE(t.Run().ok()) << "case " << k;
    EXPECT_EQ(t.Get("out").dims(), (DDim{5, kC, c.ph, c.pw}));
    const std::vector<float> got = t.GetData<float>("out");
    const std::vector<float> want = RefAlign(x, rois, image_of, c);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_NEAR(got[i], want[i], 1e-5) << "case " << k << " at " << i;
    }
  }
}

TEST(RoiAlign, RoisNumMustCoverTheRegions) {
  OpTester t("roi_align");
  t.SetInput<float>("X", "x", {2, 1, 4, 4}, std::vector<float>(32));
  t.SetInput<float>("ROIs", "rois", {3, 4}, std::vector<float>(12));
  t.SetInput<int32_t>("RoisNum", "rn", {2}, {1, 1});
  t.SetOutput("Out", "out");
  const Status s = t.Run();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("roi_align: RoisNum covers 2 boxes but there are 3"),
            std::string::npos)
      << s.message();
}

TEST(RoiAlign, NonFiniteOrHugeRegionIsAnError) {
  for (float corner : {std::nanf(""), 1e9f}) {
    OpTester t("roi_align");
    t.SetInput<float>("X", "x", {1, 1, 4, 4}, std::vector<float>(16));
    t.SetInput<float>("ROIs", "rois", {2, 4}, {0, 0, 2, 2, 0, 0, corner, corner});
    t.SetOutput("Out", "out");
    const Status s = t.Run();
    EXPECT_FALSE(s.ok());
    EXPECT_NE(s.message().find("roi_align: region 1 is not finite or needs more than"),
              std::string::npos)
        << s.message();
  }
}

TEST(RoiAlign, BadPooledSizeIsAnError) {
  OpTester t("roi_align");
  t.SetInput<float>("X", "x", {1, 1, 4, 4}, std::vector<float>(16));
  t.SetInput<float>("ROIs", "rois", {1, 4}, {0, 0, 2, 2});
  t.SetAttr("pooled_height", 0);
  t.SetOutput("Out", "out");
  const Status s = t.Run();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("pooled_height and pooled_width must be > 0"), std::string::npos)
      << s.message();
}

}  // namespace
}  // namespace lite
