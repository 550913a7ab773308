// pad2d / pad3d: Paddle's documented examples plus a naive per-mode reference.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

std::vector<float> Seq(int64_t n) {
  std::vector<float> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = static_cast<float>(i + 1);
  return v;
}

// Reference by mode name, one dim at a time; -1 means "constant".
int64_t Src(const std::string& mode, int64_t o, int64_t b, int64_t n) {
  int64_t i = o - b;
  if (mode == "constant") return (i < 0 || i >= n) ? -1 : i;
  if (mode == "edge" || mode == "replicate") return i < 0 ? 0 : (i >= n ? n - 1 : i);
  if (mode == "circular") {
    while (i < 0) i += n;
    return i % n;
  }
  // reflect without repeating the edge: -1 -> 1, n -> n-2
  if (i < 0) return -i;
  if (i >= n) return 2 * (n - 1) - i;
  return i;
}

// x [N, C, D, H, W]; pads {d0, d1, h0, h1, w0, w1}.
std::vector<float> NaivePad(const std::vector<float>& x, const DDim& d5,
                            const std::vector<int>& p, const std::string& mode, float value) {
  const int64_t D = d5[2], H = d5[3], W = d5[4];
  const int64_t od = D + p[0] + p[1], oh = H + p[2] + p[3], ow = W + p[4] + p[5];
  std::vector<float> out;
  for (int64_t pl = 0; pl < d5[0] * d5[1]; ++pl)
    for (int64_t a = 0; a < od; ++a)
      for (int64_t b = 0; b < oh; ++b)
        for (int64_t c = 0; c < ow; ++c) {
          int64_t sa = Src(mode, a, p[0], D), sb = Src(mode, b, p[2], H), sc = Src(mode, c, p[4], W);
          out.push_back(sa < 0 || sb < 0 || sc < 0 ? value
                                                   : x[((pl * D + sa) * H + sb) * W + sc]);
        }
  return out;
}

TEST(Pad2d, PaddleDocExamples) {
  const std::vector<float> x = {1, 2, 3, 4, 5, 6};
  struct Case {
    const char* mode;
    std::vector<int> pads;
    DDim dims;
    std::vector<float> want;
  } cases[] = {
      {"constant", {0, 1, 2, 3}, {1, 1, 3, 8},
       {0, 0, 1, 2, 3, 0, 0, 0, 0, 0, 4, 5, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
      {"reflect", {0, 1, 2, 1}, {1, 1, 3, 6},
       {3, 2, 1, 2, 3, 2, 6, 5, 4, 5, 6, 5, 3, 2, 1, 2, 3, 2}},
      {"edge", {0, 1, 2, 1}, {1, 1, 3, 6},
       {1, 1, 1, 2, 3, 3, 4, 4, 4, 5, 6, 6, 4, 4, 4, 5, 6, 6}},
  };
  for (const auto& c : cases) {
    OpTester t("pad2d");
    t.SetInput<float>("X", "x", {1, 1, 2, 3}, x);
    t.SetOutput("Out", "out");
    t.SetAttr("paddings", c.pads);
    t.SetAttr("mode", std::string(c.mode));
    ASSERT_TRUE(t.Run().ok()) << c.mode;
    EXPECT_EQ(t.Get("out").dims(), c.dims) << c.mode;
    EXPECT_EQ(t.GetData<float>("out"), c.want) << c.mode;
  }
}

TEST(Pad2d, MatchesNaiveWithPadValueAndPaddingsTensor) {
  const auto x = Seq(2 * 3 * 4 * 5);
  for (const char* mode : {"constant", "reflect", "edge"}) {
    const std::vector<int> pads = {3, 1, 0, 4};  // top, bottom, left, right
    OpTester t("pad2d");
    t.SetInput<float>("X", "x", {2, 3, 4, 5}, x);
    t.SetOutput("Out", "out");
    t.SetAttr("paddings", pads);
    t.SetAttr("mode", std::string(mode));
    t.SetAttr("pad_value", 2.5f);
    ASSERT_TRUE(t.Run().ok()) << mode;
    EXPECT_EQ(t.Get("out").dims(), (DDim{2, 3, 8, 9}));
    EXPECT_EQ(t.GetData<float>("out"),
              NaivePad(x, {2, 3, 1, 4, 5}, {0, 0, 3, 1, 0, 4}, mode, 2.5f))
        << mode;
  }
  // Paddings tensor overrides the attribute; new values apply on re-run even
  // though no input dims change.
  OpTester t("pad2d");
  t.SetInput<float>("X", "x", {2, 3, 4, 5}, x);
  Tensor* pt = t.SetInput<int32_t>("Paddings", "p", {4}, {1, 0, 2, 1});
  t.SetOutput("Out", "out");
  t.SetAttr("paddings", std::vector<int>{0, 0, 0, 0});
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dims(), (DDim{2, 3, 5, 8}));
  EXPECT_EQ(t.GetData<float>("out"), NaivePad(x, {2, 3, 1, 4, 5}, {0, 0, 1, 0, 2, 1}, "constant", 0));
  int32_t* pv = pt->mutable_data<int32_t>();
  pv[0] = 0;
  pv[1] = 2;
  pv[2] = 0;
  pv[3] = 0;
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dims(), (DDim{2, 3, 6, 5}));
  EXPECT_EQ(t.GetData<float>("out"), NaivePad(x, {2, 3, 1, 4, 5}, {0, 0, 0, 2, 0, 0}, "constant", 0));
}

