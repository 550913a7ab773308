// The quantization ops against Paddle's fake-quantization rules: rounding of
// exact halves (away from zero without round_type / round_type 1, to even
// with round_type 0), clipping to [-s, s], the zero-scale guard, per-channel
// scales along quant_axis 0 (conv weights) and 1 (conv2d_transpose and
// mul/matmul weights), and malformed attributes rejected naming the op.
// The frozen form's ops (levels-out quantize ops, the abs-max ops, the two
// dequantize ops with max_range / one or two scale lists, the observer) are
// pinned against Paddle's formulas (fake_quantize_op.cc,
// fake_dequantize_op.cc) in the second half.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "lite/core/op_tester.h"
#include "lite/base/quant_math.h"

namespace lite {
namespace {

constexpr char kActQdq[] = "fake_quantize_dequantize_moving_average_abs_max";
constexpr char kChannelQdq[] = "fake_channel_wise_quantize_dequantize_abs_max";

// s = 127 makes bin_cnt / s exactly 1 in float32: levels are round(x).
const std::vector<float> kHalves = {2.5f, -2.5f, 3.5f, -3.5f, 0.5f, -0.5f, 1.49f, 200.f, -200.f};

std::vector<float> RunActQdq(const std::vector<float>& x, float scale, int round_type) {
  OpTester t(kActQdq);
  t.SetInput<float>("X", "x", {static_cast<int64_t>(x.size())}, x);
  t.SetInput<float>("InScale", "s", {1}, {scale});
  t.SetOutput("Out", "out");
  t.SetOutput("OutScale", "s");
  t.SetAttr("bit_length", 8);
  if (round_type >= 0) t.SetAttr("round_type", round_type);
  Status s = t.Run();
  EXPECT_TRUE(s.ok()) << s.ToString();
  return s.ok() ? t.GetData<float>("out") : std::vector<float>();
}

TEST(FakeQuantDequant, WithoutRoundTypeHalvesGoAwayFromZeroAndClipToScale) {
  EXPECT_EQ(RunActQdq(kHalves, 127.f, -1),
            (std::vector<float>{3, -3, 4, -4, 1, -1, 1, 127, -127}));
  EXPECT_EQ(RunActQdq(kHalves, 127.f, 1), RunActQdq(kHalves, 127.f, -1));
}

TEST(FakeQuantDequant, RoundTypeZeroHalvesGoToEvenAndLevelsReachMinus128) {
  EXPECT_EQ(RunActQdq(kHalves, 127.f, 0),
            (std::vector<float>{2, -2, 4, -4, 0, -0.f, 1, 127, -128}));
}

TEST(FakeQuantDequant, DequantizedValueIsLevelTimesScaleOverBinCount) {
  const float s = 5.827937126159668f;  // an InScale of the slim classifier
  const std::vector<float> x = {0.1f, -1.f, 2.2f, 5.9f, -7.f};
  const std::vector<float> out = RunActQdq(x, s, -1);
  ASSERT_EQ(out.size(), x.size());
  const float factor = 127.f * (1.f / s);
  for (size_t i = 0; i < x.size(); ++i) {
    const float level = std::round(factor * std::min(std::max(x[i], -s), s));
    EXPECT_EQ(out[i], level * s / 127.f) << i;
    EXPECT_LE(std::abs(out[i] - std::min(std::max(x[i], -s), s)), s / 127.f) << i;
  }
}

// Channel-wise op on a [2, 3, 2] weight: OutScale holds max |w| per index of
// quant_axis, and each element is quant-dequantized with its channel's scale.
struct ChannelRun {
  std::vector<float> out;
  std::vector<float> scales;
};

ChannelRun RunChannelQdq(const DDim& dims, const std::vector<float>& w, int axis) {
  OpTester t(kChannelQdq);
  t.SetInput<float>("X", "w", dims, w);
  t.SetOutput("Out", "out");
  t.SetOutput("OutScale", "scales");
  t.SetAttr("bit_length", 8);
  t.SetAttr("quant_axis", axis);
  Status s = t.Run();
  EXPECT_TRUE(s.ok()) << s.ToString();
  if (!s.ok()) return {};
  return {t.GetData<float>("out"), t.GetData<float>("scales")};
}

// The reference in double: level = round(x * 127 / s), value = level * s / 127.
void ExpectChannelQdq(const DDim& dims, const std::vector<float>& w, int axis,
                      const std::vector<float>& want_scales) {
  const ChannelRun r = RunChannelQdq(dims, w, axis);
  ASSERT_EQ(r.scales, want_scales);
  int64_t inner = 1;
  for (size_t d = axis + 1; d < dims.size(); ++d) inner *= dims[d];
  for (size_t i = 0; i < w.size(); ++i) {
    const double s = want_scales[(i / inner) % dims[axis]];
    const double want = std::round(w[i] * 127.0 / s) * s / 127.0;
    EXPECT_NEAR(r.out[i], want, 1e-6 * s) << "axis " << axis << " element " << i;
  }
}

const DDim kW = {2, 3, 2};
const std::vector<float> kWv = {0.3f, -1.2f, 0.05f, 0.7f, -0.2f, 0.9f,
                                2.f,  -0.4f, 0.33f, 6.f,  -0.8f, 0.1f};

TEST(ChannelWiseQuantDequant, ConvWeightsUseAxisZero) {
  ExpectChannelQdq(kW, kWv, 0, {1.2f, 6.f});
}

TEST(ChannelWiseQuantDequant, TransposedConvAndMatmulWeightsUseAxisOne) {
  ExpectChannelQdq(kW, kWv, 1, {2.f, 6.f, 0.9f});
  ExpectChannelQdq({3, 2}, {1.f, -8.f, 0.5f, 2.f, -3.f, 0.25f}, 1, {3.f, 8.f});
}

TEST(ChannelWiseQuantDequant, AllZeroChannelIsGuardedNotNan) {
  const ChannelRun r = RunChannelQdq({2, 2}, {0.f, 0.f, 1.f, -0.5f}, 0);
  EXPECT_EQ(r.scales, (std::vector<float>{0.f, 1.f}));
  EXPECT_EQ(r.out[0], 0.f);
  EXPECT_EQ(r.out[1], 0.f);
  EXPECT_FLOAT_EQ(r.out[3], std::round(-0.5f * 127.f) / 127.f);
}

TEST(QuantMath, RoundHalfAwayFromZeroIsStdRound) {
  namespace quant = operators::quant;
  std::vector<float> values = RandomFloats(20000, 3, -300.f, 300.f);
  for (int k = -300; k <= 300; ++k) {
    const float half = k + 0.5f;
    for (float v : {half, std::nextafter(half, 1e9f), std::nextafter(half, -1e9f)}) {
      values.push_back(v);
    }
  }
  values.push_back(0.49999997f);
  values.push_back(-0.49999997f);
  values.push_back(8388609.f);
  for (float v : values) {
    EXPECT_EQ(quant::RoundHalfAwayFromZero(v), std::round(v)) << v;
    EXPECT_EQ(quant::RoundTiesToEven(v), std::nearbyint(v)) << v;
  }
}

// Subnormal inputs are zeroed before the multiply (speed); the level is what
// the plain formula gives for every scale, the guarded tiny ones included.
TEST(QuantMath, SubnormalInputsHaveLevelZero) {
  namespace quant = operators::quant;
  for (float s : {1e-35f, 1e-30f, 2e-30f, 1e-10f, 1.f, 40599.f}) {
    for (int round_type : {0, 1}) {
      const quant::Quantizer q(s, 127, round_type);
      const float factor = 127.f * quant::InverseScale(s);
      for (float x : {1e-40f, -1e-40f, 1.1e-38f, -1.1e-38f}) {
        const float plain = std::round(factor * std::min(std::max(x, -s), s));
        EXPECT_EQ(q.Level(x), plain) << s << " " << x;
        EXPECT_EQ(q.Level(x), 0.f);
      }
    }
  }
}

// The vector paths (AVX-512 builds): the int8 kernels' input levels and the
// per-tensor quant-dequant equal Quantizer's for every value: halves,
// clipping, subnormals.
TEST(QuantMath, VectorPathsMatchQuantizer) {
  namespace quant = operators::quant;
  std::vector<float> x = RandomFloats(1000, 9, -8.f, 8.f);
  for (int k = -130; k <= 130; ++k) {
    // Near-halves of the levels under s = 4: the value and its neighbours.
    const float h = (k + 0.5f) * 4.f / 127.f;
    x.push_back(h);
    x.push_back(std::nextafter(h, 1e9f));
    x.push_back(std::nextafter(h, -1e9f));
  }
  x.push_back(1e-40f);
  x.push_back(-1e-40f);
  x.push_back(0.f);
  for (float s : {4.f, 5.827937126159668f, 1e-31f}) {
    for (int round_type : {0, 1}) {
      std::vector<int8_t> q(x.size());
      quant::QuantizeToInt8(x.data(), q.data(), static_cast<int64_t>(x.size()), s, 127,
                            round_type);
      std::vector<float> y(x.size());
      quant::QuantDequantFloat(x.data(), y.data(), static_cast<int64_t>(x.size()), s, 127,
                               round_type);
      const quant::Quantizer ref(s, 127, round_type);
      for (size_t i = 0; i < x.size(); ++i) {
        EXPECT_EQ(q[i], static_cast<int8_t>(ref.Level(x[i])))
            << "x " << x[i] << " s " << s << " round_type " << round_type;
        EXPECT_EQ(y[i], ref.QuantDequant(x[i])) << "x " << x[i] << " s " << s;
      }
    }
  }
}

#ifdef __AVX512F__
// Quantizer16's half-away rounding (c + copysign(0.49999997, c), truncated)
// against RoundHalfAwayFromZero for every float of magnitude up to 128, the
// range c takes (|c| <= 127 after the clip), both signs.
TEST(QuantMath, Quantizer16HalfAwayMatchesForEveryFloatUpTo128) {
  namespace quant = operators::quant;
  constexpr uint32_t kEnd = 0x43000000u + 1;  // 128.0f included
  constexpr int kBlock = 4096;
  alignas(64) float c[kBlock];
  alignas(64) int32_t got[kBlock];
  int64_t mismatches = 0;
  for (uint32_t sign : {0u, 0x80000000u}) {
    for (uint32_t b = 0; b < kEnd; b += kBlock) {
      const int n = static_cast<int>(std::min<uint32_t>(kBlock, kEnd - b));
      for (int j = 0; j < kBlock; ++j) {
        const uint32_t bits = (j < n ? b + j : 0u) | sign;
        std::memcpy(&c[j], &bits, 4);
      }
      for (int j = 0; j < kBlock; j += 16) {
        const __m512 h = quant::Quantizer16::HalfAway(_mm512_load_ps(c + j));
        _mm512_store_si512(got + j, _mm512_cvtt_roundps_epi32(h, _MM_FROUND_NO_EXC));
      }
      for (int j = 0; j < n; ++j) {
        if (static_cast<float>(got[j]) != quant::RoundHalfAwayFromZero(c[j]) && ++mismatches < 5) {
          ADD_FAILURE() << "c " << c[j] << " gives " << got[j];
        }
      }
    }
  }
  EXPECT_EQ(mismatches, 0);
}
#endif

// ---- quantize_linear / dequantize_linear ----

std::vector<float> RunLinear(const char* type, const DDim& dims, const std::vector<float>& x,
                             const DDim& scale_dims, const std::vector<float>& scales, int axis,
                             int round_type) {
  OpTester t(type);
  t.SetInput<float>("X", "x", dims, x);
  t.SetInput<float>("Scale", "s", scale_dims, scales);
  t.SetInput<int32_t>("ZeroPoint", "zp", scale_dims, std::vector<int32_t>(scales.size(), 0));
  t.SetOutput("Y", "y");
  t.SetAttr("quant_axis", axis);
  t.SetAttr("bit_length", 8);
  if (round_type >= 0) t.SetAttr("round_type", round_type);
  Status s = t.Run();
  EXPECT_TRUE(s.ok()) << s.ToString();
  return s.ok() ? t.GetData<float>("y") : std::vector<float>();
}

TEST(QuantizeLinear, DefaultsToTiesToEvenWithoutClippingX) {
  const DDim d = {static_cast<int64_t>(kHalves.size())};
  EXPECT_EQ(RunLinear("quantize_linear", d, kHalves, {1}, {127.f}, -1, -1),
            (std::vector<float>{2, -2, 4, -4, 0, -0.f, 1, 127, -128}));
  EXPECT_EQ(RunLinear("quantize_linear", d, kHalves, {1}, {127.f}, -1, 1),
            (std::vector<float>{3, -3, 4, -4, 1, -1, 1, 127, -127}));
}

TEST(QuantizeLinear, PerChannelAlongAxisOneThenDequantize) {
  // [2, 2] with scales per column: 127 and 12.7.
  const std::vector<float> x = {10.f, 1.f, -20.f, -2.55f};
  const std::vector<float> levels =
      RunLinear("quantize_linear", {2, 2}, x, {2}, {127.f, 12.7f}, 1, 0);
  const float f1 = 127.f * (1.f / 12.7f);
  EXPECT_EQ(levels, (std::vector<float>{10.f, std::nearbyint(f1 * 1.f), -20.f,
                                        std::nearbyint(f1 * -2.55f)}));
  const std::vector<float> back =
      RunLinear("dequantize_linear", {2, 2}, levels, {2}, {127.f, 12.7f}, 1, -1);
  for (size_t i = 0; i < x.size(); ++i) {
    const float s = i % 2 ? 12.7f : 127.f;
    EXPECT_EQ(back[i], levels[i] * s / 127.f) << i;
  }
}

// ---- malformed ops ----

Status AttachActQdq(float scale, int bit_length, bool with_scale = true) {
  OpTester t(kActQdq);
  t.SetInput<float>("X", "x", {2}, {1.f, 2.f});
  if (with_scale) t.SetInput<float>("InScale", "act.scale", {1}, {scale});
  t.SetOutput("Out", "out");
  t.SetAttr("bit_length", bit_length);
  return t.Run();
}

void ExpectNamesOp(const Status& s, const std::string& text) {
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("fake_quantize_dequantize_moving_average_abs_max (output: out)"),
            std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find(text), std::string::npos) << s.message();
}

TEST(QuantOpErrors, ScaleMissingZeroOrNegativeAndBitLength) {
  ExpectNamesOp(AttachActQdq(1.f, 8, false), "InScale");
  ExpectNamesOp(AttachActQdq(0.f, 8), "act.scale");
  ExpectNamesOp(AttachActQdq(-2.f, 8), "must be finite and > 0");
  ExpectNamesOp(AttachActQdq(1.f, 16), "bit_length 16");
  EXPECT_TRUE(AttachActQdq(1.f, 8).ok());
}

TEST(QuantOpErrors, QuantAxisOutOfRange) {
  OpTester t(kChannelQdq);
  t.SetInput<float>("X", "w", {2, 2}, {1.f, 2.f, 3.f, 4.f});
  t.SetOutput("Out", "out");
  t.SetAttr("quant_axis", 2);
  Status s = t.Run();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find(std::string(kChannelQdq) + " (output: out)"), std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("quant_axis"), std::string::npos) << s.message();

