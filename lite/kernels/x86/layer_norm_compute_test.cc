// x86 layer_norm against the host kernel: SVTR's attention rows (rank 3,
// 120 values = 7 vectors + a tail of 8, with Scale, Bias, Mean and
// Variance), a rank-4 input normalized over C, H and W without Scale / Bias,
// rows shorter than a vector, and rows offset from zero (values in [10, 11]).
#include <string>
#include <vector>

#include "lite/kernels/x86/x86_test_util.h"

namespace lite {
namespace {

using x86_test::ExpectX86MatchesHost;

struct Case {
  DDim dims;
  int axis;
  bool affine;
  float lo, hi;
};

TEST(X86LayerNorm, MatchesHost) {
  const std::vector<Case> cases = {
      {{1, 76, 120}, 2, true, -3.f, 5.f},
      {{2, 3, 5, 7}, 1, false, -2.f, 2.f},
      {{5, 3}, 1, true, -1.f, 1.f},
      {{4, 37}, 1, true, 10.f, 11.f},
  };
  uint32_t seed = 11;
  for (const Case& c : cases) {
    int64_t rows = 1, n = 1;
    for (int i = 0; i < static_cast<int>(c.dims.size()); ++i) (i < c.axis ? rows : n) *= c.dims[i];
    const uint32_t s = seed += 3;
    auto setup = [&c, n, rows, s](OpTester* t) {
      t->SetInput<float>("X", "x", c.dims, RandomFloats(rows * n, s, c.lo, c.hi));
      if (c.affine) {
        t->SetInput<float>("Scale", "scale", {n}, RandomFloats(n, s + 1, -2.f, 2.f));
        t->SetInput<float>("Bias", "bias", {n}, RandomFloats(n, s + 2));
      }
      t->SetOutput("Y", "y");
      t->SetOutput("Mean", "mean");
      t->SetOutput("Variance", "variance");
      t->SetAttr("begin_norm_axis", c.axis);
      t->SetAttr("epsilon", 1e-5f);
    };
    ExpectX86MatchesHost("layer_norm", setup, {"y", "mean"},
                         DimsToString(c.dims) + " axis " + std::to_string(c.axis), 2e-5f);
    // The variance is a mean of squares: relative to its own size.
    ExpectX86MatchesHost("layer_norm", setup, {"variance"}, DimsToString(c.dims) + " variance",
                         1e-5f, /*threads=*/1, /*runs=*/1, nullptr, /*tol_of_largest=*/true);
  }
}

}  // namespace
}  // namespace lite
