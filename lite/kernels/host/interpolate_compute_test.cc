#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

// Straightforward reference resize of one NCHW tensor. `ratio_*` follow the
// Paddle rule the test spells out per case.
std::vector<float> Ref(const std::vector<float>& x, int n, int c, int ih, int iw,
                       int oh, int ow, double rh, double rw, bool nearest,
                       bool align_corners, int align_mode) {
  std::vector<float> y(static_cast<size_t>(n) * c * oh * ow);
  auto at = [&](int p, int h, int w) { return x[(static_cast<size_t>(p) * ih + h) * iw + w]; };
  const bool half_pixel = align_mode == 0 && !align_corners;
  auto src = [&](double r, int k) {
    return half_pixel ? std::max(r * (k + 0.5) - 0.5, 0.0) : r * k;
  };
  for (int p = 0; p < n * c; ++p) {
    for (int k = 0; k < oh; ++k) {
      for (int l = 0; l < ow; ++l) {
        float v;
        if (nearest) {
          int h = align_corners ? static_cast<int>(std::floor(rh * k + 0.5))
                                : static_cast<int>(std::floor(rh * k));
          int w = align_corners ? static_cast<int>(std::floor(rw * l + 0.5))
                                : static_cast<int>(std::floor(rw * l));
          v = at(p, h, w);
        } else {
          double sy = src(rh, k), sx = src(rw, l);
          int y0 = static_cast<int>(std::floor(sy)), x0 = static_cast<int>(std::floor(sx));
          int y1 = std::min(y0 + 1, ih - 1), x1 = std::min(x0 + 1, iw - 1);
          double wy = sy - y0, wx = sx - x0;
          v = static_cast<float>((1 - wy) * (1 - wx) * at(p, y0, x0) + wy * (1 - wx) * at(p, y1, x0) +
                                 (1 - wy) * wx * at(p, y0, x1) + wy * wx * at(p, y1, x1));
        }
        y[(static_cast<size_t>(p) * oh + k) * ow + l] = v;
      }
    }
  }
  return y;
}

std::vector<float> Input(int64_t n) {
  std::vector<float> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = static_cast<float>((i * 37) % 23) - 5.5f;
  return v;
}

enum class Source { kScaleAttr, kOutHW, kOutSize, kSizeTensor, kScaleTensor };
const char* Name(Source s) {
  switch (s) {
    case Source::kScaleAttr: return "scale_attr";
    case Source::kOutHW: return "out_h/out_w";
    case Source::kOutSize: return "OutSize";
    case Source::kSizeTensor: return "SizeTensor";
    case Source::kScaleTensor: return "Scale";
  }
  return "";
}