  OpTester u("dequantize_linear");
  u.SetInput<float>("X", "x", {2, 2}, {1.f, 2.f, 3.f, 4.f});
  u.SetInput<float>("Scale", "s", {2}, {1.f, 1.f});
  u.SetOutput("Y", "y");
  u.SetAttr("quant_axis", 3);
  s = u.Run();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("dequantize_linear (output: y)"), std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("quant_axis 3"), std::string::npos) << s.message();
}

TEST(QuantOpErrors, NonZeroZeroPointIsRejected) {
  OpTester t("quantize_linear");
  t.SetInput<float>("X", "x", {2}, {1.f, 2.f});
  t.SetInput<float>("Scale", "s", {1}, {1.f});
  t.SetInput<int32_t>("ZeroPoint", "zp", {1}, {3});
  t.SetOutput("Y", "y");
  Status s = t.Run();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("ZeroPoint"), std::string::npos) << s.message();
}


// ---- the frozen form: levels-out quantize ops, abs-max ops, dequantize ----

struct FakeRun {
  std::vector<float> out;
  std::vector<float> out_scale;
};

// Runs fake quantize op `type` on x (dims {n} unless given); InScale `scale`
// when > 0 (the InScale ops), OutScale fetched when `with_out_scale`.
FakeRun RunFake(const char* type, const std::vector<float>& x, float scale, int round_type,
                DDim dims = {}, int axis = -1) {
  OpTester t(type);
  if (dims.empty()) dims = {static_cast<int64_t>(x.size())};
  t.SetInput<float>("X", "x", dims, x);
  if (scale > 0.f) t.SetInput<float>("InScale", "s", {1}, {scale});
  t.SetOutput("Out", "out");
  t.SetOutput("OutScale", scale > 0.f ? "s" : "out_scale");
  t.SetAttr("bit_length", 8);
  t.SetAttr("is_test", true);
  if (axis >= 0) t.SetAttr("quant_axis", axis);
  if (round_type >= 0) t.SetAttr("round_type", round_type);
  Status st = t.Run();
  EXPECT_TRUE(st.ok()) << type << ": " << st.ToString();
  if (!st.ok()) return {};
  FakeRun r{t.GetData<float>("out"), {}};
  if (scale <= 0.f) r.out_scale = t.GetData<float>("out_scale");
  return r;
}

