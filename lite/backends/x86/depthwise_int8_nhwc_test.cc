// DepthwiseInt8Nhwc against a plain scalar reference computed here: int32
// sums over the window (padding taps skipped), then the documented epilogue
// (fma(sum, scale, bias), FusedActivation::Apply, and for levels output
// x * factor, clip, round to nearest even). Shapes: 3x3 / 5x5 / 7x3 / 4x2 /
// 3x1 / 1x1, strides 1-3, symmetric and asymmetric padding, dilation 2 and
// 3, channel counts around the 16-lane vectors and 64-channel blocks, small
// channel counts (1, 5, 8: the 8-lane form; 13, 16, 24, 40), batch
// 2, rows and columns entirely in the padding; s8 / u8 input; float / s8 /
// u8 output; every supported activation (hard_swish also with non-default
// attributes); both rounding types; with and without bias; 1 and 2 threads
// (bit-identical); the quad sums where the CPU has them and float sums.
// Levels must be equal; floats within 1e-5 of the largest |output|.
#include "lite/backends/x86/depthwise_int8_nhwc.h"
#include "lite/backends/x86/int8_kernel_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

namespace lite {
namespace x86 {
namespace {

using DW = DepthwiseInt8Nhwc;
using Act = operators::FusedActivation;

struct Case {
  int64_t n, h, w, c;
  int kh, kw, sh, sw, pt, pb, pl, pr, dh, dw;
};

using int8_test::Next;

std::string Name(const Case& k) {
  return std::to_string(k.n) + "x" + std::to_string(k.h) + "x" + std::to_string(k.w) + "x" +
         std::to_string(k.c) + " k" + std::to_string(k.kh) + "x" + std::to_string(k.kw) + " s" +
         std::to_string(k.sh) + std::to_string(k.sw) + " p" + std::to_string(k.pt) +
         std::to_string(k.pb) + std::to_string(k.pl) + std::to_string(k.pr) + " d" +
         std::to_string(k.dh) + std::to_string(k.dw);
}

// The quad form's instructions in this build and the CPU.
bool QuadsOnThisCpu() {
#if defined(__AVX512VNNI__) && defined(__AVX512VBMI__)
  return __builtin_cpu_supports("avx512vnni") && __builtin_cpu_supports("avx512vbmi");
#else
  return false;
#endif
}

void Check(const Case& k, bool float_sums, DW::Levels in_type, DW::Out out_type, const Act& act,
           bool bias, int round_type, uint32_t seed) {
  SCOPED_TRACE(Name(k) + (float_sums ? " float sums" : "") + " in " + (in_type == DW::Levels::kU8 ? "u8" : "s8") + " out " +
               std::to_string(static_cast<int>(out_type)) + " act " + act.name() + " bias " +
               std::to_string(bias) + " round " + std::to_string(round_type));
  const int64_t oh = (k.h + k.pt + k.pb - (k.dh * (k.kh - 1) + 1)) / k.sh + 1;
  const int64_t ow = (k.w + k.pl + k.pr - (k.dw * (k.kw - 1) + 1)) / k.sw + 1;
  ASSERT_GT(oh, 0);
  ASSERT_GT(ow, 0);
  const bool u8 = in_type == DW::Levels::kU8;
  std::vector<int8_t> in(k.n * k.h * k.w * k.c), filter(k.c * k.kh * k.kw);
  for (auto& x : in) x = static_cast<int8_t>(u8 ? Next(&seed) % 256 : Next(&seed) % 256);
  // Filter levels in [-128, 127] (round_type 0 gives -128).
  for (auto& x : filter) x = static_cast<int8_t>(Next(&seed) % 256);
  const int8_test::RandomEpilogue ep(&seed, k.c, 4e-5f, out_type == DW::Out::kU8, round_type);

  // Reference.
  const int64_t total = k.n * oh * ow * k.c;
  int8_test::Reference ref(total);
  for (int64_t n = 0; n < k.n; ++n)
    for (int64_t y = 0; y < oh; ++y)
      for (int64_t x = 0; x < ow; ++x)
        for (int64_t c = 0; c < k.c; ++c) {
          int32_t sum = 0;
          for (int ky = 0; ky < k.kh; ++ky)
            for (int kx = 0; kx < k.kw; ++kx) {
              const int64_t iy = y * k.sh - k.pt + ky * k.dh, ix = x * k.sw - k.pl + kx * k.dw;
              if (iy < 0 || iy >= k.h || ix < 0 || ix >= k.w) continue;
              const int8_t l = in[((n * k.h + iy) * k.w + ix) * k.c + c];
              const int32_t level = u8 ? static_cast<int32_t>(static_cast<uint8_t>(l)) : l;
              sum += level * filter[(c * k.kh + ky) * k.kw + kx];
            }
          const float v = ep.Value(sum, c, bias, act);
          const int64_t i = ((n * oh + y) * ow + x) * k.c + c;
          ref.Set(i, v, ep);
        }

  DW dw;
  dw.ForceFloatSums(float_sums);
  dw.SetFilter(filter.data(), k.c, k.kh, k.kw);
  dw.SetEpilogue(ep.scale.data(), bias ? ep.bias.data() : nullptr, act, out_type, ep.factor,
                 round_type);
  DW::Geometry g;
  g.n = k.n;
  g.h = k.h;
  g.w = k.w;
  g.c = k.c;
  g.oh = oh;
  g.ow = ow;
  g.kh = k.kh;
  g.kw = k.kw;
  g.stride_h = k.sh;
  g.stride_w = k.sw;
  g.pad_top = k.pt;
  g.pad_left = k.pl;
  g.dilation_h = k.dh;
  g.dilation_w = k.dw;
  // The quad form wherever the CPU has it and the geometry allows it.
  EXPECT_EQ(dw.UsesQuads(g), !float_sums && QuadsOnThisCpu() && k.dw == 1 && k.sw <= 2 &&
                                 !(k.c <= 8 && k.sh > 1));
  int8_test::RunAndExpectMatches(
      [&](char* out, int threads) { dw.Run(g, in.data(), in_type, out, threads); }, total,
      out_type == DW::Out::kFloat, out_type == DW::Out::kU8, ref);
}

TEST(DepthwiseInt8Nhwc, Exactness) {
  EXPECT_TRUE(DW::ExactSums(32, 32, DW::Levels::kS8));
  EXPECT_FALSE(DW::ExactSums(33, 32, DW::Levels::kS8));
  EXPECT_TRUE(DW::ExactSums(16, 32, DW::Levels::kU8));
  EXPECT_FALSE(DW::ExactSums(17, 32, DW::Levels::kU8));
  Act sigmoid;
  sigmoid.kind = Act::kSigmoid;
  EXPECT_FALSE(DW::Supports(sigmoid));
}

const std::vector<Case> kShapes = {
    // n, h, w, c, kh, kw, sh, sw, pt, pb, pl, pr, dh, dw
    {1, 3, 96, 88, 5, 5, 1, 1, 2, 2, 2, 2, 1, 1},     // the classifier's 3-row maps
    {1, 12, 20, 64, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1},
    {1, 13, 17, 40, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1},    // stride 2, odd sizes
    {2, 9, 11, 24, 5, 5, 2, 1, 2, 2, 2, 2, 1, 1},     // batch 2, stride (2, 1)
    {1, 10, 10, 33, 3, 3, 1, 1, 2, 2, 2, 2, 2, 2},    // dilation 2
    {1, 8, 9, 7, 3, 3, 1, 1, 0, 1, 1, 0, 1, 1},       // asymmetric padding, c < 16
    {1, 6, 7, 130, 7, 3, 1, 2, 3, 3, 1, 1, 1, 1},     // 7x3, 3 blocks: 64 + 64 + 2
    {1, 4, 25, 16, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1},     // 1x1
    {1, 2, 5, 20, 3, 3, 1, 1, 4, 4, 3, 3, 1, 1},      // rows and columns all padding
    {1, 5, 30, 200, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1},    // 4 blocks: 64 + 64 + 64 + 8
    {1, 9, 14, 18, 4, 2, 2, 3, 1, 2, 0, 1, 2, 3},     // even kernel widths, stride 3, dilation 3
    {1, 7, 8, 16, 3, 1, 1, 1, 1, 1, 0, 0, 1, 1},      // 3x1
    // Small channel counts: the 8-lane form (c <= 8) and last blocks
    // narrower than 64; widths giving odd tiles and tails (37 = 13 + 12 + 12).
    {1, 7, 37, 1, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1},      // c 1
    {1, 6, 21, 5, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1},      // c 5, stride 2
    {2, 9, 35, 8, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1},      // c 8: det's first depthwise
    {1, 8, 19, 8, 5, 5, 2, 1, 2, 2, 2, 2, 1, 1},      // c 8, stride (2, 1)
    {1, 7, 23, 8, 3, 3, 3, 3, 1, 1, 1, 1, 2, 2},      // c 8, stride 3, dilation 2
    {1, 9, 26, 13, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1},     // c 13: one 16-lane block
    {1, 10, 27, 16, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1},    // c 16, stride 2
    {1, 8, 29, 24, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1},     // c 24: a 32-channel block
    {1, 9, 31, 40, 5, 5, 1, 1, 2, 2, 2, 2, 1, 1},     // c 40: a 48-channel block
    {1, 6, 17, 100, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1},    // blocks 64 + 48 (36 channels)
    // c 32 (two 16-channel quads a pixel).
    {1, 9, 21, 32, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1},     // det's 32ch stride 2
    {2, 6, 13, 32, 5, 5, 1, 1, 2, 2, 2, 2, 1, 1},     // 5x5: two quads a kernel row
};

TEST(DepthwiseInt8Nhwc, MatchesScalarReference) {
  if (!DW::Available()) GTEST_SKIP() << "no AVX-512 in this build or CPU";
  uint32_t seed = 1;
  for (const bool float_sums : {false, true})
    for (const Case& k : kShapes) {
      int8_test::ForEachForm<DW::Out>(
          [&](bool in_u8, DW::Out out, const Act& act, bool bias, int round_type) {
            Check(k, float_sums, in_u8 ? DW::Levels::kU8 : DW::Levels::kS8, out, act, bias,
                  round_type, ++seed);
          });
      if (HasFatalFailure()) return;
    }
}

}  // namespace
}  // namespace x86
}  // namespace lite
