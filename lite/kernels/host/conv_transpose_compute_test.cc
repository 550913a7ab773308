// conv2d_transpose against a naive scatter reference.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

struct TCfg {
  int n = 1, c = 4, h = 4, w = 5, cout_g = 3, kh = 3, kw = 3, groups = 1;
  std::vector<int> strides{1, 1};
  std::vector<int> pads{0, 0, 0, 0};  // effective top, bottom, left, right
  std::vector<int> dils{1, 1};
  int Inferred(int d) const {
    int in = d == 0 ? h : w, k = d == 0 ? kh : kw;
    return (in - 1) * strides[d] - pads[2 * d] - pads[2 * d + 1] + dils[d] * (k - 1) + 1;
  }
};

// out dims [n, cout_g*groups, oh, ow]; every input pixel scatters its window.
std::vector<float> NaiveTranspose(const TCfg& k, int oh, int ow, const std::vector<float>& x,
                                  const std::vector<float>& f, const std::vector<float>* bias) {
  const int cout = k.cout_g * k.groups, cin_g = k.c / k.groups;
  std::vector<double> acc(static_cast<size_t>(k.n) * cout * oh * ow, 0.0);
  for (int n = 0; n < k.n; ++n)
    for (int ic = 0; ic < k.c; ++ic) {
      const int g = ic / cin_g;
      for (int ih = 0; ih < k.h; ++ih)
        for (int iw = 0; iw < k.w; ++iw)
          for (int oc = 0; oc < k.cout_g; ++oc)
            for (int i = 0; i < k.kh; ++i)
              for (int j = 0; j < k.kw; ++j) {
                int y = ih * k.strides[0] - k.pads[0] + i * k.dils[0];
                int xo = iw * k.strides[1] - k.pads[2] + j * k.dils[1];
                if (y < 0 || y >= oh || xo < 0 || xo >= ow) continue;
                int c = g * k.cout_g + oc;
                acc[((n * cout + c) * oh + y) * ow + xo] +=
                    x[((n * k.c + ic) * k.h + ih) * k.w + iw] *
                    f[((ic * k.cout_g + oc) * k.kh + i) * k.kw + j];
              }
    }
  std::vector<float> out(acc.size());
  for (size_t i = 0; i < acc.size(); ++i) {
    int c = static_cast<int>((i / (static_cast<size_t>(oh) * ow)) % cout);
    out[i] = static_cast<float>(acc[i] + (bias ? (*bias)[c] : 0.f));
  }
  return out;
}

void ExpectNear(const std::vector<float>& a, const std::vector<float>& b, const std::string& w) {
  ASSERT_EQ(a.size(), b.size()) << w;
  for (size_t i = 0; i < a.size(); ++i) ASSERT_NEAR(a[i], b[i], 1e-4) << w << " at " << i;
}

struct TRun {
  OpTester t;
  std::vector<float> x, f;
  TRun(const TCfg& k, const std::vector<int>& pads_attr, uint32_t seed,
       const char* op = "conv2d_transpose")
      : t(op) {
    x = RandomFloats(static_cast<int64_t>(k.n) * k.c * k.h * k.w, seed);
    f = RandomFloats(static_cast<int64_t>(k.c) * k.cout_g * k.kh * k.kw, seed + 3);
    t.SetInput<float>("Input", "x", {k.n, k.c, k.h, k.w}, x);
    t.SetInput<float>("Filter", "f", {k.c, k.cout_g, k.kh, k.kw}, f);
    t.SetOutput("Output", "out");
    t.SetAttr("strides", k.strides);
    t.SetAttr("paddings", pads_attr);
    t.SetAttr("dilations", k.dils);
    t.SetAttr("groups", k.groups);
  }
};

