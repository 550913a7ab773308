// int8_loops.h against the scalar rules it must reproduce bit for bit
// (quant_math.h's Quantizer, level * scale / 127, x86's output rounding):
// exact halves, both round types, clipping, subnormals, infinities and
// lengths that leave every remainder. Under --config=aarch64 this checks
// the NEON loops; elsewhere the portable ones.
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "lite/base/quant_math.h"
#include "lite/kernels/arm/int8_loops.h"

namespace lite {
namespace {

using kernels::arm::DequantizeLevels;
using kernels::arm::GateQuantizeLevels;
using kernels::arm::LookupLevels;
using kernels::arm::QuantDequantLevels;
using kernels::arm::QuantizeLevels;
using kernels::arm::RequantizeLevels;
using operators::quant::Quantizer;

// Quarter levels over [-140, 140] (exact halves among them), values just
// beside the halves, subnormals, zeros, infinities and large magnitudes.
std::vector<float> Inputs(float scale) {
  std::vector<float> x;
  const float level = scale / 127.f;
  for (int k = -560; k <= 560; ++k) {
    const float v = k * 0.25f * level;
    x.push_back(v);
    x.push_back(std::nextafter(v, 1e30f));
    x.push_back(std::nextafter(v, -1e30f));
  }
  const float sub = std::numeric_limits<float>::denorm_min();
  for (float v : {0.f, -0.f, sub, -sub, 1e-39f, -1e-39f, 1e30f, -1e30f,
                  std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity()}) {
    x.push_back(v);
  }
  return x;
}

uint32_t Bits(float v) {
  uint32_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

// Every length up to 20 (each remainder of the 4-, 8- and 16-wide steps) and
// the whole input.
std::vector<size_t> Lengths(size_t all) {
  std::vector<size_t> n;
  for (size_t i = 0; i <= 20; ++i) n.push_back(i);
  n.push_back(all);
  return n;
}

TEST(Int8Loops, QuantizeAndQuantDequantMatchQuantizer) {
  // 1e-35: factor x scale is not 127 (InverseScale's guard), so round type
  // 1 keeps its clip in the 16-wide loop.
  for (float scale : {1.7f, 0.37f, 6.f, 1e-35f}) {
    const std::vector<float> x = Inputs(scale);
    for (int round_type : {0, 1}) {
      const Quantizer ref(scale, 127, round_type);
      for (size_t n : Lengths(x.size())) {
        std::vector<int8_t> q(n + 1, 99);
        std::vector<float> y(n + 1, 99.f);
        QuantizeLevels(x.data(), q.data(), n, scale, round_type);
        QuantDequantLevels(x.data(), y.data(), n, scale, round_type);
        for (size_t i = 0; i < n; ++i) {
          ASSERT_EQ(q[i], static_cast<int8_t>(ref.Level(x[i])))
              << "x " << x[i] << " scale " << scale << " round_type " << round_type;
          ASSERT_EQ(Bits(y[i]), Bits(ref.QuantDequant(x[i])))
              << "x " << x[i] << " scale " << scale << " round_type " << round_type;
        }
        EXPECT_EQ(q[n], 99) << "wrote past n = " << n;
        EXPECT_EQ(y[n], 99.f) << "wrote past n = " << n;
      }
    }
  }
}

// A gate per channel over pixels of c channels (c leaving each remainder of
// the 16-wide step): Level(x * g), one float product.
TEST(Int8Loops, GateQuantizeMatchesQuantizerOfTheProduct) {
  for (float scale : {1.7f, 0.37f}) {
    const std::vector<float> x = Inputs(scale);
    for (int round_type : {0, 1}) {
      const Quantizer ref(scale, 127, round_type);
      for (size_t c : {1, 7, 16, 21, 40}) {
        const size_t pixels = x.size() / c;
        std::vector<float> g(c);
        for (size_t i = 0; i < c; ++i) g[i] = i % 5 == 0 ? 1.f : 0.25f + 0.0625f * i;
        std::vector<int8_t> q(pixels * c + 1, 99);
        GateQuantizeLevels(x.data(), g.data(), q.data(), pixels, c, scale, round_type);
        for (size_t i = 0; i < pixels * c; ++i) {
          ASSERT_EQ(q[i], static_cast<int8_t>(ref.Level(x[i] * g[i % c])))
              << "x " << x[i] << " g " << g[i % c] << " c " << c << " round_type " << round_type;
        }
        EXPECT_EQ(q[pixels * c], 99) << "wrote past the end, c = " << c;
      }
    }
  }
}

TEST(Int8Loops, DequantizeMatchesQuantizerOnEveryLevel) {
  std::vector<int8_t> s8;
  std::vector<uint8_t> u8;
  for (int v = -128; v <= 127; ++v) s8.push_back(static_cast<int8_t>(v));
  for (int v = 0; v <= 255; ++v) u8.push_back(static_cast<uint8_t>(v));
  for (float scale : {1.7f, 0.37f, 6.f}) {
    const Quantizer ref(scale, 127, 0);
    for (size_t n : Lengths(s8.size())) {
      std::vector<float> y(n + 1, 99.f), z(n + 1, 99.f);
      DequantizeLevels(s8.data(), y.data(), n, scale);
      DequantizeLevels(u8.data(), z.data(), n, scale);
      for (size_t i = 0; i < n; ++i) {
        ASSERT_EQ(Bits(y[i]), Bits(ref.Dequantize(s8[i]))) << "s8 level " << int{s8[i]};
        ASSERT_EQ(Bits(z[i]), Bits(ref.Dequantize(u8[i]))) << "u8 level " << int{u8[i]};
      }
      EXPECT_EQ(y[n], 99.f);
      EXPECT_EQ(z[n], 99.f);
    }
  }
}

TEST(Int8Loops, RequantizeRoundsToNearestEvenAndClips) {
  const float out_scale = 3.1f, factor = 127.f / out_scale;
  std::vector<float> y = Inputs(out_scale);
  y.push_back(std::numeric_limits<float>::quiet_NaN());
  for (float lo : {-128.f, -127.f}) {
    for (size_t n : Lengths(y.size())) {
      std::vector<int8_t> q(n + 1, 99);
      RequantizeLevels(y.data(), q.data(), n, factor, lo);
      for (size_t i = 0; i < n; ++i) {
        // Nearest even by the quant_math rule; NaN goes to lo.
        const float v = std::isnan(y[i]) ? lo : std::min(127.f, std::max(lo, y[i] * factor));
        ASSERT_EQ(q[i], static_cast<int8_t>(operators::quant::RoundTiesToEven(v)))
            << "y " << y[i] << " lo " << lo;
      }
      EXPECT_EQ(q[n], 99);
    }
  }
}

TEST(Int8Loops, LookupReadsEveryEntryInPlaceToo) {
  std::vector<int8_t> lut(256), x;
  for (int i = 0; i < 256; ++i) lut[i] = static_cast<int8_t>((i * 37 + 11) % 256 - 128);
  for (int r = 0; r < 3; ++r) {
    for (int v = -128; v <= 127; ++v) x.push_back(static_cast<int8_t>(r == 1 ? -v - 1 : v));
  }
  for (size_t n : Lengths(x.size())) {
    std::vector<int8_t> y(n + 1, 99), z(x.begin(), x.begin() + n);
    LookupLevels(x.data(), y.data(), n, lut.data());
    LookupLevels(z.data(), z.data(), n, lut.data());
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ(y[i], lut[x[i] + 128]) << "level " << int{x[i]};
      ASSERT_EQ(z[i], lut[x[i] + 128]) << "in place, level " << int{x[i]};
    }
    EXPECT_EQ(y[n], 99);
  }
}

}  // namespace
}  // namespace lite