constexpr const char* kLevelOps[] = {"fake_quantize_moving_average_abs_max",
                                     "fake_quantize_range_abs_max"};

TEST(FrozenQuant, InScaleOpsWriteLevelsHalvesAwayFromZeroClipped) {
  for (const char* type : kLevelOps) {
    SCOPED_TRACE(type);
    EXPECT_EQ(RunFake(type, kHalves, 127.f, -1).out,
              (std::vector<float>{3, -3, 4, -4, 1, -1, 1, 127, -127}));
    EXPECT_EQ(RunFake(type, kHalves, 127.f, 0).out,
              (std::vector<float>{2, -2, 4, -4, 0, -0.f, 1, 127, -128}));
    // A real scale: level = round(127 * (1 / s) * clip(x, -s, s)), not dequantized.
    const float s = 5.827937126159668f;
    const std::vector<float> x = {0.1f, -1.f, 2.2f, 5.9f, -7.f, 0.0229f};
    const std::vector<float> out = RunFake(type, x, s, -1).out;
    ASSERT_EQ(out.size(), x.size());
    for (size_t i = 0; i < x.size(); ++i) {
      EXPECT_EQ(out[i], std::round(127.f * (1.f / s) * std::min(std::max(x[i], -s), s))) << i;
    }
    EXPECT_EQ(out[3], 127.f);
    EXPECT_EQ(out[4], -127.f);
  }
}

