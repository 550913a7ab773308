// x86 conv2d / depthwise_conv2d (oneDNN) against the host kernel.
#include <string>
#include <vector>

#include "lite/backends/x86/dnnl_util.h"
#include "lite/backends/x86/pointwise_conv.h"
#include "lite/backends/x86/winograd_nhwc.h"
#include "lite/kernels/x86/conv_compute.h"
#include "lite/kernels/x86/x86_test_util.h"

namespace lite {
namespace {

using x86_test::ExpectX86MatchesHost;

struct Conv {
  int n = 1, c = 3, h = 9, w = 7, cout = 8, kh = 3, kw = 3, groups = 1;
  std::vector<int> strides{1, 1}, pads{1, 1}, dils{1, 1};
  bool bias = true;
  bool residual = false;  // a ResidualData input of Output's dims
  float post_scale = 1.f, post_bias = 0.f;  // fuse_post_* when not 1, 0
  std::string act;  // fuse_activation
  float alpha = 0.f, beta = 0.f, gamma = 0.f;
  std::string padding_algorithm = "EXPLICIT";

  x86_test::Setup Setup(const std::string& op) const {
    Conv k = *this;
    return [k](OpTester* t) {
      t->SetInput<float>("Input", "x", {k.n, k.c, k.h, k.w},
                         RandomFloats(int64_t{k.n} * k.c * k.h * k.w, 11, -2.f, 2.f));
      t->SetInput<float>("Filter", "f", {k.cout, k.c / k.groups, k.kh, k.kw},
                         RandomFloats(int64_t{k.cout} * (k.c / k.groups) * k.kh * k.kw, 5));
      if (k.bias) t->SetInput<float>("Bias", "b", {k.cout}, RandomFloats(k.cout, 3));
      if (k.residual) {
        const int oh = (k.h + 2 * k.pads[0] - (k.dils[0] * (k.kh - 1) + 1)) / k.strides[0] + 1;
        const int ow = (k.w + 2 * k.pads[1] - (k.dils[1] * (k.kw - 1) + 1)) / k.strides[1] + 1;
        t->SetInput<float>("ResidualData", "res", {k.n, k.cout, oh, ow},
                           RandomFloats(int64_t{k.n} * k.cout * oh * ow, 17, -2.f, 2.f));
      }
      t->SetOutput("Output", "out");
      if (k.post_scale != 1.f || k.post_bias != 0.f) {
        t->SetAttr("fuse_post_scale", k.post_scale);
        t->SetAttr("fuse_post_bias", k.post_bias);
      }
      t->SetAttr("strides", k.strides);
      t->SetAttr("paddings", k.pads);
      t->SetAttr("dilations", k.dils);
      t->SetAttr("groups", k.groups);
      t->SetAttr("padding_algorithm", k.padding_algorithm);
      if (!k.act.empty()) {
        t->SetAttr("fuse_activation", k.act);
        t->SetAttr("fuse_alpha", k.alpha);
        t->SetAttr("fuse_beta", k.beta);
        t->SetAttr("fuse_gamma", k.gamma);
      }
    };
  }
};

TEST(X86Conv, MatchesHostAcrossGeometries) {
  std::vector<std::pair<std::string, Conv>> cases;
  Conv k;
  cases.push_back({"3x3 pad 1, 3 channels", k});
  k.c = 1;
  k.bias = false;
  cases.push_back({"1 channel, no bias", k});
  k = Conv();
  k.strides = {2, 2};
  k.pads = {0, 2, 1, 3};
  k.h = 11;
  k.w = 10;
  cases.push_back({"stride 2, asymmetric 4-value padding", k});
  k = Conv();
  k.dils = {2, 3};
  k.pads = {2, 3};
  k.c = 16;
  k.cout = 32;
  cases.push_back({"dilation, 16 -> 32 channels", k});
  k = Conv();
  k.c = 6;
  k.cout = 9;
  k.groups = 3;
  k.kh = 2;
  k.kw = 3;
  k.n = 2;
  cases.push_back({"groups 3, non-square kernel, batch 2", k});
  k = Conv();
  k.kh = k.kw = 1;
  k.pads = {0, 0};
  k.c = 32;
  k.cout = 24;
  k.h = 13;
  k.w = 13;
  cases.push_back({"1x1, 32 -> 24 channels", k});
  k = Conv();
  k.c = 17;
  k.cout = 33;
  k.h = 15;
  k.w = 17;
  k.strides = {2, 1};
  k.padding_algorithm = "SAME";
  cases.push_back({"SAME padding, odd channels", k});
  k = Conv();
  k.c = 64;
  k.cout = 64;
  k.h = 33;
  k.w = 35;
  k.n = 2;
  k.strides = {1, 2};  // (3x3 stride 1 at 64 channels is Winograd's, below)
  cases.push_back({"64 -> 64 channels 3x3 stride (1, 2), batch 2", k});
  for (const auto& c : cases) {
    ExpectX86MatchesHost("conv2d", c.second.Setup("conv2d"), {"out"}, c.first, 1e-4f);
  }
}

// Dense 3x3 stride-1 convs from 16 input channels and 32x32 output pixels,
// or below 12x12 output pixels, with no activation, relu or relu6 run our
// NHWC Winograd F(4x4, 3x3) on AVX-512, maps between from 12x12 with 32 ->
// 64+ channels oneDNN's; the rest, and
// every other geometry, run oneDNN's direct kernel. Either way the output
// matches the host kernel.
TEST(X86Conv, WinogradForWide3x3Stride1ConvsMatchesHost) {
  struct Case {
    std::string what;
    Conv k;
    bool expect_winograd;  // on an AVX-512 CPU
    float tol = 2e-5f;      // of the largest output
    // oneDNN's Winograd (it dispatches on the CPU alone), else ours (the
    // build's AVX-512 code too).
    bool by_onednn = false;
  };
  std::vector<Case> cases;
  Conv k;
  k.c = 96;
  k.cout = 24;
  k.h = 37;  // not a multiple of the 4x4 output tile
  k.w = 30;
  k.act = "relu";
  cases.push_back({"96 -> 24, relu, odd size", k, true});
  k.h = 28;
  k.w = 28;
  cases.push_back({"28x28 output (< 32x32 pixels), 24 outputs: direct", k, false});
  k.c = 64;
  k.cout = 64;
  k.h = k.w = 14;
  cases.push_back({"64 -> 64 at 14x14: oneDNN's Winograd (blocked, reordered)", k, true, 2e-5f,
                   /*by_onednn=*/true});
  k.h = k.w = 10;
  cases.push_back({"10x10 output (< 12x12, below oneDNN's Winograd): ours", k, true});
  k.h = k.w = 7;
  k.act = "relu";
  cases.push_back({"7x7 output, relu (DQN's third conv, GoogLeNet's last blocks): ours", k, true});
  k = Conv();
  k.c = 64;
  k.cout = 64;
  k.n = 2;
  k.h = k.w = 33;
  k.bias = false;
  cases.push_back({"64 -> 64, batch 2, no bias", k, true});
  k = Conv();
  k.c = 32;
  k.cout = 16;
  k.h = k.w = 34;
  cases.push_back({"32 -> 16", k, true});
  k.pads = {0, 2, 1, 0};
  cases.push_back({"asymmetric padding", k, true});
  k.pads = {1, 1};
  k.act = "leaky_relu";
  k.alpha = 0.1f;
  cases.push_back({"leaky_relu: direct", k, false});
  k.act = "relu6";
  k.alpha = 6.f;
  // relu6 clips the largest value (the error's scale) to 6: more slack.
  cases.push_back({"relu6", k, true, 1e-4f});
  k.act = "";
  k.c = 16;
  cases.push_back({"16 input channels (squeezenet's fire modules)", k, true});
  k.c = 8;
  cases.push_back({"8 input channels: direct", k, false});
  k.c = 32;
  k.strides = {2, 2};
  cases.push_back({"stride 2: direct", k, false});
  k.strides = {1, 1};
  k.dils = {2, 2};
  cases.push_back({"dilation 2: direct", k, false});
  // Ours needs the build's AVX-512 code and the CPU (a portable build has
  // none); oneDNN's needs the CPU.
  const bool have_own = lite::x86::WinogradNhwc::Available();
  const bool have_onednn = lite::x86::CpuHasAvx512Core();
  // Winograd's rounding: ~1e-6 to 5e-6 of the largest pre-activation value
  // (simulated with unit-scale data); 2e-5 of the largest output allowed
  // (relu6 clips that largest value to 6). A wrong transform or a misplaced
  // tile is off by O(1) of it.
  for (const auto& c : cases) {
    ExpectX86MatchesHost("conv2d", c.k.Setup("conv2d"), {"out"}, c.what, c.tol, 1, 2,
                         [&](OpTester* t) {
                           auto* conv = dynamic_cast<kernels::x86::ConvCompute*>(t->kernel());
                           ASSERT_NE(conv, nullptr) << c.what;
                           EXPECT_EQ(conv->winograd(),
                                     c.expect_winograd && (c.by_onednn ? have_onednn : have_own))
                               << c.what << ": " << conv->impl_info();
                           EXPECT_EQ(conv->impl_info().find("wino") != std::string::npos,
                                     conv->winograd())
                               << c.what << ": " << conv->impl_info();
                         },
                         /*tol_of_largest=*/true);
  }
}

// Dense 1x1 stride-1 unpadded convs with none / relu / relu6 run our GEMM
// (lite/backends/x86/pointwise_conv.h); others (padding, stride, other
// activations) stay on oneDNN. 1 and 2 threads, batch 2, odd channels.
TEST(X86Conv, OneByOneConvsRunOurGemm) {
  struct Case {
    std::string what;
    Conv k;
    bool ours;
  };
  std::vector<Case> cases;
  Conv k;
  k.kh = k.kw = 1;
  k.pads = {0, 0};
  k.c = 48;
  k.cout = 40;
  k.h = 13;
  k.w = 11;
  k.act = "relu";
  cases.push_back({"48 -> 40, relu", k, true});
  k.n = 2;
  k.c = 5;
  k.cout = 70;
  k.act = "";
  cases.push_back({"5 -> 70, batch 2, no activation", k, true});
  k.act = "relu6";
  k.alpha = 6.f;
  k.bias = false;
  cases.push_back({"relu6, no bias", k, true});
  k.act = "hard_swish";
  k.alpha = 6.f;
  k.beta = 6.f;
  k.gamma = 3.f;
  cases.push_back({"hard_swish", k, true});
  k.act = "leaky_relu";
  k.alpha = 0.1f;
  cases.push_back({"leaky_relu: oneDNN", k, false});
  k.act = "relu";
  k.pads = {1, 1};
  cases.push_back({"padding 1: oneDNN", k, false});
  k.pads = {0, 0};
  k.strides = {2, 2};
  cases.push_back({"stride 2: oneDNN", k, false});
  const bool available = lite::x86::PointwiseConv::Available();
  for (const auto& c : cases) {
    for (int threads : {1, 2}) {
      ExpectX86MatchesHost("conv2d", c.k.Setup("conv2d"), {"out"}, c.what, 1e-4f, threads, 2,
                           [&](OpTester* t) {
                             auto* conv = dynamic_cast<kernels::x86::ConvCompute*>(t->kernel());
                             ASSERT_NE(conv, nullptr) << c.what;
                             EXPECT_EQ(conv->impl_info() == "lite:pointwise_nhwc",
                                       c.ours && available)
                                 << c.what << ": " << conv->impl_info();
                           });
    }
  }
}

// ResidualData (before the activation) and the post-activation affine map
// (after it), alone and together, on each x86 path: the own 1x1 GEMM (in
// its epilogue), the own Winograd (the residual in a pass after it; with a
// post map the conv goes to oneDNN), oneDNN direct and depthwise (binary /
// linear post-ops), with none / relu / relu6 / hard_swish.
TEST(X86Conv, ResidualAndPostAffineMapOnEveryPathMatchHost) {
  struct Case {
    std::string what, impl;  // impl: the expected impl_info ("" any)
    Conv k;
  };
  std::vector<Case> cases;
  Conv k;
  k.kh = k.kw = 1;
  k.pads = {0, 0};
  k.c = 24;
  k.cout = 40;
  k.h = 13;
  k.w = 11;
  cases.push_back({"1x1", "lite:pointwise_nhwc", k});
  k.act = "relu6";
  k.alpha = 1.5f;
  cases.push_back({"1x1 relu6", "lite:pointwise_nhwc", k});
  k.act = "hard_swish";
  k.alpha = 6.f;
  k.beta = 6.f;
  k.gamma = 3.f;
  cases.push_back({"1x1 hard_swish", "lite:pointwise_nhwc", k});
  Conv w = k;
  w.kh = w.kw = 3;
  w.pads = {1, 1};
  w.c = w.cout = 16;
  w.h = w.w = 34;
  w.act = "relu";
  cases.push_back({"3x3 Winograd relu", "lite:winograd_nhwc_4x3", w});
  Conv d = w;
  d.h = d.w = 9;
  d.c = 5;
  d.act = "";
  cases.push_back({"3x3 direct", "", d});
  d.strides = {2, 2};
  d.act = "hard_swish";
  cases.push_back({"3x3 stride 2 hard_swish", "", d});
  Conv dw = d;
  dw.c = dw.cout = dw.groups = 16;
  dw.strides = {1, 1};
  dw.act = "relu6";
  dw.alpha = 6.f;
  cases.push_back({"depthwise relu6", "", dw});
  const bool own = lite::x86::PointwiseConv::Available() && lite::x86::WinogradNhwc::Available();
  for (const auto& base : cases) {
    for (int variant : {0, 1, 2}) {  // residual, post map, both
      Case c = base;
      c.k.residual = variant != 1;
      if (variant > 0) {
        c.k.post_scale = -0.7f;
        c.k.post_bias = 0.3f;
        if (c.impl == "lite:winograd_nhwc_4x3") c.impl = "";
      }
      c.what += variant == 0 ? ", residual" : variant == 1 ? ", post map" : ", both";
      const std::string op = c.k.groups > 1 ? "depthwise_conv2d" : "conv2d";
      for (int threads : {1, 2}) {
        ExpectX86MatchesHost(op, c.k.Setup(op), {"out"}, c.what, 1e-4f, threads, 2,
                             [&](OpTester* t) {
                               auto* conv =
                                   dynamic_cast<kernels::x86::ConvCompute*>(t->kernel());
                               ASSERT_NE(conv, nullptr) << c.what;
                               if (own && !c.impl.empty()) {
                                 EXPECT_EQ(conv->impl_info(), c.impl) << c.what;
                               }
                               if (variant > 0) {
                                 EXPECT_NE(conv->impl_info(), "lite:winograd_nhwc_4x3") << c.what;
                               }
                             });
      }
    }
  }
}

TEST(X86Conv, DepthwiseMatchesHost) {
  for (int stride : {1, 2}) {
    for (int c : {1, 16, 24}) {
      Conv k;
      k.c = k.cout = k.groups = c;
      k.strides = {stride, stride};
      k.kh = k.kw = c == 24 ? 5 : 3;
      k.pads = {k.kh / 2, k.kh / 2};
      k.h = 19;
      k.w = 21;
      k.n = 2;
      k.act = "relu";
      ExpectX86MatchesHost("depthwise_conv2d", k.Setup("depthwise_conv2d"), {"out"},
                           "depthwise c=" + std::to_string(c) + " stride " +
                               std::to_string(stride));
    }
  }
}

// Depthwise 3x3 on 8 channels runs oneDNN's AVX2 jit_dw (PP-LCNet x0.25's
// first blocks, stride 1 and 2 x 1); 16 channels or more run ours with
// AVX-512 (no per-shape JIT; det's 96 to 336) and oneDNN's first choice
// without (jit_dw:avx2); multiples of 128 channels stay with oneDNN
// everywhere.
TEST(X86Conv, Depthwise3x3ChoiceByChannels) {
  const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  const bool avx512 = __builtin_cpu_supports("avx512f");
  for (int c : {8, 16, 72, 120, 128, 336}) {
    for (int stride_h : {1, 2}) {
      Conv k;
      k.c = k.cout = k.groups = c;
      k.strides = {stride_h, 1};
      k.h = 10;
      k.w = 21;
      k.act = "hard_swish";
      k.alpha = 6.f;
      k.beta = 6.f;
      k.gamma = 3.f;
      const std::string what =
          "depthwise 3x3 c=" + std::to_string(c) + " stride " + std::to_string(stride_h) + "x1";
      for (int threads : {1, 2}) {
        ExpectX86MatchesHost("depthwise_conv2d", k.Setup("depthwise_conv2d"), {"out"}, what,
                             1e-4f, threads, 2, [&](OpTester* t) {
                               auto* conv = dynamic_cast<kernels::x86::ConvCompute*>(t->kernel());
                               ASSERT_NE(conv, nullptr) << what;
                               const bool ours = avx512 && c >= 16 && c % 128 != 0;
                               EXPECT_EQ(conv->impl_info() == "lite:depthwise_nhwc", ours)
                                   << what << ": " << conv->impl_info();
                               EXPECT_EQ(conv->impl_info() == "jit_dw:avx2",
                                         avx2 && (c == 8 || !avx512))
                                   << what << ": " << conv->impl_info();
                             });
      }
    }
  }
}

TEST(X86Conv, EveryFusedActivationMatchesHost) {
  struct A {
    std::string name;
    float alpha, beta, gamma;
  };
  for (const A& a : std::vector<A>{{"relu", 0, 0, 0},
                                   {"relu6", 6, 0, 0},
                                   {"leaky_relu", 0.1f, 0, 0},
                                   {"hard_swish", 6, 6, 3},
                                   {"hard_sigmoid", 0.2f, 0.5f, 0},
                                   {"sigmoid", 0, 0, 0},
                                   {"swish", 1.5f, 0, 0},
                                   {"tanh", 0, 0, 0}}) {
    for (const std::string op : {"conv2d", "depthwise_conv2d"}) {
      Conv k;
      k.c = 16;
      k.cout = 16;
      // 13x13: oneDNN's direct kernel with its post-ops (below 12x12 a
      // dense 3x3 16 -> 16 conv with relu / relu6 is the own Winograd's).
      k.h = k.w = 13;
      if (op == "depthwise_conv2d") k.groups = 16;
      k.act = a.name;
      k.alpha = a.alpha;
      k.beta = a.beta;
      k.gamma = a.gamma;
      ExpectX86MatchesHost(op, k.Setup(op), {"out"}, op + " + " + a.name, 1e-5f);
    }
  }
}

TEST(X86Conv, ReplansWhenTheInputShapeChangesAndRunsOnTwoThreads) {
  Conv k;
  k.c = 16;
  k.cout = 32;
  k.act = "relu";
  OpTester host("conv2d"), x86("conv2d");
  for (OpTester* t : {&host, &x86}) {
    k.Setup("conv2d")(t);
    t->set_threads(2);
  }
  for (int hw : {9, 20, 9}) {
    auto x = RandomFloats(16 * hw * (hw + 1), hw);
    for (OpTester* t : {&host, &x86}) {
      Tensor* in = t->scope()->Var("x")->GetMutableTensor();
      in->Resize({1, 16, hw, hw + 1});
      std::copy(x.begin(), x.end(), in->mutable_data<float>());
    }
    x86_test::InputsToX86Layout(&x86);
    ASSERT_TRUE(host.Run(TargetType::kHost).ok());
    Status s = x86.Run(TargetType::kX86);
    ASSERT_TRUE(s.ok()) << s.ToString();
    ASSERT_EQ(host.Get("out").dims(), x86.Get("out").dims());
    auto a = host.GetData<float>("out"), b = x86_test::X86Output(x86, "conv2d", "out");
    for (size_t i = 0; i < a.size(); ++i) ASSERT_NEAR(a[i], b[i], 1e-4f) << hw << " at " << i;
  }
}

}  // namespace
}  // namespace lite

namespace lite {
namespace {

// The predictor's thread count decides oneDNN's (OpenMP) thread count for
// the thread running the kernel, whatever it was before.
TEST(X86Conv, PredictorThreadsSetOneDnnThreads) {
  for (int threads : {2, 1, 2}) {
    Conv k;
    k.c = 16;
    k.cout = 16;
    lite::x86::SetDnnlThreads(threads == 1 ? 2 : 1);  // the opposite
    x86_test::ExpectX86MatchesHost("conv2d", k.Setup("conv2d"), {"out"},
                                   std::to_string(threads) + " threads", 1e-4f, threads);
    EXPECT_EQ(lite::x86::DnnlThreads(), threads);
  }
}

}  // namespace
}  // namespace lite
