// PointwiseConv against a GEMM accumulated in double: output channel counts
// around the 16-lane vectors and 64-channel panels, input channel counts from
// 1 to 512, pixel counts that leave every kind of partial tile, strided input
// and output rows (the columns outside the output slice must keep their
// sentinel), with and without bias, every activation (none, relu, relu6,
// hard_swish), and 1 vs 2 threads
// (bit-identical). A residual (rows of its own stride) is added before the
// activation: exactly clamp(conv + residual), checked against the run
// without it.
#include "lite/backends/x86/pointwise_conv.h"
#include "lite/backends/x86/float_kernel_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace lite {
namespace x86 {
namespace {

enum class Act { kNone, kRelu, kRelu6, kHardSwish };

// The kernel's activation for a case: relu6 clips at 0.5; hard_swish with
// Paddle's attributes.
operators::FusedActivation Fused(Act a) {
  operators::FusedActivation f;
  using K = operators::FusedActivation;
  f.kind = a == Act::kRelu ? K::kRelu : a == Act::kRelu6 ? K::kRelu6
           : a == Act::kHardSwish ? K::kHardSwish : K::kNone;
  f.alpha = a == Act::kRelu6 ? 0.5f : 6.f;
  f.beta = 6.f;
  f.gamma = 3.f;
  return f;
}

struct Case {
  int64_t pixels, ic, oc, ldi, ldo;  // ldi / ldo 0: ic / off + oc
  bool bias;
  Act act;
  int64_t off = 0;  // the output slice's first column in rows of ldo
};

constexpr float kSentinel = -7.f;

using float_test::Random;

// Also sets *scale to the largest |output| before the activation (the
// rounding error's scale: relu6 clips the outputs themselves to 0.5).
std::vector<float> Reference(const Case& c, const std::vector<float>& in, int64_t ldi,
                             const std::vector<float>& f, const float* bias, int64_t ldo,
                             double* scale) {
  std::vector<float> out(c.pixels * ldo, kSentinel);
  *scale = 1e-30;
  for (int64_t p = 0; p < c.pixels; ++p)
    for (int64_t o = 0; o < c.oc; ++o) {
      double s = bias ? bias[o] : 0.0;
      for (int64_t i = 0; i < c.ic; ++i) s += double(in[p * ldi + i]) * f[o * c.ic + i];
      *scale = std::max(*scale, std::fabs(s));
      float v = static_cast<float>(s);
      if (c.act == Act::kHardSwish) v = Fused(c.act).Apply(v);
      if (c.act == Act::kRelu || c.act == Act::kRelu6) v = std::max(v, 0.f);
      if (c.act == Act::kRelu6) v = std::min(v, 0.5f);
      out[p * ldo + c.off + o] = v;
    }
  return out;
}

std::vector<float> RunConv(const PointwiseConv& conv, const Case& c, const std::vector<float>& in,
                           int64_t ldi, const float* bias, int64_t ldo, int threads) {
  std::vector<float> out(c.pixels * ldo, kSentinel);
  conv.Run(c.pixels, in.data(), ldi, bias, Fused(c.act), out.data() + c.off, ldo, threads);
  return out;
}

TEST(PointwiseConv, MatchesReferenceGemm) {
  if (!PointwiseConv::Available()) GTEST_SKIP() << "no AVX-512 in this build or CPU";
  std::vector<Case> cases = {
      {169, 512, 1000, 0, 0, true, Act::kRelu},   // squeezenet conv10
      {169, 64, 256, 0, 512, true, Act::kRelu},   // expand1x1 into a concat's first half
      {169, 64, 256, 0, 512, false, Act::kNone},  // (no bias)
      {169, 64, 256, 0, 512, true, Act::kRelu, 256},  // ... into its second half
      {30, 16, 40, 0, 100, true, Act::kRelu6, 37},    // a slice at an odd column
      {7, 3, 65, 5, 80, true, Act::kRelu6},       // 64 + 1: a 16-wide last panel
      {5, 16, 17, 0, 33, false, Act::kRelu},      // 16 + 1
      {1, 1, 1, 0, 0, true, Act::kNone},          // one of everything
      {100, 24, 40, 32, 0, true, Act::kRelu6},    // 40 = 32 + 8: a 48-wide panel
      {75, 96, 24, 100, 40, true, Act::kNone},    // 24: a 32-wide panel
      {300, 64, 16, 0, 0, true, Act::kRelu},      // 24-pixel tiles, several blocks with 2 threads
      {1000, 512, 64, 520, 0, true, Act::kRelu},  // two pixel blocks
      {100, 24, 40, 32, 0, true, Act::kHardSwish},   // hard_swish, tails
      {169, 64, 130, 0, 200, true, Act::kHardSwish, 50},  // three panels into a slice
  };
  // The grid the brief asks for: oc x ic x pixels, strided and not.
  int n = 0;
  for (int64_t oc : {1, 5, 16, 17, 40, 64, 65, 1000})
    for (int64_t ic : {1, 3, 16, 512})
      for (int64_t pixels : {1, 5, 7, 169}) {
        const bool strided = n % 2 == 1;
        cases.push_back({pixels, ic, oc, strided ? ic + 3 : 0, strided ? oc + 9 : 0, n % 3 != 0,
                         static_cast<Act>(n % 4)});
        ++n;
      }
  for (const Case& c : cases) {
    const int64_t ldi = c.ldi ? c.ldi : c.ic, ldo = c.ldo ? c.ldo : c.oc + c.off;
    const std::string what = std::to_string(c.pixels) + " px " + std::to_string(c.ic) + "->" +
                             std::to_string(c.oc) + " ldi " + std::to_string(ldi) + " ldo " +
                             std::to_string(ldo) + " at " + std::to_string(c.off) +
                             (c.bias ? " bias" : "") + " act " +
                             std::to_string(static_cast<int>(c.act));
    const auto in = Random(c.pixels * ldi, 3);
    const auto f = Random(c.oc * c.ic, 5);
    const auto b = Random(c.oc, 7);
    const float* bias = c.bias ? b.data() : nullptr;
    PointwiseConv conv;
    EXPECT_FALSE(conv.has_filter());
    conv.SetFilter(f.data(), c.oc, c.ic);
    EXPECT_TRUE(conv.has_filter());
    double scale;
    const auto want = Reference(c, in, ldi, f, bias, ldo, &scale);
    const auto got = RunConv(conv, c, in, ldi, bias, ldo, 1);
    double worst = 0;
    int64_t sentinel_bad = 0;
    for (int64_t p = 0; p < c.pixels; ++p)
      for (int64_t o = 0; o < ldo; ++o) {
        const size_t i = p * ldo + o;
        if (o < c.off || o >= c.off + c.oc) {
          sentinel_bad += got[i] != kSentinel;
          continue;
        }
        worst = std::max(worst, std::fabs(double(want[i]) - got[i]));
      }
    EXPECT_LT(worst / scale, 1e-5) << what << ": max abs error " << worst << " of " << scale;
    EXPECT_EQ(sentinel_bad, 0) << what << ": columns outside the slice written";
    EXPECT_EQ(RunConv(conv, c, in, ldi, bias, ldo, 2), got) << what << ": 2 threads differ";
  }
}

// The post-activation affine map: exactly v * a + b (two roundings) of the
// run without it.
TEST(PointwiseConv, PostAffineMapFollowsTheActivation) {
  if (!PointwiseConv::Available()) GTEST_SKIP() << "no AVX-512 in this build or CPU";
  for (Act act : {Act::kNone, Act::kRelu6, Act::kHardSwish}) {
    const Case c = {45, 20, 70, 0, 80, true, act, 3};
    const int64_t ldo = c.ldo;
    const auto in = Random(c.pixels * c.ic, 23);
    const auto f = Random(c.oc * c.ic, 25);
    const auto b = Random(c.oc, 27);
    PointwiseConv conv;
    conv.SetFilter(f.data(), c.oc, c.ic);
    std::vector<float> want = RunConv(conv, c, in, c.ic, b.data(), ldo, 1);
    for (int64_t p = 0; p < c.pixels; ++p)
      for (int64_t o = 0; o < c.oc; ++o) {
        float& v = want[p * ldo + c.off + o];
        v = v * -0.7f + 0.3f;
      }
    std::vector<float> got(c.pixels * ldo, kSentinel);
    conv.Run(c.pixels, in.data(), c.ic, b.data(), Fused(act), got.data() + c.off, ldo, 2, nullptr,
             0, -0.7f, 0.3f);
    EXPECT_EQ(got, want) << "act " << static_cast<int>(act);
  }
}

TEST(PointwiseConv, ResidualIsAddedBeforeTheActivation) {
  if (!PointwiseConv::Available()) GTEST_SKIP() << "no AVX-512 in this build or CPU";
  const std::vector<Case> cases = {
      {100, 24, 40, 0, 0, true, Act::kRelu6},    // a 48-wide panel, tails
      {37, 16, 16, 0, 0, false, Act::kNone},     // MobileNetV3's projection
      {169, 64, 130, 0, 200, true, Act::kRelu, 50},  // three panels into a slice
      {7, 3, 5, 0, 0, true, Act::kRelu},         // one short vector
      {37, 16, 40, 0, 0, true, Act::kHardSwish},
  };
  for (const Case& c : cases) {
    const int64_t ldi = c.ldi ? c.ldi : c.ic, ldo = c.ldo ? c.ldo : c.oc + c.off;
    const std::string what = std::to_string(c.pixels) + " px " + std::to_string(c.ic) + "->" +
                             std::to_string(c.oc) + " ldo " + std::to_string(ldo);
    const auto in = Random(c.pixels * ldi, 13);
    const auto f = Random(c.oc * c.ic, 15);
    const auto b = Random(c.oc, 17);
    const auto res = Random(c.pixels * c.oc, 19);  // dense rows: ldr = oc
    const float* bias = c.bias ? b.data() : nullptr;
    PointwiseConv conv;
    conv.SetFilter(f.data(), c.oc, c.ic);
    Case plain = c;
    plain.act = Act::kNone;
    std::vector<float> want = RunConv(conv, plain, in, ldi, bias, ldo, 1);
    for (int64_t p = 0; p < c.pixels; ++p)
      for (int64_t o = 0; o < c.oc; ++o) {
        float& v = want[p * ldo + c.off + o];
        v += res[p * c.oc + o];
        if (c.act == Act::kHardSwish) v = Fused(c.act).Apply(v);
        if (c.act == Act::kRelu || c.act == Act::kRelu6) v = std::max(v, 0.f);
        if (c.act == Act::kRelu6) v = std::min(v, 0.5f);
      }
    for (int threads : {1, 2}) {
      std::vector<float> got(c.pixels * ldo, kSentinel);
      conv.Run(c.pixels, in.data(), ldi, bias, Fused(c.act), got.data() + c.off, ldo, threads,
               res.data(), c.oc);
      EXPECT_EQ(got, want) << what << ", " << threads << " thread(s)";
    }
  }
}

}  // namespace
}  // namespace x86
}  // namespace lite