TEST(FrozenQuant, RangeAbsMaxIgnoresIterAndWindowInItsInferenceForm) {
  OpTester t("fake_quantize_range_abs_max");
  t.SetInput<float>("X", "x", {3}, {0.5f, -3.f, 1.f});
  t.SetInput<float>("InScale", "s", {1}, {2.f});
  t.SetInput<int64_t>("Iter", "iter", {1}, {5});
  t.SetOutput("Out", "out");
  t.SetOutput("OutScale", "s");
  t.SetAttr("window_size", 3);
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.GetData<float>("out"), (std::vector<float>{32.f, -127.f, 64.f}));  // 31.75 -> 32
  EXPECT_EQ(t.GetData<float>("s"), std::vector<float>{2.f});  // the scale is not updated
}

TEST(FrozenQuant, AbsMaxOpsTakeTheScaleFromXAndWriteIt) {
  const std::vector<float> x = {0.5f, -4.f, 1.f, 2.f};  // max |x| 4: factor 31.75
  const FakeRun q = RunFake("fake_quantize_abs_max", x, 0.f, -1);
  EXPECT_EQ(q.out_scale, std::vector<float>{4.f});
  EXPECT_EQ(q.out, (std::vector<float>{16.f, -127.f, 32.f, 64.f}));  // 15.875, 31.75, 63.5
  const FakeRun qd = RunFake("fake_quantize_dequantize_abs_max", x, 0.f, -1);
  EXPECT_EQ(qd.out_scale, std::vector<float>{4.f});
  for (size_t i = 0; i < x.size(); ++i) EXPECT_EQ(qd.out[i], q.out[i] * 4.f / 127.f) << i;
  // round_type 0: ties to even (63.5 -> 64, 31.75 -> 32, 15.875 -> 16).
  EXPECT_EQ(RunFake("fake_quantize_abs_max", {0.5f, -4.f, 2.f}, 0.f, 0).out,
            (std::vector<float>{16.f, -127.f, 64.f}));
  // All zeros: scale 0, the guard gives levels 0 (not NaN).
  const FakeRun zero = RunFake("fake_quantize_abs_max", {0.f, 0.f}, 0.f, -1);
  EXPECT_EQ(zero.out_scale, std::vector<float>{0.f});
  EXPECT_EQ(zero.out, (std::vector<float>{0.f, 0.f}));
}

