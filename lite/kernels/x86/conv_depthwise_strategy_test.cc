// Which float conv strategy takes which depthwise conv (the own depthwise
// kernel: 5x5 and 7x7 on AVX-512, 5x5 stride 1 and dilated 7x7 on AVX2-only
// CPUs; oneDNN
// the rest), and that the own kernel matches the host conv on each shape
// class: odd map sizes, channel counts not a multiple of 16, stride and
// dilation 2, asymmetric padding, batch 2, activations, residual and post
// map, 1 and 2 threads.
#include <string>
#include <vector>

#include "lite/backends/x86/depthwise_conv.h"
#include "lite/kernels/x86/conv_compute.h"
#include "lite/kernels/x86/x86_test_util.h"

namespace lite {
namespace {

using operators::FusedActivation;
using x86_test::ExpectX86MatchesHost;

struct Dw {
  int n = 1, c = 37, h = 19, w = 23, k = 5;
  int stride = 1, dilation = 1;
  std::vector<int> pads;  // empty: "same" (dilation * (k - 1) / 2 each side)
  std::string act;
  bool residual = false, post = false;

  std::vector<int> Pads() const {
    if (!pads.empty()) return pads;
    const int p = dilation * (k - 1) / 2;
    return {p, p, p, p};
  }

  x86_test::Setup Setup() const {
    Dw d = *this;
    return [d](OpTester* t) {
      const std::vector<int> pads = d.Pads();
      t->SetInput<float>("Input", "x", {d.n, d.c, d.h, d.w},
                         RandomFloats(int64_t{d.n} * d.c * d.h * d.w, 11, -2.f, 2.f));
      t->SetInput<float>("Filter", "f", {d.c, 1, d.k, d.k}, RandomFloats(d.c * d.k * d.k, 5));
      t->SetInput<float>("Bias", "b", {d.c}, RandomFloats(d.c, 3));
      if (d.residual) {
        const int ext = d.dilation * (d.k - 1) + 1;
        const int oh = (d.h + pads[0] + pads[1] - ext) / d.stride + 1;
        const int ow = (d.w + pads[2] + pads[3] - ext) / d.stride + 1;
        t->SetInput<float>("ResidualData", "res", {d.n, d.c, oh, ow},
                           RandomFloats(int64_t{d.n} * d.c * oh * ow, 17, -2.f, 2.f));
      }
      t->SetOutput("Output", "out");
      t->SetAttr("strides", std::vector<int>{d.stride, d.stride});
      t->SetAttr("paddings", pads);
      t->SetAttr("dilations", std::vector<int>{d.dilation, d.dilation});
      t->SetAttr("groups", d.c);
      if (d.post) {
        t->SetAttr("fuse_post_scale", -0.7f);
        t->SetAttr("fuse_post_bias", 0.3f);
      }
      if (!d.act.empty()) {
        t->SetAttr("fuse_activation", d.act);
        t->SetAttr("fuse_alpha", d.act == "leaky_relu" ? 0.1f : 6.f);
        t->SetAttr("fuse_beta", 6.f);
        t->SetAttr("fuse_gamma", 3.f);
      }
    };
  }
};

bool HasAvx512() { return __builtin_cpu_supports("avx512f"); }

TEST(X86ConvDepthwise, StrategyChoiceAndHostMatch) {
  struct Case {
    std::string what;
    Dw d;
    bool ours_avx512, ours_avx2;  // the own kernel takes it on such a CPU
  };
  std::vector<Case> cases;
  Dw d;
  cases.push_back({"5x5, 37 channels, no activation", d, true, true});
  d.act = "hard_swish";
  d.n = 2;
  d.c = 24;
  cases.push_back({"5x5 hard_swish, batch 2", d, true, true});
  d.n = 1;
  d.stride = 2;
  d.act = "relu6";
  d.c = 17;
  cases.push_back({"5x5 stride 2 relu6, 17 channels", d, true, false});
  d.stride = 1;
  d.dilation = 2;
  d.act = "relu";
  cases.push_back({"5x5 dilation 2 relu", d, true, false});
  d = Dw();
  d.k = 7;
  d.c = 40;
  d.h = 13;
  d.w = 11;
  cases.push_back({"7x7, 40 channels", d, true, false});
  d.stride = 2;
  d.pads = {1, 3, 2, 3};
  cases.push_back({"7x7 stride 2, asymmetric padding", d, true, false});
  d.stride = 1;
  d.pads.clear();
  d.dilation = 2;
  d.residual = true;
  d.post = true;
  cases.push_back({"7x7 dilation 2, residual and post map", d, true, true});
  d = Dw();
  d.k = 3;
  cases.push_back({"3x3, 37 channels: ours with AVX-512", d, true, false});
  d.c = 96;
  cases.push_back({"3x3, 96 channels: ours with AVX-512", d, true, false});
  d.c = 128;
  cases.push_back({"3x3, 128 channels: oneDNN", d, false, false});
  d.c = 37;
  d.k = 5;
  d.act = "leaky_relu";
  cases.push_back({"5x5 leaky_relu: oneDNN", d, false, false});
  d.act = "";
  d.stride = 3;
  cases.push_back({"5x5 stride 3: oneDNN", d, false, false});
  const bool available = lite::x86::DepthwiseConv::Available();
  for (const auto& c : cases) {
    const bool ours = available && (HasAvx512() ? c.ours_avx512 : c.ours_avx2);
    for (int threads : {1, 2}) {
      ExpectX86MatchesHost(
          "depthwise_conv2d", c.d.Setup(), {"out"}, c.what, 1e-4f, threads, 2,
          [&](OpTester* t) {
            auto* conv = dynamic_cast<kernels::x86::ConvCompute*>(t->kernel());
            ASSERT_NE(conv, nullptr) << c.what;
            EXPECT_EQ(conv->impl_info() == "lite:depthwise_nhwc", ours)
                << c.what << ": " << conv->impl_info();
            bool asked = false;  // the list records why the own kernel declined
            for (const auto& declined : conv->strategies().declined()) {
              if (declined.name != "own_depthwise") continue;
              asked = true;
              EXPECT_FALSE(ours) << c.what;
              EXPECT_FALSE(declined.reason.empty()) << c.what;
            }
            EXPECT_EQ(asked, !ours) << c.what;
          });
    }
  }
}

// The rule on both instruction sets, whatever this CPU has.
TEST(X86ConvDepthwise, RulePerInstructionSet) {
  Tensor in, filter;
  operators::ConvParam p;
  p.input = &in;
  p.filter = &filter;
  auto set = [&](int c, int k, int stride, int dilation) {
    in.Resize({1, c, 20, 20});
    in.mutable_data<float>();
    filter.Resize({c, 1, k, k});
    filter.mutable_data<float>();
    p.groups = c;
    p.strides = {stride, stride};
    p.eff_dilations = {dilation, dilation};
  };
  using kernels::x86::OwnDepthwiseFits;
  set(32, 5, 1, 1);
  EXPECT_TRUE(OwnDepthwiseFits(p, true).accepted);
  EXPECT_TRUE(OwnDepthwiseFits(p, false).accepted);
  set(32, 5, 2, 1);
  EXPECT_TRUE(OwnDepthwiseFits(p, true).accepted);
  EXPECT_FALSE(OwnDepthwiseFits(p, false).accepted);
  set(32, 7, 2, 1);
  EXPECT_TRUE(OwnDepthwiseFits(p, true).accepted);
  EXPECT_FALSE(OwnDepthwiseFits(p, false).accepted);
  set(32, 7, 1, 2);
  EXPECT_TRUE(OwnDepthwiseFits(p, true).accepted);
  EXPECT_TRUE(OwnDepthwiseFits(p, false).accepted);
  // 3x3: AVX-512 only, 16 channels or more but no multiple of 128, undilated at stride 1 or 2.
  auto fits_3x3 = [&](int c, int stride, int dilation, bool avx512) {
    set(c, 3, stride, dilation);
    return OwnDepthwiseFits(p, avx512).accepted;
  };
  EXPECT_TRUE(fits_3x3(32, 1, 1, true) && fits_3x3(16, 2, 1, true) && fits_3x3(72, 1, 1, true));
  EXPECT_FALSE(fits_3x3(32, 1, 1, false));
  EXPECT_FALSE(fits_3x3(8, 1, 1, true));
  EXPECT_TRUE(fits_3x3(96, 1, 1, true) && fits_3x3(120, 2, 1, true) && fits_3x3(336, 1, 1, true));
  EXPECT_FALSE(fits_3x3(128, 1, 1, true));
  EXPECT_FALSE(fits_3x3(256, 2, 1, true));
  EXPECT_FALSE(fits_3x3(512, 1, 1, true));
  EXPECT_FALSE(fits_3x3(32, 1, 2, true));
  EXPECT_FALSE(fits_3x3(32, 3, 1, true));
  set(32, 9, 1, 1);
  EXPECT_FALSE(OwnDepthwiseFits(p, true).accepted);
  // Grouped (not depthwise) and a channel multiplier.
  set(32, 5, 1, 1);
  p.groups = 16;
  EXPECT_FALSE(OwnDepthwiseFits(p, true).accepted);
  filter.Resize({64, 1, 5, 5});
  p.groups = 32;
  EXPECT_FALSE(OwnDepthwiseFits(p, true).accepted);
  filter.Resize({32, 1, 5, 5});
  p.act.kind = FusedActivation::kLeakyRelu;
  EXPECT_FALSE(OwnDepthwiseFits(p, true).accepted);
}

}  // namespace
}  // namespace lite
