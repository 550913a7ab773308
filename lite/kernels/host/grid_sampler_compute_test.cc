// grid_sampler: identity grids reproduce X under both corner conventions,
// and hand-worked points tell the padding modes and nearest rounding apart.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

Status Sample(const std::vector<float>& x, const DDim& xd, const std::vector<float>& grid,
              const DDim& gd, const std::string& mode, const std::string& pad, bool align,
              std::vector<float>* out) {
  OpTester t("grid_sampler");
  t.SetInput<float>("X", "x", xd, x);
  t.SetInput<float>("Grid", "g", gd, grid);
  t.SetAttr("mode", mode);
  t.SetAttr("padding_mode", pad);
  t.SetAttr("align_corners", align);
  t.SetOutput("Output", "out");
  Status s = t.Run();
  if (s.ok()) *out = t.GetData<float>("out");
  return s;
}

TEST(GridSampler, IdentityGridReproducesX) {
  const int64_t N = 2, C = 3, H = 4, W = 5;
  const std::vector<float> x = RandomFloats(N * C * H * W, 41);
  for (bool align : {true, false}) {
    std::vector<float> grid;
    for (int64_t b = 0; b < N; ++b) {
      for (int64_t i = 0; i < H; ++i) {
        for (int64_t j = 0; j < W; ++j) {
          grid.push_back(align ? -1.f + 2.f * j / (W - 1) : (2.f * j + 1) / W - 1.f);
          grid.push_back(align ? -1.f + 2.f * i / (H - 1) : (2.f * i + 1) / H - 1.f);
        }
      }
    }
    for (const std::string mode : {"bilinear", "nearest"}) {
      std::vector<float> out;
      ASSERT_TRUE(Sample(x, {N, C, H, W}, grid, {N, H, W, 2}, mode, "zeros", align, &out).ok());
      ASSERT_EQ(out.size(), x.size());
      for (size_t k = 0; k < x.size(); ++k) {
        EXPECT_NEAR(out[k], x[k], 1e-5) << mode << " align " << align << " at " << k;
      }
    }
  }
}

TEST(GridSampler, PaddingModesAndNearestRounding) {
  const std::vector<float> x = {1.f, 2.f, 3.f, 4.f};  // [1, 1, 2, 2]
  // (0, 0): the centre of the image; (2, 2): past the bottom-right corner.
  const std::vector<float> grid = {0.f, 0.f, 2.f, 2.f};
  struct Case {
    const char* mode;
    const char* pad;
    std::vector<float> want;
  };
  // align_corners: (0, 0) -> source (0.5, 0.5); (2, 2) -> (1.5, 1.5), which
  // zeros reads as one quarter of x[1][1], border clips to (1, 1) and
  // reflection folds back to (0.5, 0.5).
  const std::vector<Case> cases = {
      {"bilinear", "zeros", {2.5f, 1.f}},
      {"bilinear", "border", {2.5f, 4.f}},
      {"bilinear", "reflection", {2.5f, 2.5f}},
      {"nearest", "zeros", {1.f, 0.f}},  // 0.5 rounds to 0 (half to even); 1.5 to 2
      {"nearest", "border", {1.f, 4.f}},
  };
  for (const Case& c : cases) {
    std::vector<float> out;
    ASSERT_TRUE(Sample(x, {1, 1, 2, 2}, grid, {1, 1, 2, 2}, c.mode, c.pad, true, &out).ok());
    EXPECT_EQ(out, c.want) << c.mode << " " << c.pad;
  }
  std::vector<float> out;
  Status s = Sample(x, {1, 1, 2, 2}, grid, {1, 1, 2, 2}, "bicubic", "zeros", true, &out);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("mode 'bicubic' is not supported"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace lite
