// arm layer_norm (own loop) against the host kernel (double sums): rows of
// SVTR's attention blocks ([1, 76, 120], Scale and Bias), a rank-4 input
// normalized over its last three dims without Scale / Bias, and rows far
// from zero (values in [50, 51]), where E[x^2] - mean^2 would cancel; Y,
// Mean and Variance each compared.
#include <string>
#include <vector>

#include "lite/kernels/arm/arm_test_util.h"

namespace lite {
namespace {

using arm_test::ExpectArmMatchesHost;

void ExpectLayerNorm(const DDim& dims, int axis, bool affine, float lo, float hi, uint32_t seed) {
  int64_t n = 1;
  for (int i = axis; i < static_cast<int>(dims.size()); ++i) n *= dims[i];
  auto setup = [=](OpTester* t) {
    t->SetInput<float>("X", "x", dims, RandomFloats(Product(dims), seed, lo, hi));
    if (affine) {
      t->SetInput<float>("Scale", "scale", {n}, RandomFloats(n, seed + 1, -2.f, 2.f));
      t->SetInput<float>("Bias", "bias", {n}, RandomFloats(n, seed + 2));
    }
    t->SetOutput("Y", "y");
    t->SetOutput("Mean", "mean");
    t->SetOutput("Variance", "variance");
    t->SetAttr("begin_norm_axis", axis);
    t->SetAttr("epsilon", 1e-5f);
  };
  ExpectArmMatchesHost("layer_norm", setup, {"y", "mean", "variance"},
                       DimsToString(dims) + " begin_norm_axis " + std::to_string(axis), 5e-5f);
}

TEST(ArmLayerNorm, LastAxisRowsMatchHost) { ExpectLayerNorm({1, 76, 120}, 2, true, -3.f, 5.f, 3); }

TEST(ArmLayerNorm, SeveralNormalizedDimsMatchHost) {
  ExpectLayerNorm({2, 3, 5, 7}, 1, false, -2.f, 2.f, 9);
}

TEST(ArmLayerNorm, RowsFarFromZeroMatchHost) { ExpectLayerNorm({6, 33}, 1, true, 50.f, 51.f, 17); }

}  // namespace
}  // namespace lite
