// pool2d against a naive reference that walks each window in padded
// coordinates (Paddle's rules: window end bounded by H + pad_top, avg divisor
// = full window when exclusive=false).
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

struct PCfg {
  std::string type = "max";
  int n = 1, c = 2, h = 7, w = 6;
  std::vector<int> k{3, 3}, s{2, 2};
  std::vector<int> pads{0, 0, 0, 0};  // effective top, bottom, left, right
  bool ceil = false, exclusive = true;
  int Out(int d) const {
    int in = d == 0 ? h : w;
    int tot = pads[2 * d] + pads[2 * d + 1];
    return (in - k[d] + tot + (ceil ? s[d] - 1 : 0)) / s[d] + 1;
  }
};

std::vector<float> NaivePool(const PCfg& p, const std::vector<float>& x) {
  const int oh = p.Out(0), ow = p.Out(1);
  std::vector<float> out;
  for (int pl = 0; pl < p.n * p.c; ++pl)
    for (int i = 0; i < oh; ++i)
      for (int j = 0; j < ow; ++j) {
        double sum = 0, mx = -FLT_MAX;
        int full_h = 0, full_w = 0, valid = 0;
        for (int a = 0; a < p.k[0]; ++a) {
          int y = i * p.s[0] - p.pads[0] + a;
          if (y < p.h + p.pads[0]) ++full_h;
        }
        for (int b = 0; b < p.k[1]; ++b) {
          int xx = j * p.s[1] - p.pads[2] + b;
          if (xx < p.w + p.pads[2]) ++full_w;
        }
        for (int a = 0; a < p.k[0]; ++a)
          for (int b = 0; b < p.k[1]; ++b) {
            int y = i * p.s[0] - p.pads[0] + a, xx = j * p.s[1] - p.pads[2] + b;
            if (y < 0 || y >= p.h || xx < 0 || xx >= p.w) continue;
            double v = x[(pl * p.h + y) * p.w + xx];
            sum += v;
            mx = std::max(mx, v);
            ++valid;
          }
        if (p.type == "max") {
          out.push_back(static_cast<float>(mx));
        } else {
          out.push_back(static_cast<float>(sum / (p.exclusive ? valid : full_h * full_w)));
        }
      }
  return out;
}

std::vector<float> NaiveAdaptive(const std::string& type, int planes, int h, int w, int oh,
                                 int ow, const std::vector<float>& x) {
  std::vector<float> out;
  for (int pl = 0; pl < planes; ++pl)
    for (int i = 0; i < oh; ++i)
      for (int j = 0; j < ow; ++j) {
        int hs = static_cast<int>(std::floor(double(i) * h / oh));
        int he = static_cast<int>(std::ceil(double(i + 1) * h / oh));
        int ws = static_cast<int>(std::floor(double(j) * w / ow));
        int we = static_cast<int>(std::ceil(double(j + 1) * w / ow));
        double sum = 0, mx = -FLT_MAX;
        for (int y = hs; y < he; ++y)
          for (int xx = ws; xx < we; ++xx) {
            sum += x[(pl * h + y) * w + xx];
            mx = std::max<double>(mx, x[(pl * h + y) * w + xx]);
          }
        out.push_back(type == "max" ? static_cast<float>(mx)
                                    : static_cast<float>(sum / ((he - hs) * (we - ws))));
      }
  return out;
}

void ExpectNear(const std::vector<float>& a, const std::vector<float>& b, const std::string& w) {
  ASSERT_EQ(a.size(), b.size()) << w;
  for (size_t i = 0; i < a.size(); ++i) ASSERT_NEAR(a[i], b[i], 1e-5) << w << " at " << i;
}

OpTester* MakePool(OpTester* t, const PCfg& p, const std::vector<float>& x,
                   const std::vector<int>& pads_attr) {
  t->SetInput<float>("X", "x", {p.n, p.c, p.h, p.w}, x);
  t->SetOutput("Out", "out");
  t->SetAttr("pooling_type", p.type);
  t->SetAttr("ksize", p.k);
  t->SetAttr("strides", p.s);
  t->SetAttr("paddings", pads_attr);
  t->SetAttr("ceil_mode", p.ceil);
  t->SetAttr("exclusive", p.exclusive);
  return t;
}

