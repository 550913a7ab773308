// Int8Gemm (int8_gemm.h) against its definition written out here: int32
// sums of level products, then fma(float(sum), scale, bias) clamped, bit
// for bit, for every form this CPU runs (scalar everywhere, SDOT where the
// CPU has it: QEMU_CPU=max), on random shapes with pixel, channel and K remainders, on the calling thread
// and on a pool of 2; and the window form (a conv's taps read from the
// bordered input) against the conv's definition (int8_conv_reference.h).
#include "lite/backends/arm/int8_gemm.h"

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

std::vector<Int8Gemm::Form> Forms() {
  std::vector<Int8Gemm::Form> forms = {Int8Gemm::Form::kScalar};
  if (Int8Gemm::CpuForm() == Int8Gemm::Form::kDot) forms.push_back(Int8Gemm::Form::kDot);
  return forms;
}

TEST(Int8GemmTest, MatchesExactSumsAndEpilogueBitForBit) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> level(-128, 127), wlevel(-127, 127);
  std::uniform_real_distribution<float> uni(-1.f, 1.f);
  pthreadpool_t pool2 = pthreadpool_create(2);
  struct Shape {
    size_t m, n, k;
  };
  const std::vector<Shape> shapes = {{1, 1, 1},   {3, 5, 7},    {4, 8, 16},  {9, 12, 33},
                                     {37, 24, 48}, {70, 40, 120}, {5, 3, 200}, {64, 96, 1030}};
  for (const Shape& s : shapes) {
    std::vector<int8_t> x(s.m * s.k), w(s.n * s.k);
    for (auto& v : x) v = static_cast<int8_t>(level(rng));
    for (auto& v : w) v = static_cast<int8_t>(wlevel(rng));
    // The extremes of the levels.
    x[0] = -128;
    w[0] = -127;
    if (s.k > 8) {
      x[8] = -128;
      w[8] = -127;
    }
    std::vector<float> scale(s.n), bias(s.n);
    for (size_t c = 0; c < s.n; ++c) {
      scale[c] = std::ldexp(uni(rng), -14);
      bias[c] = uni(rng);
    }
    for (bool clamp : {false, true}) {
      const float lo = clamp ? 0.f : -INFINITY, hi = clamp ? 0.25f : INFINITY;
      std::vector<float> want(s.m * s.n);
      for (size_t p = 0; p < s.m; ++p)
        for (size_t c = 0; c < s.n; ++c) {
          int32_t sum = 0;
          for (size_t i = 0; i < s.k; ++i) sum += int32_t(x[p * s.k + i]) * int32_t(w[c * s.k + i]);
          const float v = std::fma(static_cast<float>(sum), scale[c], bias[c]);
          want[p * s.n + c] = std::min(std::max(v, lo), hi);
        }
      for (Int8Gemm::Form form : Forms()) {
        Int8Gemm gemm;
        ASSERT_TRUE(gemm.Pack(w.data(), s.n, s.k, scale.data(), bias.data(), form, lo, hi));
        EXPECT_EQ(gemm.form(), form);
        for (pthreadpool_t pool : {pthreadpool_t(nullptr), pool2}) {
          std::vector<float> got(s.m * s.n, NAN);
          gemm.Run(x.data(), s.m, got.data(), pool);
          EXPECT_EQ(std::memcmp(got.data(), want.data(), got.size() * sizeof(float)), 0)
              << gemm.name() << " m " << s.m << " n " << s.n << " k " << s.k << " clamp " << clamp
              << " pool " << (pool != nullptr);
        }
      }
    }
  }
  pthreadpool_destroy(pool2);
}

TEST(Int8GemmTest, WindowFormMatchesTheConvBitForBit) {
  std::mt19937 rng(11);
  pthreadpool_t pool2 = pthreadpool_create(2);
  // n, h, w, c, out, kh, kw, stride, dilation, top, bottom, left, right.
  const std::vector<std::vector<size_t>> cases = {
      {1, 7, 9, 16, 8, 3, 3, 1, 1, 1, 1, 1, 1},  {2, 8, 6, 5, 11, 3, 3, 2, 1, 0, 1, 0, 1},
      {1, 9, 8, 33, 24, 2, 3, 1, 2, 1, 0, 2, 1}, {1, 5, 6, 20, 3, 1, 1, 1, 1, 1, 0, 0, 1},
      {1, 6, 7, 48, 17, 3, 3, 2, 1, 1, 1, 1, 1}};
  for (const std::vector<size_t>& c : cases) {
    const testing::ConvShape k{c[0], c[1], c[2], c[3], c[4], 1, c[5],
                               c[6], c[7], c[8], c[9], c[10], c[11], c[12]};
    const testing::ConvOperands o = testing::RandomOperands(k, rng, 20, -14);
    const Int8Gemm::Window g{k.c, k.kh, k.kw, k.s, k.s, k.d, k.d,
                             k.top, k.bottom, k.left, k.right};
    for (bool clamp : {false, true}) {
      const float lo = clamp ? 0.f : -INFINITY, hi = clamp ? 0.25f : INFINITY;
      const std::vector<float> want = testing::ReferenceConv(k, o.x, o.w, o.scale, o.bias, lo, hi);
      for (Int8Gemm::Form form : Forms()) {
        Int8Gemm gemm;
        ASSERT_TRUE(
            gemm.PackWindow(o.w.data(), k.out, g, o.scale.data(), o.bias.data(), form, lo, hi));
        // Three runs: the bordered input allocated once, then reused.
        for (pthreadpool_t pool : {pthreadpool_t(nullptr), pool2, pthreadpool_t(nullptr)}) {
          std::vector<float> got(want.size(), NAN);
          gemm.RunWindow(o.x.data(), k.n, k.h, k.w, got.data(), pool);
          EXPECT_EQ(std::memcmp(got.data(), want.data(), got.size() * sizeof(float)), 0)
              << gemm.name() << " c " << k.c << " out " << k.out << " k " << k.kh << "x" << k.kw
              << " s " << k.s << " d " << k.d << " clamp " << clamp
              << " pool " << (pool != nullptr);
        }
      }
    }
  }
  pthreadpool_destroy(pool2);
}

TEST(Int8GemmTest, NoBiasIsZeroBias) {
  const std::vector<int8_t> x = {1, -2, 3}, w = {4, 5, 6, -7, 8, 9};
  const std::vector<float> scale = {0.5f, 0.25f};
  for (Int8Gemm::Form form : Forms()) {
    Int8Gemm gemm;
    ASSERT_TRUE(gemm.Pack(w.data(), 2, 3, scale.data(), nullptr, form));
    float y[2];
    gemm.Run(x.data(), 1, y, nullptr);
    EXPECT_EQ(y[0], (4 - 10 + 18) * 0.5f) << gemm.name();
    EXPECT_EQ(y[1], (-7 - 16 + 27) * 0.25f) << gemm.name();
  }
}

TEST(Int8GemmTest, RefusesWeightLevelMinus128) {
  const std::vector<int8_t> w = {1, -128};
  const float scale = 1.f;
  Int8Gemm gemm;
  EXPECT_FALSE(gemm.Pack(w.data(), 1, 2, &scale, nullptr));
}

}  // namespace
}  // namespace arm
}  // namespace lite