TEST(Interpolate, AllMethodsAlignmentsAndSizeSources) {
  const int n = 2, c = 3, ih = 5, iw = 3;
  const auto x = Input(n * c * ih * iw);
  const float sh = 1.5f, sw = 2.5f;  // v2 scales; v1 uses sh for both
  for (bool v2 : {false, true}) {
    for (bool nearest : {true, false}) {
      for (bool ac : {true, false}) {
        for (int am : {0, 1}) {
          for (Source src : {Source::kScaleAttr, Source::kOutHW, Source::kOutSize,
                             Source::kSizeTensor, Source::kScaleTensor}) {
            std::string op = std::string(nearest ? "nearest" : "bilinear") + "_interp" +
                             (v2 ? "_v2" : "");
            OpTester t(op);
            t.SetInput<float>("X", "x", {n, c, ih, iw}, x);
            t.SetOutput("Out", "out");
            t.SetAttr("interp_method", nearest ? "nearest" : "bilinear");
            t.SetAttr("align_corners", ac);
            t.SetAttr("align_mode", am);
            t.SetAttr("out_h", 4);  // overridden by every other source
            t.SetAttr("out_w", 6);
            int oh = 4, ow = 6;
            double scale_h = -1, scale_w = -1;  // only v2 uses scales for the ratio
            switch (src) {
              case Source::kScaleAttr:
              case Source::kScaleTensor:
                if (v2) {
                  if (src == Source::kScaleAttr) t.SetAttr("scale", std::vector<float>{sh, sw});
                  else t.SetInput<float>("Scale", "s", {2}, {sh, sw});
                  oh = static_cast<int>(ih * sh);
                  ow = static_cast<int>(iw * sw);
                  scale_h = sh;
                  scale_w = sw;
                } else {
                  if (src == Source::kScaleAttr) t.SetAttr("scale", sh);
                  else t.SetInput<float>("Scale", "s", {1}, {sh});
                  oh = static_cast<int>(ih * sh);
                  ow = static_cast<int>(iw * sh);
                }
                break;
              case Source::kOutHW:
                break;
              case Source::kOutSize:
                t.SetInput<int32_t>("OutSize", "os", {2}, {7, 2});
                oh = 7;
                ow = 2;
                break;
              case Source::kSizeTensor:
                t.SetInput<int32_t>("SizeTensor", "s0", {1}, {3});
                t.SetInput<int32_t>("SizeTensor", "s1", {1}, {8});
                oh = 3;
                ow = 8;
                break;
            }
            const std::string what = op + " ac=" + std::to_string(ac) + " am=" +
                                     std::to_string(am) + " " + Name(src);
            ASSERT_TRUE(t.Run().ok()) << what;
            ASSERT_EQ(t.Get("out").dims(), (DDim{n, c, oh, ow})) << what;
            float rh = 0, rw = 0;
            if (oh > 1) rh = ac ? float(ih - 1) / (oh - 1) : scale_h > 0 ? float(1. / scale_h) : float(ih) / oh;
            if (ow > 1) rw = ac ? float(iw - 1) / (ow - 1) : scale_w > 0 ? float(1. / scale_w) : float(iw) / ow;
            auto want = Ref(x, n, c, ih, iw, oh, ow, rh, rw, nearest, ac, am);
            auto got = t.GetData<float>("out");
            ASSERT_EQ(got.size(), want.size()) << what;
            for (size_t i = 0; i < got.size(); ++i) {
              ASSERT_NEAR(got[i], want[i], 1e-4) << what << " at " << i;
            }
          }
        }
      }
    }
  }
}

TEST(Interpolate, PrecedenceSizeTensorOverOutSizeOverScale) {
  OpTester t("bilinear_interp_v2");
  t.SetInput<float>("X", "x", {1, 1, 4, 4}, Input(16));
  t.SetOutput("Out", "out");
  t.SetAttr("scale", std::vector<float>{3.f, 3.f});
  t.SetInput<float>("Scale", "s", {1}, {2.f});
  t.SetInput<int32_t>("OutSize", "os", {2}, {5, 5});
  t.SetInput<int32_t>("SizeTensor", "s0", {1}, {2});
  t.SetInput<int32_t>("SizeTensor", "s1", {1}, {3});
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dims(), (DDim{1, 1, 2, 3}));
}

TEST(Interpolate, V2OutSizeSetsSizeButScaleDrivesRatio) {
  // Paddle: OutSize overrides the size, the scale (0.5 -> ratio 0.5) stays.
  const auto x = Input(25);
  OpTester t("nearest_interp_v2");
  t.SetInput<float>("X", "x", {1, 1, 5, 5}, x);
  t.SetOutput("Out", "out");
  t.SetAttr("align_corners", false);
  t.SetAttr("scale", std::vector<float>{2.f, 2.f});
  t.SetInput<int32_t>("OutSize", "os", {2}, {6, 6});
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dims(), (DDim{1, 1, 6, 6}));
  EXPECT_EQ(t.GetData<float>("out"), Ref(x, 1, 1, 5, 5, 6, 6, 0.5, 0.5, true, false, 1));
}