TEST(FrozenQuant, ChannelWiseQuantizeWritesLevelsPerAxis) {
  for (int axis : {0, 1}) {
    SCOPED_TRACE(axis);
    const FakeRun r = RunFake("fake_channel_wise_quantize_abs_max", kWv, 0.f, -1, kW, axis);
    const std::vector<float> scales = axis == 0 ? std::vector<float>{1.2f, 6.f}
                                                : std::vector<float>{2.f, 6.f, 0.9f};
    ASSERT_EQ(r.out_scale, scales);
    const int64_t inner = axis == 0 ? 6 : 2;
    for (size_t i = 0; i < kWv.size(); ++i) {
      const float s = scales[(i / inner) % kW[axis]];
      EXPECT_EQ(r.out[i], std::round(127.f * (1.f / s) * kWv[i])) << i;
    }
  }
}

// fake_dequantize_max_abs: Out = (X * Scale) / max_range, max_range as the
// freeze pass writes it: (2^7 - 1) * (2^7 - 1) / weight_scale.
TEST(FrozenDequant, MaxAbsIsXTimesScaleOverMaxRange) {
  const float w_scale = 0.37f;
  const float max_range = 127.f * 127.f / w_scale;
  const std::vector<float> x = {16129.f, -300.f, 7.f, 0.f};
  OpTester t("fake_dequantize_max_abs");
  t.SetInput<float>("X", "x", {2, 2}, x);
  t.SetInput<float>("Scale", "act.scale", {1}, {2.5f});
  t.SetOutput("Out", "out");
  t.SetAttr("max_range", max_range);
  ASSERT_TRUE(t.Run().ok());
  const std::vector<float> out = t.GetData<float>("out");
  for (size_t i = 0; i < x.size(); ++i) EXPECT_EQ(out[i], x[i] * 2.5f / max_range) << i;
  EXPECT_NEAR(out[0], 2.5f * w_scale, 1e-6f);  // 127 * 127 levels: both scales
}

