// What the own x86 int8 kernels' unit tests (depthwise_int8_nhwc_test,
// conv_int8_smalln_test, pointwise_int8_test, nchw_input_int8_test) share:
// the random levels, the activations the epilogue computes, the scalar
// reference of the outputs, and the comparison of an output with it (levels
// equal; floats within 1e-5 of the largest |output|) on 1 and 2 threads.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "lite/backends/x86/int8_epilogue.h"
#include "lite/base/fused_activation.h"

namespace lite {
namespace x86 {
namespace int8_test {

using Act = operators::FusedActivation;

inline uint32_t Next(uint32_t* seed) {
  *seed = *seed * 1103515245u + 12345u;
  return *seed >> 8;
}

// none, relu, relu6, leaky_relu, hard_swish (Paddle's and other
// attributes), hard_sigmoid.
inline std::vector<Act> Activations() {
  std::vector<Act> acts(7);
  acts[1].kind = Act::kRelu;
  acts[2].kind = Act::kRelu6;
  acts[2].alpha = 6.f;
  acts[3].kind = Act::kLeakyRelu;
  acts[3].alpha = 0.1f;
  acts[4].kind = Act::kHardSwish;
  acts[4].alpha = 6.f;
  acts[4].beta = 6.f;
  acts[4].gamma = 3.f;
  acts[5].kind = Act::kHardSigmoid;
  acts[5].alpha = 0.2f;
  acts[5].beta = 0.5f;
  acts[6].kind = Act::kHardSwish;  // not Paddle's defaults: the division
  acts[6].alpha = 5.f;
  acts[6].beta = 7.f;
  acts[6].gamma = 2.5f;
  return acts;
}

// check(in_u8, out, act, bias, round_type) for every input / output form,
// activation and rounding the tests cover (u8 output only after a
// non-negative activation, as int8_requantize_pass sets it; float output
// with round_type 1 only); Out is the kernel's enum (kFloat, kS8, kU8).
// Stops at a fatal failure.
template <typename Out, typename Check>
void ForEachForm(const Check& check) {
  const std::vector<Act> acts = Activations();
  for (bool in_u8 : {false, true}) {
    for (Out out : {Out::kFloat, Out::kS8, Out::kU8}) {
      for (size_t a = 0; a < acts.size(); ++a) {
        const Act::Kind kind = acts[a].kind;
        const bool nonneg = kind == Act::kRelu || kind == Act::kRelu6 || kind == Act::kHardSigmoid;
        if (out == Out::kU8 && !nonneg) continue;
        for (int round_type : {0, 1}) {
          if (out == Out::kFloat && round_type == 0) continue;
          check(in_u8, out, acts[a], (a + round_type) % 2 == 0, round_type);
          if (::testing::Test::HasFatalFailure()) return;
        }
      }
    }
  }
}

// The epilogue of a test case: per-channel output scales of magnitude
// ~`magnitude` (every seventh channel from 3 negative and channel 5 zero:
// a folded batch norm), biases in [-1, 1), Output_scale 2.5; and the scalar
// reference of the kernels' epilogue (fma(sum, scale, bias), the activation,
// then the level: x * factor clipped to the output's range, rounded to
// nearest even).
struct RandomEpilogue {
  std::vector<float> scale, bias;
  float factor = 127.f / 2.5f;
  float lo = -127.f;

  RandomEpilogue(uint32_t* seed, int64_t channels, float magnitude, bool u8_out, int round_type)
      : scale(channels), bias(channels) {
    for (int64_t c = 0; c < channels; ++c) {
      scale[c] = (0.5f + static_cast<float>(Next(seed) % 1000) / 1000.f) * magnitude;
      if (c % 7 == 3) scale[c] = -scale[c];
      if (c == 5) scale[c] = 0.f;
      bias[c] = static_cast<float>(Next(seed) % 2000) / 1000.f - 1.f;
    }
    lo = u8_out ? 0.f : round_type == 0 ? -128.f : -127.f;
  }
  // residual: a conv's ResidualData value, added before the activation.
  float Value(int32_t sum, int64_t c, bool with_bias, const Act& act, float residual = 0.f) const {
    return int8_epilogue::ActivateOne(
        std::fma(static_cast<float>(sum), scale[c], with_bias ? bias[c] : 0.f) + residual, act);
  }
  int Level(float v) const {
    return static_cast<int>(std::nearbyint(std::min(std::max(v * factor, lo), 127.f)));
  }
};

// The scalar reference of a kernel's total outputs: each value, its level
// (RandomEpilogue::Level) and the largest |value| (the float tolerance).
struct Reference {
  std::vector<float> f;
  std::vector<int> q;
  double largest = 1e-30;

  explicit Reference(int64_t total) : f(total), q(total) {}
  void Set(int64_t i, float v, const RandomEpilogue& ep) {
    f[i] = v;
    largest = std::max(largest, static_cast<double>(std::fabs(v)));
    q[i] = ep.Level(v);
  }
};

// out (total floats, or s8 / u8 levels) against the reference; reports at
// most 5 mismatches.
inline void ExpectMatches(const std::vector<char>& out, int64_t total, bool is_float, bool u8,
                          const Reference& ref) {
  int bad = 0;
  for (int64_t i = 0; i < total && bad < 5; ++i) {
    if (is_float) {
      float got;
      std::memcpy(&got, out.data() + 4 * i, 4);
      if (!(std::fabs(got - ref.f[i]) <= 1e-5 * ref.largest)) {
        ADD_FAILURE() << "at " << i << ": " << got << " vs " << ref.f[i];
        ++bad;
      }
    } else {
      const int got = u8 ? static_cast<uint8_t>(out[i]) : static_cast<int8_t>(out[i]);
      if (got != ref.q[i]) {
        ADD_FAILURE() << "at " << i << ": level " << got << " vs " << ref.q[i];
        ++bad;
      }
    }
  }
}

// Runs the kernel, run(out, threads), on 1 and 2 threads into buffers with
// 64 guard bytes each: the two bit-identical, nothing written past the
// output, the output matching the reference (ExpectMatches).
template <typename Run>
void RunAndExpectMatches(const Run& run, int64_t total, bool is_float, bool u8,
                         const Reference& ref) {
  const int64_t bytes = total * (is_float ? 4 : 1);
  std::vector<char> out1(bytes + 64, 0x5a), out2(bytes + 64, 0x3c);
  run(out1.data(), 1);
  run(out2.data(), 2);
  ASSERT_EQ(0, std::memcmp(out1.data(), out2.data(), bytes)) << "1 vs 2 threads";
  for (int64_t i = bytes; i < bytes + 64; ++i) ASSERT_EQ(out1[i], 0x5a) << "wrote past the end";
  ExpectMatches(out1, total, is_float, u8, ref);
}

}  // namespace int8_test
}  // namespace x86
}  // namespace lite
