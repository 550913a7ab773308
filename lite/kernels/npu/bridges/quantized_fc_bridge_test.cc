// The int8 form of fc / mul / matmul / matmul_v2 (enable_int8, int8 levels
// in W / Y, Filter_scales per output column, Input_scale) through the fc
// bridge: a quantize and a quantized fully_connected, checked on the
// reference driver (exact int32 sums) and xnnpack against the exact
// arithmetic computed here, and the malformed forms the bridge refuses.
#include <gtest/gtest.h>

#include <cmath>

#include "lite/kernels/npu/bridges/bridge_tester.h"

namespace lite {
namespace npu {
namespace {

const char* const kDrivers[] = {"reference", "xnnpack"};

// Levels in [-127, 127] that vary along both dims of a [K, N] weight.
std::vector<int8_t> Levels(int64_t k, int64_t n) {
  std::vector<int8_t> v(k * n);
  for (int64_t i = 0; i < k * n; ++i) v[i] = static_cast<int8_t>((i * 37 + 11) % 255 - 127);
  return v;
}

// Paddle's round_type 1: clip to +-127 levels, round half away from zero.
float Level(float x, float input_scale) {
  const float q = input_scale / 127.f;
  return std::round(std::min(std::max(x / q, -127.f), 127.f));
}

// alpha * (levels(x) [M,K] * w [K,N] * input_scale / 127 * scales[n] / 127
// + bias[n]), summed exactly.
std::vector<float> Expected(const std::vector<float>& x, int64_t m, int64_t k,
                            const std::vector<int8_t>& w, int64_t n, float input_scale,
                            const std::vector<float>& scales, const std::vector<float>& bias,
                            float alpha = 1.f) {
  std::vector<float> out(m * n);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      int64_t sum = 0;
      for (int64_t c = 0; c < k; ++c) {
        sum += static_cast<int64_t>(Level(x[i * k + c], input_scale)) * w[c * n + j];
      }
      const double v = double(sum) * (input_scale / 127.f) * (scales[j] / 127.f) +
                       (bias.empty() ? 0.0 : bias[j]);
      out[i * n + j] = static_cast<float>(alpha * v);
    }
  }
  return out;
}

BridgeTester& Int8Attrs(BridgeTester& t, float input_scale, const std::vector<float>& scales) {
  return t.Attr("enable_int8", true).Attr("Input_scale", input_scale)
      .Attr("Filter_scales", scales).Attr("quant_round_type", 1);
}

TEST(QuantizedFcBridge, FcMatchesTheExactInt8Arithmetic) {
  // A negative and a zero scale (batch norm folded) take the NN IR form
  // with negated / zeroed levels.
  const std::vector<float> scales = {0.5f, -0.25f, 1.f, 0.f, 0.75f};
  const std::vector<int8_t> w = Levels(12, 5);
  for (const char* d : kDrivers) {
    SCOPED_TRACE(d);
    BridgeTester t("fc");
    t.Driver(d).Input("Input", {2, 3, 4}).Int8Weight("W", {12, 5}, w)
        .Weight("Bias", {5}, "", {0.1f, -0.2f, 0.3f, 0.f, 0.5f}).Output("Out")
        .Attr("in_num_col_dims", 1);
    Int8Attrs(t, 0.8f, scales);
    const auto expected = Expected(t.InputData("Input"), 2, 12, w, 5, 0.8f, scales,
                                   {0.1f, -0.2f, 0.3f, 0.f, 0.5f});
    // The reference sums exactly; xnnpack runs the float simulation of
    // per-channel weights (float sums of the same products).
    t.ExpectMatches(expected, std::string(d) == "reference" ? 1e-6 : 1e-5);
  }
}

TEST(QuantizedFcBridge, MulAndMatmulMatchTheExactInt8Arithmetic) {
  const std::vector<float> scales = {0.5f, 0.25f, 1.f, 2.f};
  const std::vector<int8_t> w = Levels(8, 4);  // [K, N]
  for (const char* d : kDrivers) {
    SCOPED_TRACE(d);
    BridgeTester mul("mul");
    mul.Driver(d).Input("X", {3, 8}).Int8Weight("Y", {8, 4}, w).Output("Out");
    Int8Attrs(mul, 1.5f, scales);
    mul.ExpectMatches(Expected(mul.InputData("X"), 3, 8, w, 4, 1.5f, scales, {}), 1e-5);

    BridgeTester mm("matmul");
    mm.Driver(d).Input("X", {3, 8}).Int8Weight("Y", {8, 4}, w).Output("Out").Attr("alpha", 0.5f);
    Int8Attrs(mm, 1.5f, scales);
    mm.ExpectMatches(Expected(mm.InputData("X"), 3, 8, w, 4, 1.5f, scales, {}, 0.5f), 1e-5);

    // A batched X ([2, 3, 8] -> 6 rows); the op refuses int8 with trans_y.
    BridgeTester v2("matmul_v2");
    v2.Driver(d).Input("X", {2, 3, 8}).Int8Weight("Y", {8, 4}, w).Output("Out");
    Int8Attrs(v2, 1.5f, scales);
    v2.ExpectMatches(Expected(v2.InputData("X"), 6, 8, w, 4, 1.5f, scales, {}), 1e-5);
  }
}

TEST(QuantizedFcBridge, MalformedFormsAreRejectedNamingTheOp) {
  {
    BridgeTester t("fc");  // float W with enable_int8
    t.Input("Input", {2, 6}).Weight("W", {6, 3}).Output("Out");
    Int8Attrs(t, 1.f, {1.f, 1.f, 1.f}).ExpectRejected("int8 form needs a 2-D int8 weight");
  }
  {
    BridgeTester t("mul");  // int8 Y without enable_int8
    t.Input("X", {2, 6}).Int8Weight("Y", {6, 3}, Levels(6, 3)).Output("Out");
    t.ExpectRejected("Y holds int8 without enable_int8");
  }
  {
    BridgeTester t("fc");  // one scale per output column
    t.Input("Input", {2, 6}).Int8Weight("W", {6, 3}, Levels(6, 3)).Output("Out");
    Int8Attrs(t, 1.f, {1.f, 1.f}).ExpectRejected("one Filter_scales value per column");
  }
  {
    BridgeTester t("matmul_v2");
    t.Input("X", {2, 6}).Int8Weight("Y", {6, 3}, Levels(6, 3)).Output("Out");
    Int8Attrs(t, 0.f, {1.f, 1.f, 1.f}).ExpectRejected("int8 form needs Input_scale > 0");
  }
}

}  // namespace
}  // namespace npu
}  // namespace lite
