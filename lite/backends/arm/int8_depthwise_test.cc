// Int8Depthwise (int8_depthwise.h) against the conv's definition
// (int8_conv_reference.h: int32 sums on the unpadded input, then
// fma(float(sum), scale, bias) clamped), bit for bit, for every form this
// CPU runs (scalar; on aarch64 also NEON, and SDOT where the CPU has it:
// QEMU_CPU=max), on windows 3x3, 5x5, 1x1, 2x3, 3x4, 1x7, 4x9 (an odd
// number of taps and not; 1 to 3 SDOT tap groups), strides 1 and 2,
// dilation 2, asymmetric padding, channel counts with remainders, batch 2,
// on the calling thread and a pool of 2, and twice per shape (the border
// reused).
#include "lite/backends/arm/int8_depthwise.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "lite/backends/arm/int8_conv_reference.h"

namespace lite {
namespace arm {
namespace {

TEST(Int8DepthwiseTest, MatchesExactSumsAndEpilogueBitForBit) {
  std::mt19937 rng(3);
  pthreadpool_t pool2 = pthreadpool_create(2);
  std::vector<Int8Depthwise::Form> forms = {Int8Depthwise::Form::kScalar};
#ifdef __aarch64__
  forms.push_back(Int8Depthwise::Form::kNeon);
#endif
  if (Int8Depthwise::CpuForm() == Int8Depthwise::Form::kDot) forms.push_back(Int8Depthwise::Form::kDot);
  // n, h, w, c, kh, kw, stride, dilation, top, bottom, left, right.
  const std::vector<std::vector<size_t>> cases = {
      {1, 7, 9, 16, 3, 3, 1, 1, 1, 1, 1, 1}, {2, 8, 6, 24, 3, 3, 2, 1, 0, 1, 0, 1},
      {1, 11, 10, 5, 5, 5, 1, 1, 2, 2, 2, 2}, {1, 9, 9, 40, 5, 5, 2, 1, 2, 2, 2, 2},
      {1, 6, 7, 33, 1, 1, 1, 1, 0, 0, 0, 0},  {1, 9, 8, 17, 3, 3, 1, 2, 2, 2, 2, 2},
      {1, 5, 6, 3, 2, 3, 1, 1, 1, 0, 2, 1},   {1, 9, 10, 16, 5, 5, 1, 2, 4, 4, 4, 4},
      {2, 7, 8, 21, 3, 4, 2, 1, 1, 2, 1, 2},  {1, 6, 11, 32, 1, 7, 1, 1, 0, 0, 3, 3},
      {1, 8, 13, 18, 4, 9, 1, 1, 2, 1, 4, 4}};
  for (const std::vector<size_t>& c : cases) {
    const testing::ConvShape k{c[0], c[1], c[2], c[3], c[3], c[3], c[4],
                               c[5], c[6], c[7], c[8], c[9], c[10], c[11]};
    const testing::ConvOperands o = testing::RandomOperands(k, rng, 32, -12);
    const Int8Depthwise::Geometry g{k.c, k.kh, k.kw, k.s, k.s, k.d, k.d,
                                    k.top, k.bottom, k.left, k.right};
    for (bool clamp : {false, true}) {
      const float lo = clamp ? 0.f : -INFINITY, hi = clamp ? 0.5f : INFINITY;
      const std::vector<float> want = testing::ReferenceConv(k, o.x, o.w, o.scale, o.bias, lo, hi);
      for (Int8Depthwise::Form form : forms) {
        Int8Depthwise dw;
        ASSERT_TRUE(dw.Pack(o.w.data(), g, o.scale.data(), o.bias.data(), form, lo, hi));
        // The SDOT form takes windows 4 or more taps wide; narrower ones run NEON.
        EXPECT_EQ(dw.form(), form == Int8Depthwise::Form::kDot && k.kw < 4
                                 ? Int8Depthwise::Form::kNeon
                                 : form);
        for (pthreadpool_t pool : {pthreadpool_t(nullptr), pool2}) {
          std::vector<float> got(want.size(), NAN);
          dw.Run(o.x.data(), k.n, k.h, k.w, got.data(), pool);
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