TEST(Pool2d, HandComputedCeilModeAndExclusive) {
  std::vector<float> x(16);
  for (int i = 0; i < 16; ++i) x[i] = static_cast<float>(i + 1);
  PCfg p;
  p.type = "avg";
  p.c = 1;
  p.h = p.w = 4;
  p.pads = {1, 1, 1, 1};
  struct Want {
    bool ceil, exclusive;
    DDim dims;
    float first, last;
  } wants[] = {
      {false, true, {1, 1, 2, 2}, 14.f / 4, (6 + 7 + 8 + 10 + 11 + 12 + 14 + 15 + 16) / 9.f},
      {false, false, {1, 1, 2, 2}, 14.f / 9, (6 + 7 + 8 + 10 + 11 + 12 + 14 + 15 + 16) / 9.f},
      {true, true, {1, 1, 3, 3}, 14.f / 4, 16.f},
      // Window (2,2) starts at row/col 3, ends at min(6, 4 + 1) = 5: 2x2.
      {true, false, {1, 1, 3, 3}, 14.f / 9, 16.f / 4},
  };
  for (const auto& wnt : wants) {
    p.ceil = wnt.ceil;
    p.exclusive = wnt.exclusive;
    OpTester t("pool2d");
    MakePool(&t, p, x, {1, 1});
    ASSERT_TRUE(t.Run().ok());
    EXPECT_EQ(t.Get("out").dims(), wnt.dims);
    auto out = t.GetData<float>("out");
    EXPECT_NEAR(out.front(), wnt.first, 1e-6) << wnt.ceil << wnt.exclusive;
    EXPECT_NEAR(out.back(), wnt.last, 1e-6) << wnt.ceil << wnt.exclusive;
    ExpectNear(out, NaivePool(p, x), "hand");
  }
}

TEST(Pool2d, MatchesNaiveAcrossModes) {
  int idx = 0;
  for (const char* type : {"max", "avg"})
    for (bool ceil : {false, true})
      for (bool exclusive : {true, false})
        for (int geom = 0; geom < 4; ++geom) {
          PCfg p;
          p.type = type;
          p.ceil = ceil;
          p.exclusive = exclusive;
          p.n = 2;
          std::vector<int> attr;
          switch (geom) {
            case 0: attr = {0, 0}; break;
            case 1: attr = {1, 2}; p.pads = {1, 1, 2, 2}; p.k = {3, 4}; break;
            case 2: attr = {0, 2, 1, 0}; p.pads = attr; p.s = {3, 1}; break;
            case 3: attr = {1, 1, 0, 1}; p.pads = attr; p.k = {2, 2}; p.h = 8; p.w = 9; break;
          }
          auto x = RandomFloats(p.n * p.c * p.h * p.w, ++idx, -2.f, 2.f);
          OpTester t("pool2d");
          MakePool(&t, p, x, attr);
          ASSERT_TRUE(t.Run().ok());
          EXPECT_EQ(t.Get("out").dims(), (DDim{p.n, p.c, p.Out(0), p.Out(1)}));
          ExpectNear(t.GetData<float>("out"), NaivePool(p, x),
                     std::string(type) + " ceil=" + std::to_string(ceil) +
                         " excl=" + std::to_string(exclusive) + " geom=" + std::to_string(geom));
        }
}

// Paddle's pool2d max ignores `adaptive`: ksize windows at stride 1 (the
// default), no padding, output size ksize.
std::vector<float> NaivePaddleAdaptiveMax(int planes, int h, int w, int oh, int ow,
                                          const std::vector<float>& x) {
  std::vector<float> out;
  for (int pl = 0; pl < planes; ++pl)
    for (int i = 0; i < oh; ++i)
      for (int j = 0; j < ow; ++j) {
        float mx = -FLT_MAX;
        for (int y = i; y < std::min(i + oh, h); ++y)
          for (int xx = j; xx < std::min(j + ow, w); ++xx)
            mx = std::max(mx, x[(pl * h + y) * w + xx]);
        out.push_back(mx);
      }
  return out;
}

TEST(Pool2d, AdaptiveAvgAndMax) {
  for (const char* type : {"avg", "max"}) {
    for (auto os : {std::vector<int>{3, 2}, std::vector<int>{1, 1}, std::vector<int>{5, 4}}) {
      auto x = RandomFloats(2 * 3 * 7 * 5, 60, -2.f, 2.f);
      OpTester t("pool2d");
      t.SetInput<float>("X", "x", {2, 3, 7, 5}, x);
      t.SetOutput("Out", "out");
      t.SetAttr("pooling_type", std::string(type));
      t.SetAttr("ksize", os);
      t.SetAttr("adaptive", true);
      t.SetAttr("paddings", std::vector<int>{3, 3});  // ignored
      t.SetAttr("exclusive", false);                  // adaptive always divides by window
      ASSERT_TRUE(t.Run().ok());
      EXPECT_EQ(t.Get("out").dims(), (DDim{2, 3, os[0], os[1]}));
      auto want = std::string(type) == "max"
                      ? NaivePaddleAdaptiveMax(6, 7, 5, os[0], os[1], x)
                      : NaiveAdaptive(type, 6, 7, 5, os[0], os[1], x);
      ExpectNear(t.GetData<float>("out"), want, std::string("adaptive ") + type);
    }
  }
}

