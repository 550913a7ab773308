// channel_layer_norm on host against a naive reference (each pixel's C
// values gathered at a stride of H x W and normalized), with and without
// Scale / Bias; a rank-3 X or a Scale of the wrong size is an error naming
// the op.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

TEST(ChannelLayerNorm, MatchesNaivePerPixel) {
  const int64_t n = 2, c = 5, h = 3, w = 4, plane = h * w;
  const float eps = 1e-6f;
  const auto x = RandomFloats(n * c * plane, 4, -2.f, 3.f);
  const auto g = RandomFloats(c, 5, 0.5f, 2.f), b = RandomFloats(c, 6);
  for (bool affine : {true, false}) {
    OpTester t("channel_layer_norm");
    t.SetInput<float>("X", "x", {n, c, h, w}, x);
    if (affine) {
      t.SetInput<float>("Scale", "g", {c}, g);
      t.SetInput<float>("Bias", "b", {c}, b);
    }
    t.SetOutput("Y", "y");
    t.SetAttr("epsilon", eps);
    ASSERT_TRUE(t.Run().ok());
    const auto y = t.GetData<float>("y");
    ASSERT_EQ(y.size(), x.size());
    for (int64_t s = 0; s < n; ++s) {
      for (int64_t i = 0; i < plane; ++i) {
        double m = 0, v = 0;
        for (int64_t ch = 0; ch < c; ++ch) m += x[(s * c + ch) * plane + i];
        m /= c;
        for (int64_t ch = 0; ch < c; ++ch) {
          const double dv = x[(s * c + ch) * plane + i] - m;
          v += dv * dv;
        }
        v /= c;
        for (int64_t ch = 0; ch < c; ++ch) {
          const int64_t at = (s * c + ch) * plane + i;
          double want = (x[at] - m) / std::sqrt(v + eps);
          if (affine) want = want * g[ch] + b[ch];
          ASSERT_NEAR(y[at], want, 1e-5 * (1 + std::fabs(want))) << "at " << at;
        }
      }
    }
  }
}

TEST(ChannelLayerNorm, RankAndScaleSizeAreChecked) {
  OpTester rank3("channel_layer_norm");
  rank3.SetInput<float>("X", "x", {2, 3, 4}, RandomFloats(24, 1));
  rank3.SetOutput("Y", "y");
  Status s = rank3.Run();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("channel_layer_norm"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("rank 4"), std::string::npos) << s.message();
  OpTester scale("channel_layer_norm");
  scale.SetInput<float>("X", "x", {1, 3, 2, 2}, RandomFloats(12, 2));
  scale.SetInput<float>("Scale", "g", {4}, RandomFloats(4, 3));
  scale.SetOutput("Y", "y");
  s = scale.Run();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("Scale"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace lite
