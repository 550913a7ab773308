// DepthwiseConv against a direct depthwise convolution accumulated in
// double, on both instantiations (AVX-512 where the CPU has it, AVX2):
// 3x3, 5x5 and 7x7 kernels, stride 1 and 2, dilation 2, asymmetric
// padding, odd map sizes, channel counts below, at and around the vector
// widths (not multiples of 16), batch 2, every activation it takes with
// bias, residual and the affine map, an output slice of a wider tensor, and
// 1 vs 2 threads (bit-identical); other kernel sizes, strides and
// dilations (the general tiles).
#include "lite/backends/x86/depthwise_conv.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "lite/backends/x86/float_kernel_test_util.h"

namespace lite {
namespace x86 {
namespace {

using Act = operators::FusedActivation;
using float_test::Random;

struct Case {
  int64_t n, c, h, w;
  int k, stride, dilation, pad_top, pad_bottom, pad_left, pad_right;
  Act::Kind act;
  bool residual, post;
};

Act MakeAct(Act::Kind kind) {
  Act a;
  a.kind = kind;
  if (kind == Act::kRelu6) a.alpha = 6.f;
  if (kind == Act::kHardSwish) {
    a.alpha = 6.f;
    a.beta = 6.f;
    a.gamma = 3.f;
  }
  return a;
}

DepthwiseConv::Geometry GeometryOf(const Case& c) {
  DepthwiseConv::Geometry g;
  g.n = c.n;
  g.c = c.c;
  g.h = c.h;
  g.w = c.w;
  g.kh = g.kw = c.k;
  g.stride_h = g.stride_w = c.stride;
  g.dilation_h = g.dilation_w = c.dilation;
  g.pad_top = c.pad_top;
  g.pad_left = c.pad_left;
  const int ext = c.dilation * (c.k - 1) + 1;
  g.oh = (c.h + c.pad_top + c.pad_bottom - ext) / c.stride + 1;
  g.ow = (c.w + c.pad_left + c.pad_right - ext) / c.stride + 1;
  return g;
}

// out[pixel * ldo + ch]; other columns untouched.
void Direct(const Case& c, const DepthwiseConv::Geometry& g, const std::vector<float>& in,
            const std::vector<float>& f, const std::vector<float>& bias,
            const std::vector<float>& res, const Act& act, float* out, int64_t ldo) {
  for (int64_t b = 0; b < g.n; ++b)
    for (int64_t y = 0; y < g.oh; ++y)
      for (int64_t x = 0; x < g.ow; ++x)
        for (int64_t ch = 0; ch < g.c; ++ch) {
          double s = bias[ch];
          for (int ky = 0; ky < c.k; ++ky)
            for (int kx = 0; kx < c.k; ++kx) {
              const int64_t iy = y * c.stride - c.pad_top + ky * c.dilation;
              const int64_t ix = x * c.stride - c.pad_left + kx * c.dilation;
              if (iy < 0 || iy >= g.h || ix < 0 || ix >= g.w) continue;
              s += double(in[((b * g.h + iy) * g.w + ix) * g.c + ch]) *
                   f[(ch * c.k + ky) * c.k + kx];
            }
          const int64_t px = (b * g.oh + y) * g.ow + x;
          if (c.residual) s += res[px * g.c + ch];
          float v = act.Apply(static_cast<float>(s));
          if (c.post) v = v * 0.5f + 0.25f;
          out[px * ldo + ch] = v;
        }
}

void Check(const Case& c, DepthwiseConv::Isa isa) {
  const DepthwiseConv::Geometry g = GeometryOf(c);
  const std::string what = "c " + std::to_string(c.c) + " " + std::to_string(c.h) + "x" +
                           std::to_string(c.w) + " k " + std::to_string(c.k) + " s " +
                           std::to_string(c.stride) + " d " + std::to_string(c.dilation) +
                           " act " + std::to_string(c.act) + " isa " +
                           std::to_string(static_cast<int>(isa));
  const auto in = Random(g.n * g.h * g.w * g.c, 1);
  const auto f = Random(g.c * c.k * c.k, 2);
  const auto bias = Random(g.c, 3);
  const int64_t pixels = g.n * g.oh * g.ow;
  const auto res = Random(pixels * g.c, 4);
  const Act act = MakeAct(c.act);
  // Written into columns [3, 3 + c) of a wider output: the rest must stay.
  const int64_t ldo = g.c + 5, off = 3;
  std::vector<float> want(pixels * ldo, -7.f);
  Direct(c, g, in, f, bias, res, act, want.data() + off, ldo);
  DepthwiseConv dw;
  dw.ForceIsa(isa);
  dw.SetFilter(f.data(), g.c, c.k, c.k);
  DepthwiseConv::Epilogue e;
  e.bias = bias.data();
  e.residual = c.residual ? res.data() : nullptr;
  e.act = act;
  if (c.post) {
    e.post_scale = 0.5f;
    e.post_bias = 0.25f;
  }
  std::vector<float> got1(pixels * ldo, -7.f), got2(pixels * ldo, -7.f);
  dw.Run(g, in.data(), e, got1.data() + off, ldo, 1);
  dw.Run(g, in.data(), e, got2.data() + off, ldo, 2);
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_NEAR(got1[i], want[i], 1e-5f * (1.f + std::fabs(want[i]))) << what << " at " << i;
    ASSERT_EQ(got1[i], got2[i]) << what << " threads at " << i;
  }
}

class DepthwiseConvTest : public ::testing::TestWithParam<DepthwiseConv::Isa> {
 protected:
  void SetUp() override {
    if (GetParam() == DepthwiseConv::Isa::kAvx512 && !__builtin_cpu_supports("avx512f"))
      GTEST_SKIP() << "no AVX-512 on this CPU";
    if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma"))
      GTEST_SKIP() << "no AVX2 on this CPU";
  }
};

TEST_P(DepthwiseConvTest, KernelSizesStridesDilations) {
  for (int k : {3, 5, 7})
    for (int stride : {1, 2})
      for (int dilation : {1, 2}) {
        const int pad = dilation * (k - 1) / 2;
        Check({1, 37, 13, 19, k, stride, dilation, pad, pad, pad, pad, Act::kNone, false, false},
              GetParam());
      }
}

TEST_P(DepthwiseConvTest, ChannelCounts) {
  for (int64_t c : {1, 7, 8, 16, 24, 33, 64, 100}) {
    Check({1, c, 11, 10, 3, 1, 1, 1, 1, 1, 1, Act::kRelu, false, false}, GetParam());
    Check({1, c, 11, 10, 3, 2, 1, 1, 1, 1, 1, Act::kRelu6, false, false}, GetParam());
  }
}

TEST_P(DepthwiseConvTest, EpiloguesPaddingAndBatch) {
  for (Act::Kind act : {Act::kNone, Act::kRelu, Act::kRelu6, Act::kHardSwish}) {
    Check({2, 48, 9, 23, 5, 1, 1, 2, 2, 2, 2, act, true, true}, GetParam());
  }
  // Asymmetric and no padding; a map narrower than the kernel's reach.
  Check({1, 20, 15, 17, 3, 2, 1, 0, 1, 0, 1, Act::kHardSwish, false, true}, GetParam());
  Check({1, 20, 8, 9, 3, 1, 1, 0, 0, 0, 0, Act::kRelu, true, false}, GetParam());
  Check({1, 17, 4, 3, 7, 1, 1, 3, 3, 3, 3, Act::kRelu6, false, false}, GetParam());
  Check({1, 17, 6, 5, 3, 1, 2, 2, 2, 2, 2, Act::kNone, true, true}, GetParam());
  // Wide 3x3 layers as det's (hard_swish; a channel tail of 8; many channel
  // vectors per pixel).
  Check({1, 120, 10, 14, 3, 2, 1, 1, 1, 1, 1, Act::kHardSwish, false, false}, GetParam());
  Check({1, 336, 6, 14, 3, 1, 1, 1, 1, 1, 1, Act::kHardSwish, false, false}, GetParam());
}

// Kernels, strides and dilations outside the 3 / 5 / 7, 1 / 2 set the
// sliding tiles are built for take the general tiles.
TEST_P(DepthwiseConvTest, OtherGeometries) {
  Check({1, 19, 13, 14, 4, 3, 1, 1, 2, 1, 2, Act::kRelu, false, false}, GetParam());
  Check({2, 33, 12, 17, 3, 3, 1, 1, 1, 1, 1, Act::kHardSwish, true, true}, GetParam());
  Check({1, 16, 15, 15, 3, 1, 3, 3, 3, 3, 3, Act::kNone, false, false}, GetParam());
}

// The residual read from the output itself (Output = conv + Output): every
// pixel is written once, after its residual was read.
TEST_P(DepthwiseConvTest, ResidualInPlace) {
  for (int64_t w : {14, 19}) {
    const Case c{1, 21, 9, w, 3, 1, 1, 1, 1, 1, 1, Act::kRelu, true, false};
    const DepthwiseConv::Geometry g = GeometryOf(c);
    const auto in = Random(g.h * g.w * g.c, 1);
    const auto f = Random(g.c * 9, 2);
    const auto bias = Random(g.c, 3);
    const auto res = Random(g.oh * g.ow * g.c, 4);
    const Act act = MakeAct(c.act);
    std::vector<float> want(res.size());
    Direct(c, g, in, f, bias, res, act, want.data(), g.c);
    DepthwiseConv dw;
    dw.ForceIsa(GetParam());
    dw.SetFilter(f.data(), g.c, 3, 3);
    std::vector<float> out = res;
    DepthwiseConv::Epilogue e;
    e.bias = bias.data();
    e.residual = out.data();
    e.act = act;
    dw.Run(g, in.data(), e, out.data(), g.c, 1);
    for (size_t i = 0; i < want.size(); ++i) {
      ASSERT_NEAR(out[i], want[i], 1e-5f * (1.f + std::fabs(want[i]))) << "w " << w << " at " << i;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Isa, DepthwiseConvTest,
                         ::testing::Values(DepthwiseConv::Isa::kAvx512,
                                           DepthwiseConv::Isa::kAvx2));

}  // namespace
}  // namespace x86
}  // namespace lite
