// ConvInt8Smalln against a plain scalar reference computed here: int32
// sums over the window (padding taps skipped), then the documented epilogue
// (int8_epilogue.h: fma(sum, scale, bias), FusedActivation::Apply, and for
// levels output x * factor, clip, round to nearest even). Shapes: 3x3 with
// pad 1 and pad 0, 1x1, 5x3, dilation 2, stride_h 2, asymmetric padding,
// widths 160 / 17 / 5 (column tails), ic 96 / 5 / 1 (not multiples of 4),
// oc 24 / 8 / 1 / 5 / 28, batch 2; s8 / u8 input; float / s8 / u8 output;
// every supported activation; both rounding types; with and without bias;
// 1 and 2 threads (bit-identical).
// Levels must be equal; floats within 1e-5 of the largest |output|.
#include "lite/backends/x86/conv_int8_smalln.h"
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

using CS = ConvInt8Smalln;
using Act = operators::FusedActivation;

struct Case {
  int64_t n, h, w, ic, oc;
  int kh, kw, sh, pt, pb, pl, pr, dh, dw;
};

using int8_test::Next;

std::string Name(const Case& k) {
  return std::to_string(k.n) + "x" + std::to_string(k.h) + "x" + std::to_string(k.w) + "x" +
         std::to_string(k.ic) + "->" + std::to_string(k.oc) + " k" + std::to_string(k.kh) + "x" +
         std::to_string(k.kw) + " sh" + std::to_string(k.sh) + " p" + std::to_string(k.pt) +
         std::to_string(k.pb) + std::to_string(k.pl) + std::to_string(k.pr) + " d" +
         std::to_string(k.dh) + std::to_string(k.dw);
}

void Check(const Case& k, CS::Levels in_type, CS::Out out_type, const Act& act, bool bias,
           int round_type, uint32_t seed) {
  SCOPED_TRACE(Name(k) + " in " + (in_type == CS::Levels::kU8 ? "u8" : "s8") + " out " +
               std::to_string(static_cast<int>(out_type)) + " act " + act.name() + " bias " +
               std::to_string(bias) + " round " + std::to_string(round_type));
  const int64_t oh = (k.h + k.pt + k.pb - (k.dh * (k.kh - 1) + 1)) / k.sh + 1;
  const int64_t ow = k.w + k.pl + k.pr - (k.dw * (k.kw - 1) + 1) + 1;
  ASSERT_GT(oh, 0);
  ASSERT_GT(ow, 0);
  const bool u8 = in_type == CS::Levels::kU8;
  std::vector<int8_t> in(k.n * k.h * k.w * k.ic), filter(k.oc * k.ic * k.kh * k.kw);
  for (auto& x : in) x = static_cast<int8_t>(Next(&seed) % 256);
  for (auto& x : filter) x = static_cast<int8_t>(Next(&seed) % 256);
  const int8_test::RandomEpilogue ep(&seed, k.oc, 4e-6f, out_type == CS::Out::kU8, round_type);

  // Reference.
  const int64_t total = k.n * oh * ow * k.oc;
  int8_test::Reference ref(total);
  for (int64_t n = 0; n < k.n; ++n)
    for (int64_t y = 0; y < oh; ++y)
      for (int64_t x = 0; x < ow; ++x)
        for (int64_t o = 0; o < k.oc; ++o) {
          int32_t sum = 0;
          for (int64_t c = 0; c < k.ic; ++c)
            for (int ky = 0; ky < k.kh; ++ky)
              for (int kx = 0; kx < k.kw; ++kx) {
                const int64_t iy = y * k.sh - k.pt + ky * k.dh, ix = x - k.pl + kx * k.dw;
                if (iy < 0 || iy >= k.h || ix < 0 || ix >= k.w) continue;
                const int8_t l = in[((n * k.h + iy) * k.w + ix) * k.ic + c];
                const int32_t level = u8 ? static_cast<int32_t>(static_cast<uint8_t>(l)) : l;
                sum += level * filter[((o * k.ic + c) * k.kh + ky) * k.kw + kx];
              }
          const float v = ep.Value(sum, o, bias, act);
          const int64_t i = ((n * oh + y) * ow + x) * k.oc + o;
          ref.Set(i, v, ep);
        }

  CS cs;
  cs.SetFilter(filter.data(), k.oc, k.ic, k.kh, k.kw);
  cs.SetEpilogue(ep.scale.data(), bias ? ep.bias.data() : nullptr, act, out_type, ep.factor,
                 round_type);
  CS::Geometry g;
  g.n = k.n;
  g.h = k.h;
  g.w = k.w;
  g.ic = k.ic;
  g.oh = oh;
  g.ow = ow;
  g.stride_h = k.sh;
  g.pad_top = k.pt;
  g.pad_left = k.pl;
  g.dilation_h = k.dh;
  g.dilation_w = k.dw;
  int8_test::RunAndExpectMatches(
      [&](char* out, int threads) { cs.Run(g, in.data(), in_type, out, threads); }, total,
      out_type == CS::Out::kFloat, out_type == CS::Out::kU8, ref);
}

TEST(ConvInt8Smalln, Supports) {
  Act sigmoid;
  sigmoid.kind = Act::kSigmoid;
  EXPECT_FALSE(CS::Supports(sigmoid));
  Act hs;
  hs.kind = Act::kHardSwish;
  EXPECT_TRUE(CS::Supports(hs));
}

const std::vector<Case> kShapes = {
    // n, h, w, ic, oc, kh, kw, sh, pt, pb, pl, pr, dh, dw
    {1, 6, 160, 96, 24, 3, 3, 1, 1, 1, 1, 1, 1, 1},  // det's shape (fewer rows)
    {1, 7, 17, 96, 24, 3, 3, 1, 0, 0, 0, 0, 1, 1},   // pad 0, tail of 1 (ow 15)
    {1, 5, 17, 5, 8, 3, 3, 1, 1, 1, 1, 1, 1, 1},     // ic 5, ow 17
    {2, 4, 5, 5, 1, 3, 3, 1, 1, 1, 1, 1, 1, 1},      // batch 2, w 5, oc 1
    {1, 4, 17, 96, 24, 1, 1, 1, 0, 0, 0, 0, 1, 1},   // 1x1
    {1, 9, 21, 13, 5, 3, 3, 1, 2, 2, 2, 2, 2, 2},    // dilation 2
    {1, 9, 19, 7, 28, 5, 3, 2, 2, 1, 0, 2, 1, 1},    // 5x3, stride_h 2, asymmetric, oc 28
    {1, 2, 5, 1, 3, 3, 3, 1, 3, 3, 3, 3, 1, 1},      // rows and columns all padding, ic 1
    {1, 3, 40, 64, 20, 3, 3, 1, 1, 1, 1, 1, 1, 1},
};

TEST(ConvInt8Smalln, MatchesScalarReference) {
  if (!CS::Available()) GTEST_SKIP() << "no AVX512-VNNI in this build or CPU";
  uint32_t seed = 1;
  for (const Case& k : kShapes) {
    int8_test::ForEachForm<CS::Out>(
        [&](bool in_u8, CS::Out out, const Act& act, bool bias, int round_type) {
          Check(k, in_u8 ? CS::Levels::kU8 : CS::Levels::kS8, out, act, bias, round_type, ++seed);
        });
    if (HasFatalFailure()) return;
  }
}

}  // namespace
}  // namespace x86
}  // namespace lite