TEST(Pool2d, GlobalPoolingAndDynamicShape) {
  for (const char* type : {"avg", "max"}) {
    auto x = RandomFloats(2 * 3 * 4 * 5, 70, -2.f, 2.f);
    OpTester t("pool2d");
    t.SetInput<float>("X", "x", {2, 3, 4, 5}, x);
    t.SetOutput("Out", "out");
    t.SetAttr("pooling_type", std::string(type));
    t.SetAttr("ksize", std::vector<int>{2, 2});  // ignored
    t.SetAttr("paddings", std::vector<int>{1, 1});  // ignored
    t.SetAttr("global_pooling", true);
    t.SetAttr("exclusive", false);
    ASSERT_TRUE(t.Run().ok());
    EXPECT_EQ(t.Get("out").dims(), (DDim{2, 3, 1, 1}));
    ExpectNear(t.GetData<float>("out"), NaiveAdaptive(type, 6, 4, 5, 1, 1, x), "global");

    auto x2 = RandomFloats(1 * 3 * 6 * 2, 71, -2.f, 2.f);
    Tensor* in = t.scope()->FindMutableTensor("x");
    in->Resize({1, 3, 6, 2});
    std::copy(x2.begin(), x2.end(), in->mutable_data<float>());
    ASSERT_TRUE(t.Run().ok());
    EXPECT_EQ(t.Get("out").dims(), (DDim{1, 3, 1, 1}));
    ExpectNear(t.GetData<float>("out"), NaiveAdaptive(type, 3, 6, 2, 1, 1, x2), "global rerun");
  }
  // Windowed pool re-run with a new size.
  PCfg p;
  auto x = RandomFloats(p.n * p.c * p.h * p.w, 72, -2.f, 2.f);
  OpTester t("pool2d");
  MakePool(&t, p, x, {1, 1});
  p.pads = {1, 1, 1, 1};
  ASSERT_TRUE(t.Run().ok());
  ExpectNear(t.GetData<float>("out"), NaivePool(p, x), "first");
  p.h = 11;
  p.w = 3;
  auto x2 = RandomFloats(p.n * p.c * p.h * p.w, 73, -2.f, 2.f);
  Tensor* in = t.scope()->FindMutableTensor("x");
  in->Resize({p.n, p.c, p.h, p.w});
  std::copy(x2.begin(), x2.end(), in->mutable_data<float>());
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dims(), (DDim{p.n, p.c, p.Out(0), p.Out(1)}));
  ExpectNear(t.GetData<float>("out"), NaivePool(p, x2), "rerun");
}

TEST(Pool2d, SameAndValid) {
  for (const char* type : {"avg", "max"}) {
    PCfg p;
    p.type = type;
    p.h = 7;
    p.w = 8;
    p.k = {3, 2};
    p.s = {2, 3};
    p.exclusive = false;
    auto x = RandomFloats(p.n * p.c * p.h * p.w, 80, -2.f, 2.f);
    {
      OpTester t("pool2d");
      MakePool(&t, p, x, {4, 4});
      t.SetAttr("padding_algorithm", std::string("SAME"));
      ASSERT_TRUE(t.Run().ok());
      // h: out 4, sum max(3*2+3-7,0)=2 -> (1,1); w: out 3, sum 2*3+2-8=0.
      PCfg ref = p;
      ref.pads = {1, 1, 0, 0};
      EXPECT_EQ(t.Get("out").dims(), (DDim{1, 2, 4, 3}));
      ExpectNear(t.GetData<float>("out"), NaivePool(ref, x), std::string("SAME ") + type);
    }
    {
      OpTester t("pool2d");
      MakePool(&t, p, x, {4, 4});
      t.SetAttr("padding_algorithm", std::string("VALID"));
      ASSERT_TRUE(t.Run().ok());
      ExpectNear(t.GetData<float>("out"), NaivePool(p, x), std::string("VALID ") + type);
    }
  }
}

TEST(Pool2d, RejectsBadAttributes) {
  PCfg p;
  auto x = RandomFloats(p.n * p.c * p.h * p.w, 1, -2.f, 2.f);
  auto run = [&](const char* name, auto value, StatusCode want) {
    OpTester t("pool2d");
    MakePool(&t, p, x, {0, 0});
    t.SetAttr(name, value);
    Status s = t.Run();
    EXPECT_EQ(s.code(), want) << name << ": " << s.ToString();
  };
  run("data_format", std::string("NHWC"), StatusCode::kUnimplemented);
  run("pooling_type", std::string("lp"), StatusCode::kUnimplemented);
  run("ksize", std::vector<int>{3}, StatusCode::kInvalidArgument);
  run("paddings", std::vector<int>{1, 1, 1}, StatusCode::kInvalidArgument);
  run("strides", std::vector<int>{0, 1}, StatusCode::kInvalidArgument);
  run("padding_algorithm", std::string("FULL"), StatusCode::kInvalidArgument);
  OpTester t("pool2d");
  t.SetInput<float>("X", "x", {2, 3, 4}, std::vector<float>(24, 0.f));
  t.SetOutput("Out", "out");
  t.SetAttr("pooling_type", std::string("max"));
  t.SetAttr("ksize", std::vector<int>{2, 2});
  EXPECT_EQ(t.Run().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace lite
