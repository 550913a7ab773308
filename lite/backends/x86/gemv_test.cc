// Gemv against a double-precision reference: column counts with and without
// a 16-column tail, below and above one 256-column panel, with and without
// bias; and the same bits at 1 and 2 threads.
#include "lite/backends/x86/gemv.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "lite/backends/x86/float_kernel_test_util.h"

namespace lite {
namespace x86 {
namespace {

using float_test::Random;

TEST(Gemv, MatchesReference) {
  if (!Gemv::Available()) GTEST_SKIP() << "no AVX-512 in this build or on this CPU";
  for (int64_t k : {1, 37, 300}) {
    for (int64_t n : {6, 16, 33, 256, 517}) {
      for (bool with_bias : {false, true}) {
        const auto x = Random(k, 1), w = Random(k * n, 2), b = Random(n, 3);
        const float* bias = with_bias ? b.data() : nullptr;
        std::vector<float> y(n + 1, 42.f), y2(n + 1, 42.f);
        Gemv g;
        g.SetWeights(w.data(), k, n);
        g.Run(x.data(), bias, y.data(), 1);
        g.Run(x.data(), bias, y2.data(), 2);
        for (int64_t j = 0; j < n; ++j) {
          double ref = with_bias ? b[j] : 0.0;
          for (int64_t i = 0; i < k; ++i) ref += static_cast<double>(x[i]) * w[i * n + j];
          ASSERT_NEAR(y[j], ref, 1e-5 * std::sqrt(static_cast<double>(k)) + 1e-6)
              << "k " << k << " n " << n << " column " << j;
          ASSERT_EQ(y2[j], y[j]) << "2 threads, k " << k << " n " << n << " column " << j;
        }
        EXPECT_EQ(y[n], 42.f) << "wrote past column n";
      }
    }
  }
}

}  // namespace
}  // namespace x86
}  // namespace lite