std::vector<float> RunChannelDequant(const DDim& dims, const std::vector<float>& x,
                                     const std::vector<float>& w_scales, float act_scale,
                                     int axis, int x_num_col_dims) {
  OpTester t("fake_channel_wise_dequantize_max_abs");
  t.SetInput<float>("X", "x", dims, x);
  t.SetInput<float>("Scales", "w.scales", {static_cast<int64_t>(w_scales.size())}, w_scales);
  if (act_scale > 0.f) t.SetInput<float>("Scales", "act.scale", {1}, {act_scale});
  t.SetOutput("Out", "out");
  t.SetAttr("quant_bits", act_scale > 0.f ? std::vector<int32_t>{8, 8} : std::vector<int32_t>{8});
  t.SetAttr("quant_axis", axis);
  if (x_num_col_dims > 0) t.SetAttr("x_num_col_dims", x_num_col_dims);
  Status st = t.Run();
  EXPECT_TRUE(st.ok()) << st.ToString();
  return st.ok() ? t.GetData<float>("out") : std::vector<float>();
}

TEST(FrozenDequant, ChannelWiseOneListAlongQuantAxis) {
  // [2, 3, 2]: axis 0 scales per outer index, axis 1 per middle index.
  const std::vector<float> x = {1, -2, 3, 4, -5, 6, 7, 8, -9, 10, 11, -127};
  const std::vector<float> a0 = RunChannelDequant(kW, x, {0.5f, 2.f}, 0.f, 0, -1);
  const std::vector<float> a1 = RunChannelDequant(kW, x, {0.5f, 2.f, 3.f}, 0.f, 1, -1);
  ASSERT_EQ(a0.size(), x.size());
  ASSERT_EQ(a1.size(), x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const float s0 = i < 6 ? 0.5f : 2.f;
    const float s1 = std::vector<float>{0.5f, 2.f, 3.f}[(i / 2) % 3];
    EXPECT_EQ(a0[i], x[i] * s0 / 127.f) << i;
    EXPECT_EQ(a1[i], x[i] * s1 / 127.f) << i;
  }
}