TEST(Interpolate, ScaleOnlyFollowsRuntimeInputSize) {
  // The PP-OCR det pattern: nearest_interp_v2, scale [2, 2], out_h = out_w = -1.
  OpTester t("nearest_interp_v2");
  Tensor* in = t.SetInput<float>("X", "x", {1, 2, 3, 4}, Input(24));
  t.SetOutput("Out", "out");
  t.SetAttr("interp_method", "nearest");
  t.SetAttr("align_corners", false);
  t.SetAttr("align_mode", 1);
  t.SetAttr("out_h", -1);
  t.SetAttr("out_w", -1);
  t.SetAttr("scale", std::vector<float>{2.f, 2.f});
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dims(), (DDim{1, 2, 6, 8}));
  EXPECT_EQ(t.GetData<float>("out"), Ref(Input(24), 1, 2, 3, 4, 6, 8, 0.5, 0.5, true, false, 1));
  in->Resize({1, 2, 5, 6});
  auto x2 = Input(60);
  std::copy(x2.begin(), x2.end(), in->mutable_data<float>());
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dims(), (DDim{1, 2, 10, 12}));
  EXPECT_EQ(t.GetData<float>("out"), Ref(x2, 1, 2, 5, 6, 10, 12, 0.5, 0.5, true, false, 1));
}

TEST(Interpolate, OutSizeValueChangeWithSameDims) {
  OpTester t("bilinear_interp");
  t.SetInput<float>("X", "x", {1, 1, 4, 4}, Input(16));
  t.SetOutput("Out", "out");
  Tensor* os = t.SetInput<int32_t>("OutSize", "os", {2}, {8, 8});
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dims(), (DDim{1, 1, 8, 8}));
  os->mutable_data<int32_t>()[1] = 2;
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dims(), (DDim{1, 1, 8, 2}));
  EXPECT_EQ(t.GetData<float>("out").size(), 16u);
}

TEST(Interpolate, SameSizeCopiesAndSingleV2ScaleAppliesToBoth) {
  const auto x = Input(12);
  OpTester t("bilinear_interp_v2");
  t.SetInput<float>("X", "x", {1, 1, 3, 4}, x);
  t.SetOutput("Out", "out");
  t.SetAttr("scale", std::vector<float>{1.f});
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dims(), (DDim{1, 1, 3, 4}));
  EXPECT_EQ(t.GetData<float>("out"), x);
}

TEST(Interpolate, ErrorsAndUnsupportedAttributes) {
  {
    OpTester t("nearest_interp_v2");  // no size information at all
    t.SetInput<float>("X", "x", {1, 1, 2, 2}, Input(4));
    t.SetOutput("Out", "out");
    EXPECT_FALSE(t.Run().ok());
  }
  {
    OpTester t("bilinear_interp_v2");
    t.SetInput<float>("X", "x", {1, 1, 2, 2}, Input(4));
    t.SetOutput("Out", "out");
    t.SetAttr("interp_method", "bicubic");
    t.SetAttr("out_h", 4);
    t.SetAttr("out_w", 4);
    EXPECT_EQ(t.Run().code(), StatusCode::kUnimplemented);
  }
  {
    OpTester t("nearest_interp");
    t.SetInput<float>("X", "x", {1, 2, 2, 1}, Input(4));
    t.SetOutput("Out", "out");
    t.SetAttr("data_layout", "NHWC");
    t.SetAttr("out_h", 4);
    t.SetAttr("out_w", 4);
    EXPECT_EQ(t.Run().code(), StatusCode::kUnimplemented);
  }
  {
    OpTester t("nearest_interp_v2");
    t.SetInput<float>("X", "x", {1, 1, 2, 2}, Input(4));
    t.SetOutput("Out", "out");
    t.SetInput<float>("Scale", "s", {2}, {0.f, 2.f});
    EXPECT_FALSE(t.Run().ok());
  }
}

}  // namespace
}  // namespace lite
