// Int8Depthwise (int8_depthwise.h) against its definition written out here
// on the unpadded input (taps in the padding skipped, i.e. level 0): int32
// sums, then fma(float(sum), scale, bias) clamped, bit for bit, for every
// form this CPU runs (scalar; on aarch64 also NEON), on windows 3x3, 5x5,
// 1x1, 2x3 (an odd number of taps and not), strides 1 and 2, dilation 2,
// asymmetric padding, channel counts with remainders, batch 2, on the
// calling thread and a pool of 2, and twice per shape (the border reused).
#include "lite/backends/arm/int8_depthwise.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

namespace lite {
namespace arm {
namespace {

struct Case {
  size_t n, h, w, c, kh, kw, s, d, top, bottom, left, right;
};

TEST(Int8DepthwiseTest, MatchesExactSumsAndEpilogueBitForBit) {
  std::mt19937 rng(3);
  std::uniform_int_distribution<int> level(-128, 127), wlevel(-127, 127);
  std::uniform_real_distribution<float> uni(-1.f, 1.f);
  pthreadpool_t pool2 = pthreadpool_create(2);
  std::vector<Int8Depthwise::Form> forms = {Int8Depthwise::Form::kScalar};
#ifdef __aarch64__
  forms.push_back(Int8Depthwise::Form::kNeon);
#endif
  const std::vector<Case> cases = {
      {1, 7, 9, 16, 3, 3, 1, 1, 1, 1, 1, 1}, {2, 8, 6, 24, 3, 3, 2, 1, 0, 1, 0, 1},
      {1, 11, 10, 5, 5, 5, 1, 1, 2, 2, 2, 2}, {1, 9, 9, 40, 5, 5, 2, 1, 2, 2, 2, 2},
      {1, 6, 7, 33, 1, 1, 1, 1, 0, 0, 0, 0},  {1, 9, 8, 17, 3, 3, 1, 2, 2, 2, 2, 2},
      {1, 5, 6, 3, 2, 3, 1, 1, 1, 0, 2, 1}};
  for (const Case& k : cases) {
    const size_t taps = k.kh * k.kw;
    std::vector<int8_t> x(k.n * k.h * k.w * k.c), w(k.c * taps);
    for (auto& v : x) v = static_cast<int8_t>(level(rng));
    for (auto& v : w) v = static_cast<int8_t>(wlevel(rng));
    std::fill(x.begin(), x.begin() + std::min<size_t>(x.size(), 32), int8_t{-128});
    std::fill(w.begin(), w.begin() + std::min<size_t>(w.size(), 32), int8_t{-127});
    std::vector<float> scale(k.c), bias(k.c);
    for (size_t c = 0; c < k.c; ++c) {
      scale[c] = std::ldexp(uni(rng), -12);
      bias[c] = uni(rng);
    }
    const Int8Depthwise::Geometry g{k.c, k.kh, k.kw, k.s, k.s, k.d, k.d,
                                    k.top, k.bottom, k.left, k.right};
    const size_t oh = (k.h + k.top + k.bottom - (k.kh - 1) * k.d - 1) / k.s + 1;
    const size_t ow = (k.w + k.left + k.right - (k.kw - 1) * k.d - 1) / k.s + 1;
    for (bool clamp : {false, true}) {
      const float lo = clamp ? 0.f : -INFINITY, hi = clamp ? 0.5f : INFINITY;
      std::vector<float> want(k.n * oh * ow * k.c);
      for (size_t i = 0; i < k.n; ++i)
        for (size_t oy = 0; oy < oh; ++oy)
          for (size_t ox = 0; ox < ow; ++ox)
            for (size_t c = 0; c < k.c; ++c) {
              int32_t sum = 0;
              for (size_t ky = 0; ky < k.kh; ++ky)
                for (size_t kx = 0; kx < k.kw; ++kx) {
                  const long iy = long(oy * k.s + ky * k.d) - long(k.top);
                  const long ix = long(ox * k.s + kx * k.d) - long(k.left);
                  if (iy < 0 || ix < 0 || iy >= long(k.h) || ix >= long(k.w)) continue;
                  sum += int32_t(x[((i * k.h + iy) * k.w + ix) * k.c + c]) *
                         int32_t(w[c * taps + ky * k.kw + kx]);
                }
              const float v = std::fma(static_cast<float>(sum), scale[c], bias[c]);
              want[((i * oh + oy) * ow + ox) * k.c + c] = std::min(std::max(v, lo), hi);
            }
      for (Int8Depthwise::Form form : forms) {
        Int8Depthwise dw;
        ASSERT_TRUE(dw.Pack(w.data(), g, scale.data(), bias.data(), form, lo, hi));
        for (pthreadpool_t pool : {pthreadpool_t(nullptr), pool2}) {
          std::vector<float> got(want.size(), NAN);
          dw.Run(x.data(), k.n, k.h, k.w, got.data(), pool);
          EXPECT_EQ(std::memcmp(got.data(), want.data(), got.size() * sizeof(float)), 0)
              << dw.name() << " c " << k.c << " k " << k.kh << "x" << k.kw << " s " << k.s
              << " d " << k.d << " clamp " << clamp << " pool " << (pool != nullptr);
        }
      }
    }
  }
  pthreadpool_destroy(pool2);
}

TEST(Int8DepthwiseTest, RefusesWeightLevelMinus128) {
  const std::vector<int8_t> w = {1, -128, 0, 0};
  const float scale = 1.f;
  Int8Depthwise dw;
  EXPECT_FALSE(dw.Pack(w.data(), {1, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0}, &scale, nullptr));
}

}  // namespace
}  // namespace arm
}  // namespace lite