TEST(Conv2dTranspose, MatchesNaiveAcrossGeometries) {
  struct Case {
    TCfg k;
    std::vector<int> pads_attr;
  };
  std::vector<Case> cases;
  { TCfg k; cases.push_back({k, {0, 0}}); }
  {
    TCfg k;
    k.strides = {2, 2};
    k.pads = {1, 1, 1, 1};
    k.n = 2;
    cases.push_back({k, {1, 1}});
  }
  {
    TCfg k;  // asymmetric paddings, dilation, mixed stride
    k.strides = {3, 2};
    k.dils = {2, 1};
    k.pads = {0, 2, 1, 0};
    k.kh = 4;
    cases.push_back({k, {0, 2, 1, 0}});
  }
  {
    TCfg k;  // groups
    k.groups = 2;
    k.cout_g = 3;
    k.strides = {2, 1};
    k.pads = {1, 0, 0, 1};
    cases.push_back({k, {1, 0, 0, 1}});
  }
  {
    TCfg k;  // depthwise-style: groups == C_in, 1 output channel per group
    k.groups = 4;
    k.cout_g = 1;
    k.strides = {2, 2};
    k.kh = k.kw = 4;
    k.pads = {1, 1, 1, 1};
    cases.push_back({k, {1, 1}});
  }
  {
    TCfg k;  // 1x1 direct path
    k.kh = k.kw = 1;
    k.n = 2;
    cases.push_back({k, {0, 0}});
  }
  for (size_t i = 0; i < cases.size(); ++i) {
    const auto& c = cases[i];
    TRun r(c.k, c.pads_attr, 5 + i);
    ASSERT_TRUE(r.t.Run().ok()) << i;
    const int oh = c.k.Inferred(0), ow = c.k.Inferred(1);
    EXPECT_EQ(r.t.Get("out").dims(), (DDim{c.k.n, c.k.cout_g * c.k.groups, oh, ow})) << i;
    ExpectNear(r.t.GetData<float>("out"), NaiveTranspose(c.k, oh, ow, r.x, r.f, nullptr),
               "case " + std::to_string(i));
  }
}

TEST(Conv2dTranspose, OutputPaddingAndOutputSizeWithGroups) {
  TCfg k;
  k.groups = 2;
  k.cout_g = 2;
  k.strides = {3, 2};
  k.pads = {1, 1, 0, 0};
  {
    TRun r(k, {1, 0}, 31);
    r.t.SetAttr("output_padding", std::vector<int>{2, 1});
    ASSERT_TRUE(r.t.Run().ok());
    const int oh = k.Inferred(0) + 2, ow = k.Inferred(1) + 1;
    EXPECT_EQ(r.t.Get("out").dims(), (DDim{1, 4, oh, ow}));
    ExpectNear(r.t.GetData<float>("out"), NaiveTranspose(k, oh, ow, r.x, r.f, nullptr),
               "output_padding");
  }
  {
    TRun r(k, {1, 0}, 32);
    const int oh = k.Inferred(0) + 1, ow = k.Inferred(1);
    r.t.SetAttr("output_size", std::vector<int>{oh, ow});
    r.t.SetAttr("output_padding", std::vector<int>{0, 1});  // ignored when output_size set
    ASSERT_TRUE(r.t.Run().ok());
    EXPECT_EQ(r.t.Get("out").dims(), (DDim{1, 4, oh, ow}));
    ExpectNear(r.t.GetData<float>("out"), NaiveTranspose(k, oh, ow, r.x, r.f, nullptr),
               "output_size");
  }
  {
    TRun r(k, {1, 0}, 33);
    r.t.SetInput<int32_t>("OutputSize", "osz", {2}, {k.Inferred(0) + 2, k.Inferred(1) + 1});
    ASSERT_TRUE(r.t.Run().ok());
    EXPECT_EQ(r.t.Get("out").dims(), (DDim{1, 4, k.Inferred(0) + 2, k.Inferred(1) + 1}));
  }
  {
    TRun r(k, {1, 0}, 34);  // output_size out of [inferred, inferred + stride)
    r.t.SetAttr("output_size", std::vector<int>{k.Inferred(0) + 3, k.Inferred(1)});
    EXPECT_EQ(r.t.Run().code(), StatusCode::kInvalidArgument);
  }
  {
    TRun r(k, {1, 0}, 35);
    r.t.SetAttr("output_size", std::vector<int>{k.Inferred(0) - 1, k.Inferred(1)});
    EXPECT_EQ(r.t.Run().code(), StatusCode::kInvalidArgument);
  }
  {
    TRun r(k, {1, 0}, 36);  // output_padding must be < max(stride, dilation)
    r.t.SetAttr("output_padding", std::vector<int>{0, 2});
    EXPECT_EQ(r.t.Run().code(), StatusCode::kInvalidArgument);
  }
}

