// pixel_shuffle and pixel_unshuffle against Paddle's index formula, factors
// 1, 2 and 3, and as inverses of each other.
#include <gtest/gtest.h>

#include <vector>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

std::vector<float> Shuffle(const std::vector<float>& x, int64_t n, int64_t c, int64_t h,
                           int64_t w, int64_t r) {  // x: [n, c*r*r, h, w]
  std::vector<float> out(x.size());
  for (int64_t b = 0; b < n; ++b)
    for (int64_t ch = 0; ch < c; ++ch)
      for (int64_t oy = 0; oy < h * r; ++oy)
        for (int64_t ox = 0; ox < w * r; ++ox) {
          const int64_t in_c = ch * r * r + (oy % r) * r + (ox % r);
          out[((b * c + ch) * h * r + oy) * w * r + ox] =
              x[((b * c * r * r + in_c) * h + oy / r) * w + ox / r];
        }
  return out;
}

TEST(PixelShuffle, MatchesPaddlesFormulaAndInverts) {
  for (int64_t r : {1, 2, 3}) {
    const int64_t n = 2, c = 2, h = 3, w = 2;
    const std::vector<float> x = RandomFloats(n * c * r * r * h * w, 11);
    OpTester up("pixel_shuffle");
    up.SetInput<float>("X", "x", {n, c * r * r, h, w}, x);
    up.SetOutput("Out", "out");
    up.SetAttr("upscale_factor", static_cast<int32_t>(r));
    ASSERT_TRUE(up.Run().ok());
    EXPECT_EQ(up.Get("out").dims(), (DDim{n, c, h * r, w * r}));
    const auto shuffled = up.GetData<float>("out");
    EXPECT_EQ(shuffled, Shuffle(x, n, c, h, w, r)) << "r=" << r;

    OpTester down("pixel_unshuffle");
    down.SetInput<float>("X", "x", {n, c, h * r, w * r}, shuffled);
    down.SetOutput("Out", "out");
    down.SetAttr("downscale_factor", static_cast<int32_t>(r));
    ASSERT_TRUE(down.Run().ok());
    EXPECT_EQ(down.Get("out").dims(), (DDim{n, c * r * r, h, w}));
    EXPECT_EQ(down.GetData<float>("out"), x) << "r=" << r;
  }
}

TEST(PixelShuffle, RefusesShapesAndLayouts) {
  OpTester chans("pixel_shuffle");
  chans.SetInput<float>("X", "x", {1, 6, 2, 2}, std::vector<float>(24, 0.f));
  chans.SetOutput("Out", "out");
  chans.SetAttr("upscale_factor", 2);
  EXPECT_FALSE(chans.Run().ok());

  OpTester nhwc("pixel_unshuffle");
  nhwc.SetInput<float>("X", "x", {1, 4, 4, 1}, std::vector<float>(16, 0.f));
  nhwc.SetOutput("Out", "out");
  nhwc.SetAttr("downscale_factor", 2);
  nhwc.SetAttr("data_format", std::string("NHWC"));
  EXPECT_EQ(nhwc.Run().code(), StatusCode::kUnimplemented);
}

}  // namespace
}  // namespace lite

namespace lite {
namespace {

// space_to_depth as Paddle's reorg functor computes it: output element
// (b, k, j, i) of [N, C*r*r, H/r, W/r] reads input channel k % C at
// row j*r + (k / C) / r, column i*r + (k / C) % r.
std::vector<float> Reorg(const std::vector<float>& x, int64_t n, int64_t c, int64_t h,
                         int64_t w, int64_t r) {
  const int64_t oc = c * r * r, oh = h / r, ow = w / r;
  std::vector<float> out(x.size());
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t k = 0; k < oc; ++k) {
      for (int64_t j = 0; j < oh; ++j) {
        for (int64_t i = 0; i < ow; ++i) {
          const int64_t offset = k / c;
          const int64_t src = ((b * c + k % c) * h + j * r + offset / r) * w + i * r + offset % r;
          out[((b * oc + k) * oh + j) * ow + i] = x[src];
        }
      }
    }
  }
  return out;
}

TEST(SpaceToDepth, MatchesPaddlesReorg) {
  for (int64_t r : {2, 3}) {
    const int64_t n = 2, c = 3, h = 2 * r, w = 3 * r;
    const std::vector<float> x = RandomFloats(n * c * h * w, 7 + r);
    OpTester t("space_to_depth");
    t.SetInput<float>("X", "x", {n, c, h, w}, x);
    t.SetOutput("Out", "out");
    t.SetAttr("blocksize", static_cast<int32_t>(r));
    Status s = t.Run();
    ASSERT_TRUE(s.ok()) << s.ToString();
    EXPECT_EQ(t.Get("out").dims(), (DDim{n, c * r * r, h / r, w / r}));
    EXPECT_EQ(t.GetData<float>("out"), Reorg(x, n, c, h, w, r)) << "r=" << r;
  }
  // Not pixel_unshuffle: the channel order differs when C > 1.
  OpTester u("pixel_unshuffle");
  const std::vector<float> x = RandomFloats(2 * 4 * 4, 3);
  u.SetInput<float>("X", "x", {1, 2, 4, 4}, x);
  u.SetOutput("Out", "out");
  u.SetAttr("downscale_factor", int32_t{2});
  ASSERT_TRUE(u.Run().ok());
  EXPECT_NE(u.GetData<float>("out"), Reorg(x, 1, 2, 4, 4, 2));
}

TEST(SpaceToDepth, RefusesBadBlocksAndShapes) {
  OpTester one("space_to_depth");
  one.SetInput<float>("X", "x", {1, 1, 2, 2}, {1, 2, 3, 4});
  one.SetOutput("Out", "out");
  one.SetAttr("blocksize", int32_t{1});
  Status s = one.Run();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("blocksize"), std::string::npos) << s.message();

  OpTester odd("space_to_depth");
  odd.SetInput<float>("X", "x", {1, 1, 3, 2}, {1, 2, 3, 4, 5, 6});
  odd.SetOutput("Out", "out");
  odd.SetAttr("blocksize", int32_t{2});
  EXPECT_FALSE(odd.Run().ok());
}

}  // namespace
}  // namespace lite
