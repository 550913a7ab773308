// conv2d / depthwise_conv2d against a naive 7-loop reference.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "lite/core/op_tester.h"
#include "lite/backends/host/conv_depthwise.h"
#include "lite/kernels/host/conv_test_util.h"
#include "lite/base/fused_activation.h"

namespace lite {
namespace {

using namespace conv_test;  // NOLINT: the shared conv test vocabulary

TEST(Conv2d, MatchesNaiveAcrossGeometries) {
  struct Case {
    ConvCfg k;
    std::vector<int> pads_attr;
  };
  std::vector<Case> cases;
  {
    ConvCfg k;  // plain 3x3
    cases.push_back({k, {0, 0}});
  }
  {
    ConvCfg k;  // symmetric 2-value padding, stride 2
    k.pads = {1, 1, 2, 2};
    k.strides = {2, 2};
    k.h = 9;
    k.w = 8;
    cases.push_back({k, {1, 2}});
  }
  {
    ConvCfg k;  // asymmetric 4-value padding, dilation, mixed strides
    k.pads = {0, 2, 1, 3};
    k.strides = {1, 2};
    k.dils = {2, 1};
    k.h = 10;
    k.w = 9;
    cases.push_back({k, {0, 2, 1, 3}});
  }
  {
    ConvCfg k;  // groups = 2, non-square kernel
    k.c = 4;
    k.cout = 6;
    k.groups = 2;
    k.kh = 2;
    k.kw = 3;
    k.pads = {1, 0, 1, 1};
    k.n = 2;
    cases.push_back({k, {1, 0, 1, 1}});
  }
  {
    ConvCfg k;  // 1x1 with stride (im2col path)
    k.kh = k.kw = 1;
    k.strides = {2, 2};
    cases.push_back({k, {0, 0}});
  }
  {
    ConvCfg k;  // 5x5 dilation 2 groups 3 (C_out = 2*C_in, not depthwise)
    k.c = 3;
    k.cout = 6;
    k.groups = 3;
    k.kh = k.kw = 5;
    k.dils = {2, 2};
    k.pads = {4, 4, 4, 4};
    cases.push_back({k, {4, 4}});
  }
  for (size_t i = 0; i < cases.size(); ++i) {
    const auto& c = cases[i];
    ConvRun r("conv2d", c.k, c.pads_attr, 11 + i);
    ASSERT_TRUE(r.t.Run().ok()) << "case " << i;
    EXPECT_EQ(r.t.Get("out").dims(), (DDim{c.k.n, c.k.cout, c.k.OutH(), c.k.OutW()}))
        << "case " << i;
    ExpectNear(r.t.GetData<float>("out"), NaiveConv(c.k, r.x, r.f, nullptr),
               "case " + std::to_string(i));
  }
}

TEST(Conv2d, SameAndValidPaddingAlgorithms) {
  for (int stride : {1, 2, 3}) {
    ConvCfg k;
    k.h = 10;
    k.w = 7;
    k.kh = 3;
    k.kw = 4;
    k.strides = {stride, stride};
    k.dils = {2, 2};  // SAME resets dilation to 1
    ConvRun r("conv2d", k, {5, 5, 5, 5}, 3 + stride);
    r.t.SetAttr("padding_algorithm", std::string("SAME"));
    ASSERT_TRUE(r.t.Run().ok());
    ConvCfg ref = k;
    ref.dils = {1, 1};
    const int in[2] = {k.h, k.w}, ks[2] = {k.kh, k.kw};
    for (int d = 0; d < 2; ++d) {
      int out = (in[d] + stride - 1) / stride;
      int sum = std::max((out - 1) * stride + ks[d] - in[d], 0);
      ref.pads[2 * d] = sum / 2;
      ref.pads[2 * d + 1] = sum - sum / 2;
    }
    EXPECT_EQ(r.t.Get("out").dims(),
              (DDim{1, k.cout, (k.h + stride - 1) / stride, (k.w + stride - 1) / stride}));
    ExpectNear(r.t.GetData<float>("out"), NaiveConv(ref, r.x, r.f, nullptr), "SAME");
  }
  ConvCfg k;
  ConvRun r("conv2d", k, {2, 2}, 5);
  r.t.SetAttr("padding_algorithm", std::string("VALID"));
  ASSERT_TRUE(r.t.Run().ok());
  EXPECT_EQ(r.t.Get("out").dims(), (DDim{1, 4, 5, 4}));
  ExpectNear(r.t.GetData<float>("out"), NaiveConv(k, r.x, r.f, nullptr), "VALID");
}

TEST(Conv2d, OneByOneFastPathAgreesWithIm2colPath) {
  ConvCfg k;
  k.kh = k.kw = 1;
  k.c = 5;
  k.cout = 3;
  k.n = 2;
  ConvRun fast("conv2d", k, {0, 0}, 21);
  ASSERT_TRUE(fast.t.Run().ok());
  // Dilation does not change a 1x1 conv but takes the im2col path.
  ConvCfg k2 = k;
  k2.dils = {2, 3};
  ConvRun general("conv2d", k2, {0, 0}, 21);
  ASSERT_TRUE(general.t.Run().ok());
  auto a = fast.t.GetData<float>("out");
  ExpectNear(a, general.t.GetData<float>("out"), "fast vs general");
  ExpectNear(a, NaiveConv(k, fast.x, fast.f, nullptr), "fast vs naive");
}

TEST(Conv2d, DepthwisePathMatchesNaive) {
  struct D {
    int k, stride, dil;
    std::vector<int> pads;
  };
  const D cases[] = {{3, 1, 1, {1, 1, 1, 1}}, {3, 2, 1, {0, 1, 1, 0}},
                     {5, 1, 2, {4, 4, 4, 4}}, {5, 2, 1, {2, 2, 2, 2}},
                     {3, 3, 2, {0, 2, 3, 1}}, {2, 1, 1, {0, 0, 0, 0}}};
  int idx = 0;
  for (const auto& d : cases) {
    for (const char* op : {"conv2d", "depthwise_conv2d"}) {
      ConvCfg k;
      k.n = 2;
      k.c = k.cout = k.groups = 4;
      k.h = 11;
      k.w = 9;
      k.kh = k.kw = d.k;
      k.strides = {d.stride, d.stride};
      k.dils = {d.dil, d.dil};
      k.pads = d.pads;
      ConvRun r(op, k, d.pads, 40 + idx);
      ASSERT_TRUE(r.t.Run().ok()) << op << " case " << idx;
      ExpectNear(r.t.GetData<float>("out"), NaiveConv(k, r.x, r.f, nullptr),
                 std::string(op) + " case " + std::to_string(idx));
    }
    ++idx;
  }
  // Depthwise with channel multiplier 2 goes through the grouped GEMM path.
  ConvCfg k;
  k.c = 3;
  k.cout = 6;
  k.groups = 3;
  k.pads = {1, 1, 1, 1};
  ConvRun r("depthwise_conv2d", k, {1, 1}, 77);
  ASSERT_TRUE(r.t.Run().ok());
  ExpectNear(r.t.GetData<float>("out"), NaiveConv(k, r.x, r.f, nullptr), "multiplier 2");
}

TEST(Conv2d, DirectDepthwiseFunctionMatchesNaive) {
  ConvCfg k;
  k.c = k.cout = k.groups = 3;
  k.h = 13;
  k.w = 4;  // narrower than the dilated kernel
  k.kh = k.kw = 3;
  k.dils = {1, 3};
  k.strides = {2, 1};
  k.pads = {2, 0, 3, 3};
  auto x = RandomFloats(k.c * k.h * k.w, 5);
  auto f = RandomFloats(k.c * 9, 6);
  std::vector<float> out(k.c * k.OutH() * k.OutW(), 99.f);
  kernels::host::ConvWindow win;
  win.kh = win.kw = 3;
  win.stride_h = 2;
  win.dil_w = 3;
  win.pad_top = 2;
  win.pad_left = 3;
  kernels::host::DepthwiseConv2d(x.data(), k.c, k.h, k.w, f.data(), win, k.OutH(),
                                 k.OutW(), out.data());
  ExpectNear(out, NaiveConv(k, x, f, nullptr), "direct depthwise");
}

TEST(Conv2d, BiasAndFusedActivation) {
  for (bool dw : {false, true}) {
    ConvCfg k;
    k.pads = {1, 1, 1, 1};
    if (dw) k.c = k.cout = k.groups = 4;
    ConvRun r("conv2d", k, {1, 1}, 90);
    auto bias = RandomFloats(k.cout, 91);
    for (auto& b : bias) b *= 3.f;
    r.t.SetInput<float>("Bias", "b", {k.cout}, bias);
    r.t.SetAttr("fuse_activation", std::string("relu6"));
    r.t.SetAttr("fuse_alpha", 1.5f);
    ASSERT_TRUE(r.t.Run().ok());
    auto ref = NaiveConv(k, r.x, r.f, &bias);
    for (auto& v : ref) v = std::min(std::max(v, 0.f), 1.5f);
    ExpectNear(r.t.GetData<float>("out"), ref, dw ? "depthwise relu6" : "relu6");
  }
  ConvCfg k;
  ConvRun r("conv2d", k, {0, 0}, 93);
  r.t.SetAttr("fuse_activation", std::string("leaky_relu"));
  r.t.SetAttr("fuse_alpha", 0.1f);
  ASSERT_TRUE(r.t.Run().ok());
  auto ref = NaiveConv(k, r.x, r.f, nullptr);
  for (auto& v : ref) v = v > 0 ? v : 0.1f * v;
  ExpectNear(r.t.GetData<float>("out"), ref, "leaky_relu");
}

TEST(Conv2d, DepthwiseSpecialisationsWithBiasAndActivations) {
  struct D {
    int kh, kw, sh, sw, dil;
  };
  // 3x3 / 5x5 with stride 1 / 2 are specialised; the rest take the general
  // loop (dilation, stride 3, non-square, mixed strides pick by stride_w).
  const D geoms[] = {{3, 3, 1, 1, 1}, {3, 3, 2, 2, 1}, {5, 5, 1, 1, 1}, {5, 5, 2, 2, 1},
                     {3, 3, 2, 1, 1}, {5, 5, 1, 2, 1}, {3, 3, 1, 1, 2}, {5, 5, 2, 2, 2},
                     {3, 3, 3, 3, 1}, {4, 2, 1, 2, 1}, {1, 1, 1, 1, 1}, {7, 7, 2, 2, 1}};
  const int widths[] = {1, 7, 14, 9};
  const std::vector<int> pads[] = {{1, 1, 1, 1}, {0, 2, 2, 1}, {2, 0, 0, 3}};
  int idx = 0;
  for (const auto& d : geoms) {
    for (int w : widths) {
      ConvCfg k;
      k.c = k.cout = k.groups = 5;
      k.h = 8 + (idx % 5);
      k.w = w;
      k.kh = d.kh;
      k.kw = d.kw;
      k.strides = {d.sh, d.sw};
      k.dils = {d.dil, d.dil};
      k.pads = pads[idx % 3];
      // Keep the (dilated) kernel within the padded input.
      k.pads[2] = std::max(k.pads[2], d.dil * (d.kw - 1));
      k.pads[0] = std::max(k.pads[0], d.dil * (d.kh - 1) - k.h + 1);
      const ActCase& a = kActs[idx % (sizeof(kActs) / sizeof(kActs[0]))];
      CheckConvWithAct(idx % 2 ? "depthwise_conv2d" : "conv2d", k, a, 300 + idx,
                       "dw case " + std::to_string(idx) + " w=" + std::to_string(w));
      ++idx;
    }
  }
}

TEST(Conv2d, GemmPathEveryActivationAndSpatialBlocks) {
  // Small planes (one block) for every activation, on the im2col path and
  // the 1x1 direct path.
  int idx = 0;
  for (const auto& a : kActs) {
    ConvCfg k;
    k.c = 3;
    k.cout = 5;
    k.h = 6;
    k.w = 7;
    k.pads = {1, 0, 2, 1};
    CheckConvWithAct("conv2d", k, a, 400 + idx, "im2col");
    k.kh = k.kw = 1;
    k.pads = {0, 0, 0, 0};
    CheckConvWithAct("conv2d", k, a, 450 + idx, "1x1");
    ++idx;
  }
  // Planes larger than one spatial block, with a partial last block.
  ConvCfg k;  // im2col, K = 16*9: several blocks of whole output rows
  k.c = 16;
  k.cout = 6;
  k.h = 45;
  k.w = 41;
  k.pads = {1, 1, 1, 1};
  CheckConvWithAct("conv2d", k, kActs[3], 500, "im2col blocks");
  k.strides = {2, 1};  // strided, grouped
  k.groups = 2;
  k.h = 90;
  CheckConvWithAct("conv2d", k, kActs[2], 501, "im2col blocks grouped");
  ConvCfg d;  // 1x1 direct, K = 16: 8192-column blocks
  d.c = 16;
  d.cout = 3;
  d.kh = d.kw = 1;
  d.h = 101;
  d.w = 97;
  d.n = 2;
  CheckConvWithAct("conv2d", d, kActs[1], 502, "1x1 blocks");
  d.c = 2;  // K = 2: 65536-column blocks
  d.h = 300;
  d.w = 230;
  d.n = 1;
  CheckConvWithAct("conv2d", d, kActs[4], 503, "1x1 blocks small K");
}

TEST(Conv2d, DirectDepthwiseBiasActivationAndScratchReuse) {
  std::vector<float> scratch;
  const auto act = ToAct(kActs[2]);  // relu6
  // A large plane, then smaller ones reusing the grown scratch buffer.
  for (int size : {40, 7, 1}) {
    ConvCfg k;
    k.c = k.cout = k.groups = 3;
    k.h = size;
    k.w = size + 2;
    k.kh = k.kw = 5;
    k.strides = {2, 2};
    k.pads = {2, 2, 2, 2};
    auto x = RandomFloats(k.c * k.h * k.w, size);
    auto f = RandomFloats(k.c * 25, size + 1);
    auto bias = RandomFloats(k.c, size + 2);
    std::vector<float> out(k.c * k.OutH() * k.OutW(), 99.f);
    kernels::host::ConvWindow win;
    win.kh = win.kw = 5;
    win.stride_h = win.stride_w = 2;
    win.pad_top = win.pad_left = 2;
    kernels::host::DepthwiseConv2d(x.data(), k.c, k.h, k.w, f.data(), win, k.OutH(),
                                   k.OutW(), out.data(), bias.data(), &act, &scratch);
    auto ref = NaiveConv(k, x, f, &bias);
    for (auto& v : ref) v = act.Apply(v);
    ExpectNear(out, ref, "direct depthwise size " + std::to_string(size));
  }
}

TEST(Conv2d, ReinfersShapeWhenInputSizeChanges) {
  ConvCfg k;
  k.strides = {2, 2};
  ConvRun r("conv2d", k, {1, 1}, 100);
  r.t.SetAttr("padding_algorithm", std::string("SAME"));
  ASSERT_TRUE(r.t.Run().ok());
  EXPECT_EQ(r.t.Get("out").dims(), (DDim{1, 4, 4, 3}));
  // New batch and spatial size.
  ConvCfg k2 = k;
  k2.n = 2;
  k2.h = 12;
  k2.w = 5;
  k2.pads = {0, 1, 1, 1};  // SAME for 12 (k3,s2): sum 1; for 5: sum 2
  auto x2 = RandomFloats(2 * 3 * 12 * 5, 101);
  Tensor* in = r.t.scope()->FindMutableTensor("x");
  in->Resize({2, 3, 12, 5});
  std::copy(x2.begin(), x2.end(), in->mutable_data<float>());
  ASSERT_TRUE(r.t.Run().ok());
  EXPECT_EQ(r.t.Get("out").dims(), (DDim{2, 4, 6, 3}));
  ExpectNear(r.t.GetData<float>("out"), NaiveConv(k2, x2, r.f, nullptr), "rerun");
}

TEST(Conv2d, RejectsBadAttributesAndShapes) {
  ConvCfg k;
  {
    ConvRun r("conv2d", k, {0, 0}, 1);
    r.t.SetAttr("data_format", std::string("NHWC"));
    Status s = r.t.Run();
    EXPECT_EQ(s.code(), StatusCode::kUnimplemented) << s.ToString();
  }
  {
    ConvRun r("conv2d", k, {0, 0, 0}, 1);
    EXPECT_EQ(r.t.Run().code(), StatusCode::kInvalidArgument);
  }
  {
    ConvRun r("conv2d", k, {0, 0}, 1);
    r.t.SetAttr("padding_algorithm", std::string("FULL"));
    EXPECT_EQ(r.t.Run().code(), StatusCode::kInvalidArgument);
  }
  {
    ConvRun r("conv2d", k, {0, 0}, 1);
    r.t.SetAttr("fuse_activation", std::string("gelu_magic"));
    EXPECT_FALSE(r.t.Run().ok());
  }
  {
    ConvRun r("conv2d", k, {0, 0}, 1);
    r.t.SetAttr("groups", 2);  // C_in 3 != filter dim 1 (3) * 2
    EXPECT_EQ(r.t.Run().code(), StatusCode::kInvalidArgument);
  }
  {
    ConvRun r("conv2d", k, {0, 0}, 1);
    r.t.SetAttr("strides", std::vector<int>{0, 1});
    EXPECT_EQ(r.t.Run().code(), StatusCode::kInvalidArgument);
  }
  {
    ConvCfg small;
    small.h = 2;  // 3x3 kernel without padding does not fit
    ConvRun r("conv2d", small, {0, 0}, 1);
    EXPECT_EQ(r.t.Run().code(), StatusCode::kInvalidArgument);
  }
  {
    ConvRun r("conv2d", k, {0, 0}, 1);
    r.t.SetInput<float>("Bias", "b", {3}, {1, 2, 3});  // C_out is 4
    EXPECT_EQ(r.t.Run().code(), StatusCode::kInvalidArgument);
  }
}

}  // namespace
}  // namespace lite