TEST(Conv2dTranspose, SameAndValid) {
  TCfg k;
  k.strides = {2, 2};
  k.dils = {3, 3};  // SAME resets dilation to 1
  {
    TRun r(k, {0, 0}, 41);
    r.t.SetAttr("padding_algorithm", std::string("SAME"));
    ASSERT_TRUE(r.t.Run().ok());
    TCfg ref = k;
    ref.dils = {1, 1};
    // h=4: out 2, sum max(1*2+3-4,0)=1 -> (0,1); w=5: out 3, sum 2*2+3-5=2 -> (1,1)
    ref.pads = {0, 1, 1, 1};
    const int oh = ref.Inferred(0), ow = ref.Inferred(1);
    EXPECT_EQ(r.t.Get("out").dims(), (DDim{1, 3, oh, ow}));
    ExpectNear(r.t.GetData<float>("out"), NaiveTranspose(ref, oh, ow, r.x, r.f, nullptr),
               "SAME");
  }
  {
    TRun r(k, {2, 2}, 42);
    r.t.SetAttr("padding_algorithm", std::string("VALID"));
    ASSERT_TRUE(r.t.Run().ok());
    const int oh = k.Inferred(0), ow = k.Inferred(1);
    ExpectNear(r.t.GetData<float>("out"), NaiveTranspose(k, oh, ow, r.x, r.f, nullptr),
               "VALID");
  }
}

TEST(Conv2dTranspose, BiasFusedActivationAndDynamicShape) {
  TCfg k;
  k.groups = 2;
  k.cout_g = 2;
  k.strides = {2, 2};
  k.pads = {1, 1, 1, 1};
  TRun r(k, {1, 1}, 51);
  auto bias = RandomFloats(4, 52);
  r.t.SetInput<float>("Bias", "b", {4}, bias);
  r.t.SetAttr("fuse_activation", std::string("relu"));
  ASSERT_TRUE(r.t.Run().ok());
  auto ref = NaiveTranspose(k, k.Inferred(0), k.Inferred(1), r.x, r.f, &bias);
  for (auto& v : ref) v = std::max(v, 0.f);
  ExpectNear(r.t.GetData<float>("out"), ref, "bias relu");

  TCfg k2 = k;
  k2.n = 3;
  k2.h = 7;
  k2.w = 2;
  auto x2 = RandomFloats(3 * 4 * 7 * 2, 53);
  Tensor* in = r.t.scope()->FindMutableTensor("x");
  in->Resize({3, 4, 7, 2});
  std::copy(x2.begin(), x2.end(), in->mutable_data<float>());
  ASSERT_TRUE(r.t.Run().ok());
  EXPECT_EQ(r.t.Get("out").dims(), (DDim{3, 4, k2.Inferred(0), k2.Inferred(1)}));
  auto ref2 = NaiveTranspose(k2, k2.Inferred(0), k2.Inferred(1), x2, r.f, &bias);
  for (auto& v : ref2) v = std::max(v, 0.f);
  ExpectNear(r.t.GetData<float>("out"), ref2, "rerun");
}