TEST(Pad3d, AllModesMatchNaive) {
  const DDim d = {1, 2, 3, 4, 5};
  const auto x = Seq(2 * 3 * 4 * 5);
  const std::vector<int> attr = {2, 1, 0, 3, 1, 2};  // left, right, top, bottom, front, back
  const std::vector<int> ref = {1, 2, 0, 3, 2, 1};   // front, back, top, bottom, left, right
  for (const char* mode : {"constant", "reflect", "replicate", "circular"}) {
    OpTester t("pad3d");
    t.SetInput<float>("X", "x", d, x);
    t.SetOutput("Out", "out");
    t.SetAttr("paddings", attr);
    t.SetAttr("mode", std::string(mode));
    t.SetAttr("value", -1.f);
    ASSERT_TRUE(t.Run().ok()) << mode;
    EXPECT_EQ(t.Get("out").dims(), (DDim{1, 2, 6, 7, 8})) << mode;
    EXPECT_EQ(t.GetData<float>("out"), NaivePad(x, d, ref, mode, -1.f)) << mode;
  }
  // Circular may wrap further than the input size.
  OpTester t("pad3d");
  t.SetInput<float>("X", "x", d, x);
  t.SetOutput("Out", "out");
  t.SetAttr("paddings", std::vector<int>{7, 0, 0, 5, 0, 0});
  t.SetAttr("mode", std::string("circular"));
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.GetData<float>("out"), NaivePad(x, d, {0, 0, 0, 5, 7, 0}, "circular", 0));
}

TEST(Pad3d, DynamicShapeAndPaddingsTensor) {
  OpTester t("pad3d");
  Tensor* in = t.SetInput<float>("X", "x", {1, 1, 2, 2, 2}, Seq(8));
  t.SetInput<int64_t>("Paddings", "p", {6}, {1, 1, 0, 0, 1, 0});
  t.SetOutput("Out", "out");
  t.SetAttr("mode", std::string("replicate"));
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dims(), (DDim{1, 1, 3, 2, 4}));
  in->Resize({2, 1, 3, 1, 2});
  auto x2 = Seq(12);
  std::copy(x2.begin(), x2.end(), in->mutable_data<float>());
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dims(), (DDim{2, 1, 4, 1, 4}));
  EXPECT_EQ(t.GetData<float>("out"),
            NaivePad(x2, {2, 1, 3, 1, 2}, {1, 0, 0, 0, 1, 1}, "replicate", 0));
}

TEST(Pad, RejectsBadAttributes) {
  auto make = [](const char* op, const DDim& d) {
    auto t = std::make_unique<OpTester>(op);
    t->SetInput<float>("X", "x", d, Seq(Product(d)));
    t->SetOutput("Out", "out");
    return t;
  };
  {
    auto t = make("pad2d", {1, 1, 2, 3});
    t->SetAttr("paddings", std::vector<int>{0, 1, 3, 0});  // reflect pad 3 >= width 3
    t->SetAttr("mode", std::string("reflect"));
    EXPECT_EQ(t->Run().code(), StatusCode::kInvalidArgument);
  }
  {
    auto t = make("pad2d", {1, 1, 2, 3});
    t->SetAttr("paddings", std::vector<int>{0, 1, 0});
    EXPECT_EQ(t->Run().code(), StatusCode::kInvalidArgument);
  }
  {
    auto t = make("pad2d", {1, 1, 2, 3});
    t->SetAttr("paddings", std::vector<int>{0, 1, 0, 0});
    t->SetAttr("mode", std::string("circular"));  // pad3d only
    EXPECT_EQ(t->Run().code(), StatusCode::kUnimplemented);
  }
  {
    auto t = make("pad2d", {1, 1, 2, 3});
    t->SetAttr("paddings", std::vector<int>{0, 1, 0, 0});
    t->SetAttr("data_format", std::string("NHWC"));
    EXPECT_EQ(t->Run().code(), StatusCode::kUnimplemented);
  }
  {
    auto t = make("pad3d", {1, 1, 2, 2, 2});
    t->SetAttr("paddings", std::vector<int>{0, 0, 0, 0, 0, 0});
    t->SetAttr("data_format", std::string("NDHWC"));
    EXPECT_EQ(t->Run().code(), StatusCode::kUnimplemented);
  }
  {
    auto t = make("pad3d", {1, 1, 2, 2});  // 4-D input
    t->SetAttr("paddings", std::vector<int>{0, 0, 0, 0, 0, 0});
    EXPECT_EQ(t->Run().code(), StatusCode::kInvalidArgument);
  }
  {
    auto t = make("pad3d", {1, 1, 2, 2, 2});
    t->SetAttr("paddings", std::vector<int>{0, 0, -3, 0, 0, 0});
    EXPECT_EQ(t->Run().code(), StatusCode::kInvalidArgument);
  }
}

}  // namespace
}  // namespace lite