TEST(FrozenDequant, ChannelWiseTwoListsUseDimOneOrXNumColDims) {
  // A conv output [1, 2, 1, 3] (channels on dim 1, quant_axis ignored) ...
  const std::vector<float> x = {100, -50, 7, 16129, 2, -3};
  const std::vector<float> conv = RunChannelDequant({1, 2, 1, 3}, x, {0.4f, 0.8f}, 3.f, 0, -1);
  ASSERT_EQ(conv.size(), x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const float s = i < 3 ? 0.4f : 0.8f;
    EXPECT_EQ(conv[i], x[i] * s * 3.f / 16129.f) << i;
  }
  EXPECT_NEAR(conv[3], 0.8f * 3.f, 1e-6f);
  // ... and a matmul output [2, 1, 3] with x_num_col_dims 2: per last dim.
  const std::vector<float> mm = RunChannelDequant({2, 1, 3}, x, {0.1f, 0.2f, 0.3f}, 3.f, 1, 2);
  ASSERT_EQ(mm.size(), x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_EQ(mm[i], x[i] * (0.1f * (i % 3 + 1)) * 3.f / 16129.f) << i;
  }
}

TEST(ScaleObserver, OutIsACopyOfXAndOutIsOptional) {
  const std::vector<float> x = {0.25f, -7.f, 3.5f};
  OpTester t("moving_average_abs_max_scale");
  t.SetInput<float>("X", "x", {3}, x);
  t.SetInput<float>("InAccum", "accum", {1}, {1.f});
  t.SetInput<float>("InState", "state", {1}, {1.f});
  t.SetOutput("Out", "out");
  t.SetOutput("OutScale", "x.scale");
  t.SetAttr("is_test", true);
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.GetData<float>("out"), x);
  OpTester u("moving_average_abs_max_scale");
  u.SetInput<float>("X", "x", {3}, x);
  u.SetOutput("OutScale", "x.scale");
  EXPECT_TRUE(u.Run().ok());
}

// ---- malformed frozen-form ops ----

void ExpectError(OpTester* t, const std::string& op, const std::string& text) {
  Status s = t->Run();
  EXPECT_FALSE(s.ok()) << op;
  EXPECT_NE(s.message().find(op), std::string::npos) << s.message();
  EXPECT_NE(s.message().find(text), std::string::npos) << s.message();
}

