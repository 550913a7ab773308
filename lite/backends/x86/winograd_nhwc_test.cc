// WinogradNhwc against a direct NHWC convolution accumulated in double:
// channel counts around the 16-lane slices, output sizes that are not
// multiples of the 4x4 tile, asymmetric padding, batch 2, every activation,
// a partial last block, and 1 vs 2 threads (bit-identical).
#include "lite/backends/x86/winograd_nhwc.h"
#include "lite/backends/x86/float_kernel_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace lite {
namespace x86 {
namespace {

struct Case {
  int64_t n, ih, iw, ic, oc;
  int top, bottom, left, right;
  WinogradNhwc::Act act;
};

using float_test::Random;

// Direct convolution, NHWC in/out, OIHW filter, double accumulation.
std::vector<float> Direct(const Case& c, const std::vector<float>& in,
                          const std::vector<float>& f, const std::vector<float>& bias,
                          int64_t oh, int64_t ow) {
  std::vector<float> out(c.n * oh * ow * c.oc);
  for (int64_t b = 0; b < c.n; ++b)
    for (int64_t y = 0; y < oh; ++y)
      for (int64_t x = 0; x < ow; ++x)
        for (int64_t o = 0; o < c.oc; ++o) {
          double s = bias[o];
          for (int ky = 0; ky < 3; ++ky)
            for (int kx = 0; kx < 3; ++kx) {
              const int64_t iy = y - c.top + ky, ix = x - c.left + kx;
              if (iy < 0 || iy >= c.ih || ix < 0 || ix >= c.iw) continue;
              for (int64_t i = 0; i < c.ic; ++i)
                s += double(in[((b * c.ih + iy) * c.iw + ix) * c.ic + i]) *
                     f[((o * c.ic + i) * 3 + ky) * 3 + kx];
            }
          float v = static_cast<float>(s);
          if (c.act != WinogradNhwc::Act::kNone) v = std::max(v, 0.f);
          if (c.act == WinogradNhwc::Act::kRelu6) v = std::min(v, 6.f);
          out[((b * oh + y) * ow + x) * c.oc + o] = v;
        }
  return out;
}

std::vector<float> RunWinograd(const WinogradNhwc& w, const Case& c, const std::vector<float>& in,
                               const std::vector<float>& bias, int64_t oh, int64_t ow,
                               int threads) {
  std::vector<float> out(c.n * oh * ow * c.oc, -7.f);
  w.Run(c.n, c.ih, c.iw, c.top, c.left, oh, ow, in.data(), bias.data(), c.act, 6.f, out.data(),
        c.oc, threads);
  return out;
}

TEST(WinogradNhwc, MatchesDirectConvolution) {
  if (!WinogradNhwc::Available()) GTEST_SKIP() << "no AVX-512 in this build or CPU";
  using A = WinogradNhwc::Act;
  const std::vector<Case> cases = {
      {1, 8, 8, 16, 16, 1, 1, 1, 1, A::kNone},     // one block, exact tiles
      {1, 13, 11, 17, 24, 1, 1, 1, 1, A::kRelu},   // channel tails, partial tiles
      {2, 21, 18, 96, 24, 1, 1, 1, 1, A::kRelu},   // det's shape class, batch 2
      {1, 9, 10, 33, 40, 0, 2, 1, 0, A::kRelu6},   // asymmetric padding, 40 = 32 + 8
      {1, 30, 30, 64, 64, 0, 0, 0, 0, A::kNone},   // no padding, several blocks
      {1, 16, 20, 16, 48, 1, 1, 1, 1, A::kRelu},   // 20 tiles: 12 + 8 rows, 16-wide last panel
      {1, 6, 7, 3, 1, 1, 1, 1, 1, A::kNone},       // tiny: 3 -> 1 channels
  };
  for (const Case& c : cases) {
    const std::string what = std::to_string(c.n) + "x" + std::to_string(c.ih) + "x" +
                             std::to_string(c.iw) + " " + std::to_string(c.ic) + "->" +
                             std::to_string(c.oc);
    const int64_t oh = c.ih + c.top + c.bottom - 2, ow = c.iw + c.left + c.right - 2;
    const auto in = Random(c.n * c.ih * c.iw * c.ic, 3);
    const auto f = Random(c.oc * c.ic * 9, 5);
    const auto bias = Random(c.oc, 7);
    WinogradNhwc w;
    w.SetFilter(f.data(), c.oc, c.ic);
    const auto want = Direct(c, in, f, bias, oh, ow);
    const auto got = RunWinograd(w, c, in, bias, oh, ow, 1);
    // Winograd's error scales with the magnitudes in a tile, not with each
    // output: measure it against the largest output (a wrong transform or
    // a misplaced tile is off by O(1) of that).
    double worst = 0, scale = 1e-30;
    for (size_t i = 0; i < want.size(); ++i) {
      worst = std::max(worst, std::fabs(double(want[i]) - got[i]));
      scale = std::max(scale, std::fabs(double(want[i])));
    }
    EXPECT_LT(worst / scale, 2e-5) << what << ": max abs error " << worst << " of " << scale;
    EXPECT_EQ(RunWinograd(w, c, in, bias, oh, ow, 2), got) << what << ": 2 threads differ";
  }
}

// ldo > oc: the output lands in a channel slice of a wider NHWC tensor (as
// for a concat written in place) and the channels around it keep their
// values.
TEST(WinogradNhwc, WritesAChannelSliceOfAWiderTensor) {
  if (!WinogradNhwc::Available()) GTEST_SKIP() << "no AVX-512 in this build or CPU";
  const Case c{2, 13, 11, 17, 24, 1, 1, 1, 1, WinogradNhwc::Act::kRelu};
  const int64_t oh = 13, ow = 11, ldo = 24 + 40, offset = 16;
  const auto in = Random(c.n * c.ih * c.iw * c.ic, 3);
  const auto f = Random(c.oc * c.ic * 9, 5);
  const auto bias = Random(c.oc, 7);
  WinogradNhwc w;
  w.SetFilter(f.data(), c.oc, c.ic);
  const auto dense = RunWinograd(w, c, in, bias, oh, ow, 1);
  std::vector<float> wide(c.n * oh * ow * ldo, -7.f);
  w.Run(c.n, c.ih, c.iw, c.top, c.left, oh, ow, in.data(), bias.data(), c.act, 6.f,
        wide.data() + offset, ldo, /*threads=*/1);
  for (int64_t px = 0; px < c.n * oh * ow; ++px) {
    for (int64_t ch = 0; ch < ldo; ++ch) {
      const float want = ch >= offset && ch < offset + c.oc ? dense[px * c.oc + ch - offset] : -7.f;
      ASSERT_EQ(wide[px * ldo + ch], want) << "pixel " << px << " channel " << ch;
    }
  }
}

}  // namespace
}  // namespace x86
}  // namespace lite