// stride == kernel size with no padding: the scatter-only fast path, in one
// block and in several row blocks, with groups, bias and activations.
TEST(Conv2dTranspose, StrideEqualsKernelFastPath) {
  struct Case {
    int kh, kw, h, w, c, cout_g, groups, n;
    const char* act;
  };
  const Case cases[] = {
      {2, 2, 5, 7, 3, 2, 1, 2, "relu"},  {3, 3, 4, 1, 4, 3, 2, 1, "leaky_relu"},
      {2, 3, 6, 5, 2, 4, 1, 1, ""},      {1, 1, 3, 4, 2, 2, 1, 1, "relu6"},
      {2, 2, 130, 64, 2, 4, 1, 1, "relu"},  // 16 col rows x 64: 128-row blocks
      {2, 2, 70, 33, 4, 3, 2, 2, "hard_swish"}};
  int idx = 0;
  for (const auto& c : cases) {
    TCfg k;
    k.kh = c.kh;
    k.kw = c.kw;
    k.strides = {c.kh, c.kw};
    k.h = c.h;
    k.w = c.w;
    k.c = c.c;
    k.cout_g = c.cout_g;
    k.groups = c.groups;
    k.n = c.n;
    TRun r(k, {0, 0}, 70 + idx);
    const int cout = c.cout_g * c.groups;
    auto bias = RandomFloats(cout, 80 + idx);
    r.t.SetInput<float>("Bias", "b", {cout}, bias);
    if (c.act[0]) r.t.SetAttr("fuse_activation", std::string(c.act));
    r.t.SetAttr("fuse_alpha", std::string(c.act) == "hard_swish" ? 6.f : 0.1f);
    r.t.SetAttr("fuse_beta", 6.f);
    r.t.SetAttr("fuse_gamma", 3.f);
    ASSERT_TRUE(r.t.Run().ok()) << idx;
    EXPECT_EQ(r.t.Get("out").dims(), (DDim{c.n, cout, c.h * c.kh, c.w * c.kw})) << idx;
    auto ref = NaiveTranspose(k, k.Inferred(0), k.Inferred(1), r.x, r.f, &bias);
    const std::string a = c.act;
    for (auto& v : ref) {
      if (a == "relu") v = std::max(v, 0.f);
      if (a == "leaky_relu") v = v > 0 ? v : 0.1f * v;
      if (a == "relu6") v = std::min(std::max(v, 0.f), 0.1f);
      if (a == "hard_swish") v = v * std::min(std::max(v + 3.f, 0.f), 6.f) / 6.f;
    }
    ExpectNear(r.t.GetData<float>("out"), ref, "stride==kernel case " + std::to_string(idx));
    ++idx;
  }
  // output_padding makes the output larger than h * k: general path.
  TCfg k;
  k.kh = k.kw = 2;
  k.strides = {2, 2};
  TRun r(k, {0, 0}, 90);
  r.t.SetAttr("output_padding", std::vector<int>{1, 1});
  ASSERT_TRUE(r.t.Run().ok());
  ExpectNear(r.t.GetData<float>("out"),
             NaiveTranspose(k, k.Inferred(0) + 1, k.Inferred(1) + 1, r.x, r.f, nullptr),
             "output_padding");
}

TEST(Conv2dTranspose, RejectsBadInput) {
  TCfg k;
  {
    TRun r(k, {0, 0}, 1);
    r.t.SetAttr("data_format", std::string("NHWC"));
    EXPECT_EQ(r.t.Run().code(), StatusCode::kUnimplemented);
  }
  {
    TRun r(k, {0, 0}, 1);
    r.t.SetAttr("groups", 3);  // 4 input channels not divisible by 3
    EXPECT_EQ(r.t.Run().code(), StatusCode::kInvalidArgument);
  }
  {
    TRun r(k, {0, 0}, 1);
    r.t.SetAttr("output_size", std::vector<int>{6});
    EXPECT_EQ(r.t.Run().code(), StatusCode::kInvalidArgument);
  }
  {
    TRun r(k, {0, 0}, 1);
    r.t.SetInput<float>("Bias", "b", {4}, {0, 0, 0, 0});  // C_out is 3
    EXPECT_EQ(r.t.Run().code(), StatusCode::kInvalidArgument);
  }
}

