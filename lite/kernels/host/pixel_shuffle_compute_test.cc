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

// space_to_depth as Paddle's reorg functor computes it (forward): input
// element in_index = (b, k, j, i) of [B, C, H, W] lands at
// w2 + W*r*(h2 + H*r*(c2 + out_c*b)) with out_c = C/(r*r), c2 = k % out_c,
// offset = k / out_c, w2 = i*r + offset % r, h2 = j*r + offset / r.
std::vector<float> Reorg(const std::vector<float>& x, int64_t n, int64_t c, int64_t h,
                         int64_t w, int64_t r) {
  std::vector<float> out(x.size());
  const int64_t out_c = c / (r * r);
  for (int64_t in_index = 0; in_index < n * c * h * w; ++in_index) {
    const int64_t b = in_index / (c * h * w);
    const int64_t k = (in_index % (c * h * w)) / (h * w);
    const int64_t j = (in_index % (h * w)) / w;
    const int64_t i = in_index % w;
    const int64_t c2 = k % out_c, offset = k / out_c;
    const int64_t w2 = i * r + offset % r, h2 = j * r + offset / r;
    out[w2 + w * r * (h2 + h * r * (c2 + out_c * b))] = x[in_index];
  }
  return out;
}

TEST(SpaceToDepth, MatchesPaddlesReorg) {
  const struct {
    int64_t r, c, h, w;
  } cases[] = {{2, 4, 4, 6}, {2, 8, 2, 2}, {3, 9, 6, 3}};
  for (const auto& k : cases) {
    const int64_t n = 2;
    const std::vector<float> x = RandomFloats(n * k.c * k.h * k.w, 7 + k.r);
    OpTester t("space_to_depth");
    t.SetInput<float>("X", "x", {n, k.c, k.h, k.w}, x);
    t.SetOutput("Out", "out");
    t.SetAttr("blocksize", k.r);  // int64, as Paddle declares it
    Status s = t.Run();
    ASSERT_TRUE(s.ok()) << s.ToString();
    EXPECT_EQ(t.Get("out").dims(), (DDim{n, k.c * k.r * k.r, k.h / k.r, k.w / k.r}));
    EXPECT_EQ(t.GetData<float>("out"), Reorg(x, n, k.c, k.h, k.w, k.r)) << "r=" << k.r;
  }
  // Not pixel_unshuffle's order.
  OpTester u("pixel_unshuffle");
  const std::vector<float> x = RandomFloats(4 * 4 * 4, 3);
  u.SetInput<float>("X", "x", {1, 4, 4, 4}, x);
  u.SetOutput("Out", "out");
  u.SetAttr("downscale_factor", int32_t{2});
  ASSERT_TRUE(u.Run().ok());
  EXPECT_NE(u.GetData<float>("out"), Reorg(x, 1, 4, 4, 4, 2));
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
  odd.SetInput<float>("X", "x", {1, 4, 3, 2}, std::vector<float>(24, 1.f));
  odd.SetOutput("Out", "out");
  odd.SetAttr("blocksize", int32_t{2});
  EXPECT_FALSE(odd.Run().ok());

  OpTester channels("space_to_depth");
  channels.SetInput<float>("X", "x", {1, 2, 2, 2}, std::vector<float>(8, 1.f));
  channels.SetOutput("Out", "out");
  channels.SetAttr("blocksize", int32_t{2});
  s = channels.Run();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("multiple of blocksize^2"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace lite
