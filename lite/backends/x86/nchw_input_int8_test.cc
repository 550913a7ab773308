// NchwInputInt8 against a plain scalar reference computed here: the input
// quantized by the test's row rule (the kernel's QuantizeRow), int32 sums
// over the window (padding taps skipped), then the documented epilogue
// (int8_kernel_test_util.h). Shapes: 1-4 input channels, 1-16 output
// channels (the 8- and 16-accumulator forms and their masked stores),
// 3x3 / 1x1 / 4x4 / 2x3 / 7x3 windows, stride_w 1 and 2, stride_h 1-3,
// asymmetric and large padding (rows and columns entirely in it), widths
// with tails of the 16-pixel blocks, batch 2; float / s8 / u8 output, every
// supported activation, both rounding types, with and without bias, 1 and
// 2 threads (bit-identical). Levels must be equal; floats within 1e-5 of
// the largest |output|.
#include "lite/backends/x86/nchw_input_int8.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "lite/backends/x86/int8_kernel_test_util.h"

namespace lite {
namespace x86 {
namespace {

using NI = NchwInputInt8;
using Act = operators::FusedActivation;
using int8_test::Next;

struct Case {
  int64_t n, ic, h, w, oc;
  int kh, kw, sh, sw, pt, pb, pl, pr;
};

std::string Name(const Case& k) {
  return std::to_string(k.n) + "x" + std::to_string(k.ic) + "x" + std::to_string(k.h) + "x" +
         std::to_string(k.w) + " -> " + std::to_string(k.oc) + " k" + std::to_string(k.kh) + "x" +
         std::to_string(k.kw) + " s" + std::to_string(k.sh) + std::to_string(k.sw) + " p" +
         std::to_string(k.pt) + std::to_string(k.pb) + std::to_string(k.pl) + std::to_string(k.pr);
}

// The test's quantizer: x * 40 rounded half away from zero, clipped to
// [-127, 127] (any rule works: the kernel takes the caller's).
int8_t Level(float x) {
  return static_cast<int8_t>(std::max(-127.f, std::min(127.f, std::round(x * 40.f))));
}

void Check(const Case& k, NI::Out out_type, const Act& act, bool bias, int round_type,
           uint32_t seed) {
  SCOPED_TRACE(Name(k) + " out " + std::to_string(static_cast<int>(out_type)) + " act " +
               act.name() + " bias " + std::to_string(bias) + " round " +
               std::to_string(round_type));
  const int64_t oh = (k.h + k.pt + k.pb - k.kh) / k.sh + 1;
  const int64_t ow = (k.w + k.pl + k.pr - k.kw) / k.sw + 1;
  ASSERT_GT(oh, 0);
  ASSERT_GT(ow, 0);
  std::vector<float> in(k.n * k.ic * k.h * k.w);
  for (auto& x : in) x = static_cast<float>(Next(&seed) % 8000) / 1000.f - 4.f;  // some clip
  std::vector<int8_t> filter(k.oc * k.ic * k.kh * k.kw);
  for (auto& x : filter) x = static_cast<int8_t>(Next(&seed) % 256);  // -128 .. 127
  const int8_test::RandomEpilogue ep(&seed, k.oc, 4e-5f, out_type == NI::Out::kU8, round_type);

  const int64_t total = k.n * oh * ow * k.oc;
  int8_test::Reference ref(total);
  for (int64_t n = 0; n < k.n; ++n)
    for (int64_t y = 0; y < oh; ++y)
      for (int64_t x = 0; x < ow; ++x)
        for (int64_t m = 0; m < k.oc; ++m) {
          int32_t sum = 0;
          for (int64_t c = 0; c < k.ic; ++c)
            for (int ky = 0; ky < k.kh; ++ky)
              for (int kx = 0; kx < k.kw; ++kx) {
                const int64_t iy = y * k.sh - k.pt + ky, ix = x * k.sw - k.pl + kx;
                if (iy < 0 || iy >= k.h || ix < 0 || ix >= k.w) continue;
                sum += Level(in[((n * k.ic + c) * k.h + iy) * k.w + ix]) *
                       filter[((m * k.ic + c) * k.kh + ky) * k.kw + kx];
              }
          const float v = ep.Value(sum, m, bias, act);
          const int64_t i = ((n * oh + y) * ow + x) * k.oc + m;
          ref.Set(i, v, ep);
        }

  NI conv;
  conv.SetFilter(filter.data(), k.oc, k.ic, k.kh, k.kw);
  conv.SetEpilogue(ep.scale.data(), bias ? ep.bias.data() : nullptr, act, out_type, ep.factor,
                   round_type);
  NI::Geometry g;
  g.n = k.n;
  g.ic = k.ic;
  g.h = k.h;
  g.w = k.w;
  g.oh = oh;
  g.ow = ow;
  g.stride_h = k.sh;
  g.stride_w = k.sw;
  g.pad_top = k.pt;
  g.pad_left = k.pl;
  const NI::QuantizeRow quantize = [](const float* x, int64_t n, int8_t* levels) {
    for (int64_t i = 0; i < n; ++i) levels[i] = Level(x[i]);
  };
  int8_test::RunAndExpectMatches(
      [&](char* out, int threads) { conv.Run(g, in.data(), quantize, out, threads); }, total,
      out_type == NI::Out::kFloat, out_type == NI::Out::kU8, ref);
}

TEST(NchwInputInt8, Fits) {
  EXPECT_TRUE(NI::Fits(3, 8, 3, 3, 2, 1, 1, 1));
  EXPECT_TRUE(NI::Fits(4, 16, 16, 4, 1, 1, 1, 1));
  EXPECT_FALSE(NI::Fits(5, 8, 3, 3, 2, 1, 1, 1));   // 5 input channels
  EXPECT_FALSE(NI::Fits(3, 17, 3, 3, 2, 1, 1, 1));  // 17 output channels
  EXPECT_FALSE(NI::Fits(3, 8, 3, 5, 1, 1, 1, 1));   // kw 5
  EXPECT_FALSE(NI::Fits(3, 8, 3, 3, 3, 1, 1, 1));   // stride_w 3
  EXPECT_FALSE(NI::Fits(3, 8, 3, 3, 1, 2, 1, 1));   // dilation
  EXPECT_FALSE(NI::Fits(3, 8, 3, 3, 1, 1, 1, 3));   // groups
}

const std::vector<Case> kShapes = {
    // n, ic, h, w, oc, kh, kw, sh, sw, pt, pb, pl, pr
    {1, 3, 20, 37, 8, 3, 3, 2, 2, 1, 1, 1, 1},   // det's first conv; 19 = 16 + 3 pixels
    {2, 3, 9, 21, 16, 3, 3, 2, 2, 1, 1, 1, 1},   // 16 channels, batch 2
    {1, 1, 7, 40, 5, 3, 3, 1, 1, 1, 1, 1, 1},    // 1 channel in, 5 out, stride 1
    {1, 4, 8, 18, 12, 4, 4, 2, 2, 1, 2, 1, 2},   // 4x4, asymmetric padding
    {1, 2, 11, 33, 1, 2, 3, 3, 1, 0, 1, 2, 0},   // stride (3, 1), 1 channel out
    {1, 3, 9, 17, 9, 7, 3, 1, 2, 3, 3, 1, 1},    // 7 kernel rows
    {1, 3, 3, 5, 8, 3, 3, 1, 1, 4, 4, 3, 3},     // rows and columns all padding
    {1, 3, 6, 50, 16, 1, 1, 1, 1, 0, 0, 0, 0},   // 1x1
};

TEST(NchwInputInt8, MatchesScalarReference) {
  if (!NI::Available()) GTEST_SKIP() << "no AVX512-VNNI / VBMI in this build or CPU";
  uint32_t seed = 11;
  for (const Case& k : kShapes) {
    int8_test::ForEachForm<NI::Out>(
        [&](bool in_u8, NI::Out out, const Act& act, bool bias, int round_type) {
          if (in_u8) return;  // the input is always the quantized float image
          Check(k, out, act, bias, round_type, ++seed);
        });
    if (HasFatalFailure()) return;
  }
}

}  // namespace
}  // namespace x86
}  // namespace lite