// conv2d_transpose_pair (the fused form of two transposes in a row) runs
// both host kernels: the second (with sigmoid) on the first's output (with
// relu), against the naive scatter twice; its second part's bias is
// optional; a second filter whose C_in is not the first's C_out is refused.
TEST(Conv2dTransposePair, RunsBothTransposes) {
  TCfg a;
  a.c = 5;
  a.cout_g = 4;
  a.kh = a.kw = 2;
  a.strides = {2, 2};
  TCfg b = a;
  b.c = 4;
  b.cout_g = 2;
  b.h = a.Inferred(0);
  b.w = a.Inferred(1);
  for (bool bias1 : {true, false}) {
    OpTester t("conv2d_transpose_pair");
    const auto x = RandomFloats(a.c * a.h * a.w, 1);
    const auto f0 = RandomFloats(a.c * a.cout_g * 4, 2);
    const auto f1 = RandomFloats(b.c * b.cout_g * 4, 3);
    const auto b0 = RandomFloats(a.cout_g, 4);
    const auto b1 = RandomFloats(b.cout_g, 5);
    t.SetInput<float>("Input", "x", {1, a.c, a.h, a.w}, x);
    t.SetInput<float>("Filter0", "f0", {a.c, a.cout_g, 2, 2}, f0);
    t.SetInput<float>("Bias0", "b0", {a.cout_g}, b0);
    t.SetInput<float>("Filter1", "f1", {b.c, b.cout_g, 2, 2}, f1);
    if (bias1) t.SetInput<float>("Bias1", "b1", {b.cout_g}, b1);
    t.SetOutput("Out", "out");
    for (int i = 0; i < 2; ++i) {
      const std::string pre = "conv" + std::to_string(i) + "_";
      t.SetAttr(pre + "strides", std::vector<int>{2, 2});
      t.SetAttr(pre + "paddings", std::vector<int>{0, 0});
      t.SetAttr(pre + "dilations", std::vector<int>{1, 1});
      t.SetAttr(pre + "groups", 1);
      t.SetAttr(pre + "fuse_activation", std::string(i == 0 ? "relu" : "sigmoid"));
    }
    ASSERT_TRUE(t.Run().ok());
    auto mid = NaiveTranspose(a, b.h, b.w, x, f0, &b0);
    for (auto& v : mid) v = std::max(v, 0.f);
    auto want = NaiveTranspose(b, b.Inferred(0), b.Inferred(1), mid, f1, bias1 ? &b1 : nullptr);
    for (auto& v : want) v = 1.f / (1.f + std::exp(-v));
    EXPECT_EQ(t.Get("out").dims(), (DDim{1, b.cout_g, b.Inferred(0), b.Inferred(1)}));
    ExpectNear(t.GetData<float>("out"), want, bias1 ? "pair" : "pair, no second bias");
  }
  OpTester t("conv2d_transpose_pair");
  t.SetInput<float>("Input", "x", {1, 5, 3, 3}, RandomFloats(45, 1));
  t.SetInput<float>("Filter0", "f0", {5, 4, 2, 2}, RandomFloats(80, 2));
  t.SetInput<float>("Filter1", "f1", {3, 2, 2, 2}, RandomFloats(24, 3));
  t.SetOutput("Out", "out");
  for (const char* pre : {"conv0_", "conv1_"}) {
    t.SetAttr(std::string(pre) + "strides", std::vector<int>{2, 2});
    t.SetAttr(std::string(pre) + "paddings", std::vector<int>{0, 0});
  }
  EXPECT_FALSE(t.Run().ok());
}

}  // namespace
}  // namespace lite