namespace lite {
namespace {

using namespace conv_test;  // NOLINT: the shared conv test vocabulary

// ResidualData (conv_residual_fuse_pass) joins after the conv and bias,
// before the activation, on every path: GEMM (3x3 and 1x1), depthwise and
// Winograd; the post-activation affine map (conv_scale_fuse_pass) after the
// activation; a residual of other dims is refused at InferShape.
TEST(Conv2d, ResidualDataIsAddedBeforeTheActivation) {
  struct Case {
    std::string what;
    ConvCfg k;
  };
  std::vector<Case> cases;
  ConvCfg k;
  k.pads = {1, 1, 1, 1};
  cases.push_back({"gemm 3x3", k});
  ConvCfg one = k;
  one.kh = one.kw = 1;
  one.pads = {0, 0, 0, 0};
  cases.push_back({"1x1", one});
  ConvCfg dw = k;
  dw.c = dw.cout = dw.groups = 6;
  cases.push_back({"depthwise", dw});
  ConvCfg wino = k;
  wino.c = wino.cout = 16;
  wino.h = wino.w = 20;
  cases.push_back({"winograd", wino});
  for (const Case& c : cases) {
    for (const ActCase& a : {kActs[0], kActs[2], kActs[4]}) {
      const ConvCfg& g = c.k;
      ConvRun r("conv2d", g, g.pads, 120);
      const auto bias = RandomFloats(g.cout, 121);
      const auto res = RandomFloats(int64_t{g.n} * g.cout * g.OutH() * g.OutW(), 122);
      r.t.SetInput<float>("Bias", "b", {g.cout}, bias);
      r.t.SetInput<float>("ResidualData", "res", {g.n, g.cout, g.OutH(), g.OutW()}, res);
      if (a.name[0]) {
        r.t.SetAttr("fuse_activation", std::string(a.name));
        r.t.SetAttr("fuse_alpha", a.alpha);
        r.t.SetAttr("fuse_beta", a.beta);
        r.t.SetAttr("fuse_gamma", a.gamma);
      }
      ASSERT_TRUE(r.t.Run().ok()) << c.what;
      auto ref = NaiveConv(g, r.x, r.f, &bias);
      const auto act = ToAct(a);
      for (size_t i = 0; i < ref.size(); ++i) ref[i] = act.Apply(ref[i] + res[i]);
      ExpectNear(r.t.GetData<float>("out"), ref, c.what + " act " + a.name);
    }
  }
  // The post-activation affine map (fuse_post_*), alone and after a residual.
  for (bool residual : {false, true}) {
    for (const Case& c : cases) {
      const ConvCfg& g = c.k;
      ConvRun r("conv2d", g, g.pads, 140);
      const auto res = RandomFloats(int64_t{g.n} * g.cout * g.OutH() * g.OutW(), 141);
      if (residual) {
        r.t.SetInput<float>("ResidualData", "res", {g.n, g.cout, g.OutH(), g.OutW()}, res);
      }
      r.t.SetAttr("fuse_activation", std::string("relu6"));
      r.t.SetAttr("fuse_alpha", 1.5f);
      r.t.SetAttr("fuse_post_scale", -0.7f);
      r.t.SetAttr("fuse_post_bias", 0.2f);
      ASSERT_TRUE(r.t.Run().ok()) << c.what;
      auto ref = NaiveConv(g, r.x, r.f, nullptr);
      for (size_t i = 0; i < ref.size(); ++i) {
        const float v = ref[i] + (residual ? res[i] : 0.f);
        ref[i] = std::min(std::max(v, 0.f), 1.5f) * -0.7f + 0.2f;
      }
      ExpectNear(r.t.GetData<float>("out"), ref,
                 c.what + " post map" + (residual ? " after a residual" : ""));
    }
  }
  ConvRun r("conv2d", k, k.pads, 130);
  r.t.SetInput<float>("ResidualData", "res", {k.n, k.cout, k.OutH(), k.OutW() + 1},
                      RandomFloats(int64_t{k.n} * k.cout * k.OutH() * (k.OutW() + 1), 131));
  const Status s = r.t.Run();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("ResidualData"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace lite
