// NarrowDeconv against a non-overlapping conv2d_transpose accumulated in
// double: input channel counts around the 16-channel chunks, row widths that
// leave partial 16-pixel blocks, every output width per kernel row (1, 2 and
// the transposed store), kernels 1x1 to 4x4 and non-square, batch 2, with
// and without bias, and 1 vs 2 threads (bit-identical). The output is filled
// with a sentinel first: every value must be written.
#include "lite/backends/x86/narrow_deconv.h"
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
  int64_t n, h, w, c_in, c_out;
  int kh, kw;
  bool bias;
};

using float_test::Random;

// out[n, y * kh + i, x * kw + j, o] = bias[o] + sum_c in[n, y, x, c] * f[c, o, i, j].
std::vector<double> Reference(const Case& k, const std::vector<float>& in,
                              const std::vector<float>& f, const float* bias) {
  const int64_t oh = k.h * k.kh, ow = k.w * k.kw;
  std::vector<double> out(k.n * oh * ow * k.c_out);
  for (int64_t b = 0; b < k.n; ++b)
    for (int64_t y = 0; y < k.h; ++y)
      for (int64_t x = 0; x < k.w; ++x)
        for (int i = 0; i < k.kh; ++i)
          for (int j = 0; j < k.kw; ++j)
            for (int64_t o = 0; o < k.c_out; ++o) {
              double s = bias ? bias[o] : 0.0;
              for (int64_t c = 0; c < k.c_in; ++c)
                s += double(in[((b * k.h + y) * k.w + x) * k.c_in + c]) *
                     f[((c * k.c_out + o) * k.kh + i) * k.kw + j];
              out[((b * oh + y * k.kh + i) * ow + x * k.kw + j) * k.c_out + o] = s;
            }
  return out;
}

std::string Name(const Case& k) {
  return "n" + std::to_string(k.n) + " " + std::to_string(k.h) + "x" + std::to_string(k.w) +
         " " + std::to_string(k.c_in) + "->" + std::to_string(k.c_out) + " k" +
         std::to_string(k.kh) + "x" + std::to_string(k.kw) + (k.bias ? " bias" : "");
}

TEST(NarrowDeconv, MatchesReference) {
  if (!NarrowDeconv::Available()) GTEST_SKIP() << "no AVX-512 on this CPU / build";
  const std::vector<Case> cases = {
      {1, 3, 40, 24, 1, 2, 2, true},   // det's last layer (width 2 per kernel row)
      {2, 2, 17, 24, 1, 2, 2, false},  // partial pixel block, batch 2
      {1, 2, 16, 5, 1, 1, 1, true},    // width 1
      {1, 4, 15, 16, 3, 2, 2, true},   // width 6: transposed store, 12 columns
      {1, 1, 33, 37, 4, 2, 2, false},  // 16 columns, channel tail
      {1, 2, 19, 1, 2, 2, 3, true},    // one input channel, kw 3
      {1, 2, 21, 48, 1, 4, 4, true},   // 4x4, three full channel chunks
      {2, 3, 1, 13, 2, 3, 1, true},    // one pixel per row, kh 3
      {1, 2, 32, 17, 16, 1, 1, false},  // 1x1 kernel, 16 output channels
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(Name(k));
    ASSERT_TRUE(NarrowDeconv::Fits(k.c_out, k.kh, k.kw));
    const std::vector<float> in = Random(k.n * k.h * k.w * k.c_in, 11);
    const std::vector<float> f = Random(k.c_in * k.c_out * k.kh * k.kw, 23);
    const std::vector<float> bias = Random(k.c_out, 37);
    const float* b = k.bias ? bias.data() : nullptr;
    NarrowDeconv d;
    d.SetFilter(f.data(), b, k.c_in, k.c_out, k.kh, k.kw);
    const std::vector<double> ref = Reference(k, in, f, b);
    double largest = 1e-30;
    for (double v : ref) largest = std::max(largest, std::fabs(v));
    std::vector<float> one(ref.size(), NAN), two(ref.size(), NAN);
    d.Run(k.n, k.h, k.w, in.data(), one.data(), 1);
    d.Run(k.n, k.h, k.w, in.data(), two.data(), 2);
    for (size_t e = 0; e < ref.size(); ++e) {
      ASSERT_NEAR(one[e], ref[e], 1e-5 * largest) << "element " << e;
      ASSERT_EQ(one[e], two[e]) << "element " << e << ": 1 vs 2 threads";
    }
  }
}

TEST(NarrowDeconv, Fits) {
  EXPECT_TRUE(NarrowDeconv::Fits(1, 2, 2));
  EXPECT_TRUE(NarrowDeconv::Fits(4, 2, 2));
  EXPECT_FALSE(NarrowDeconv::Fits(5, 2, 2));
  EXPECT_FALSE(NarrowDeconv::Fits(24, 2, 2));
  EXPECT_FALSE(NarrowDeconv::Fits(0, 2, 2));
}

}  // namespace
}  // namespace x86
}  // namespace lite