TEST(FrozenOpErrors, LevelOpsNameTheOp) {
  for (const char* type : kLevelOps) {
    const std::string name = std::string(type) + " (output: out)";
    {
      OpTester t(type);
      t.SetInput<float>("X", "x", {2}, {1.f, 2.f});
      t.SetOutput("Out", "out");
      ExpectError(&t, name, "InScale");
    }
    for (float bad : {0.f, -1.f, std::nanf("")}) {
      OpTester t(type);
      t.SetInput<float>("X", "x", {2}, {1.f, 2.f});
      t.SetInput<float>("InScale", "in.scale", {1}, {bad});
      t.SetOutput("Out", "out");
      ExpectError(&t, name, "must be finite and > 0");
    }
    OpTester t(type);
    t.SetInput<float>("X", "x", {2}, {1.f, 2.f});
    t.SetInput<float>("InScale", "in.scale", {1}, {1.f});
    t.SetOutput("Out", "out");
    t.SetAttr("bit_length", 4);
    ExpectError(&t, name, "bit_length 4");
  }
  OpTester c("fake_channel_wise_quantize_abs_max");
  c.SetInput<float>("X", "x", {2, 2}, {1.f, 2.f, 3.f, 4.f});
  c.SetOutput("Out", "out");
  c.SetAttr("quant_axis", 2);
  ExpectError(&c, "fake_channel_wise_quantize_abs_max (output: out)", "quant_axis");
}

TEST(FrozenOpErrors, DequantOpsNameTheOp) {
  const std::string dq = "fake_dequantize_max_abs (output: out)";
  auto max_abs = [](float max_range, float scale, bool with_range = true) {
    auto t = std::make_unique<OpTester>("fake_dequantize_max_abs");
    t->SetInput<float>("X", "x", {2}, {1.f, 2.f});
    t->SetInput<float>("Scale", "act.scale", {1}, {scale});
    t->SetOutput("Out", "out");
    if (with_range) t->SetAttr("max_range", max_range);
    return t;
  };
  ExpectError(max_abs(0.f, 1.f).get(), dq, "max_range 0");
  ExpectError(max_abs(-5.f, 1.f).get(), dq, "must be finite and > 0");
  ExpectError(max_abs(100.f, 1.f, false).get(), dq, "max_range");
  ExpectError(max_abs(100.f, 0.f).get(), dq, "act.scale");
  {
    OpTester t("fake_dequantize_max_abs");
    t.SetInput<float>("X", "x", {2}, {1.f, 2.f});
    t.desc()->SetInput("Scale", {"no_such_scale"});
    t.SetOutput("Out", "out");
    t.SetAttr("max_range", 100.f);
    ExpectError(&t, dq, "no_such_scale");
  }
  const std::string cw = "fake_channel_wise_dequantize_max_abs (output: out)";
  auto channel = [](std::vector<int32_t> bits, int axis, float w0) {
    auto t = std::make_unique<OpTester>("fake_channel_wise_dequantize_max_abs");
    t->SetInput<float>("X", "x", {2, 2}, {1.f, 2.f, 3.f, 4.f});
    t->SetInput<float>("Scales", "w.scales", {2}, {w0, 1.f});
    t->SetInput<float>("Scales", "act.scale", {1}, {1.f});
    t->SetOutput("Out", "out");
    t->SetAttr("quant_bits", bits);
    t->SetAttr("quant_axis", axis);
    return t;
  };
  ExpectError(channel({8, 4}, 1, 1.f).get(), cw, "quant_bits 4");
  ExpectError(channel({8}, 1, 1.f).get(), cw, "quant_bits has 1 entries for 2");
  ExpectError(channel({8, 8}, 2, 1.f).get(), cw, "quant_axis");
  ExpectError(channel({8, 8}, 1, -1.f).get(), cw, "w.scales");
  EXPECT_TRUE(channel({8, 8}, 1, 1.f)->Run().ok());
  {
    OpTester t("fake_channel_wise_dequantize_max_abs");  // 3 scales for 2 channels
    t.SetInput<float>("X", "x", {2, 2}, {1.f, 2.f, 3.f, 4.f});
    t.SetInput<float>("Scales", "w.scales", {3}, {1.f, 1.f, 1.f});
    t.SetOutput("Out", "out");
    t.SetAttr("quant_axis", 1);
    ExpectError(&t, cw, "Scales[0] holds 3 values");
  }
}

}  // namespace
}  // namespace lite
