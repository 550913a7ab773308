// group_norm and affine_channel against two-pass reference loops.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

TEST(GroupNorm, GroupsWithAndWithoutScaleBias) {
  const int64_t N = 2, C = 6, HW = 5;
  const std::vector<float> x = RandomFloats(N * C * HW, 21, -2.f, 3.f);
  const std::vector<float> scale = RandomFloats(C, 22), bias = RandomFloats(C, 23);
  for (int groups : {1, 2, 3, 6}) {
    for (bool affine : {true, false}) {
      OpTester t("group_norm");
      t.SetInput<float>("X", "x", {N, C, 1, HW}, x);
      if (affine) {
        t.SetInput<float>("Scale", "s", {C}, scale);
        t.SetInput<float>("Bias", "b", {C}, bias);
      }
      t.SetAttr("groups", groups);
      t.SetAttr("epsilon", 1e-4f);
      t.SetOutput("Y", "y");
      t.SetOutput("Mean", "m");
      t.SetOutput("Variance", "v");
      ASSERT_TRUE(t.Run().ok());
      EXPECT_EQ(t.Get("m").dims(), (DDim{N, groups}));
      const std::vector<float> y = t.GetData<float>("y");
      const std::vector<float> m = t.GetData<float>("m");
      const int64_t per = C / groups * HW;
      for (int64_t b = 0; b < N; ++b) {
        for (int g = 0; g < groups; ++g) {
          const int64_t base = (b * C + g * (C / groups)) * HW;
          double mean = 0, var = 0;
          for (int64_t i = 0; i < per; ++i) mean += x[base + i];
          mean /= per;
          for (int64_t i = 0; i < per; ++i) var += (x[base + i] - mean) * (x[base + i] - mean);
          var /= per;
          EXPECT_NEAR(m[b * groups + g], mean, 1e-5);
          for (int64_t i = 0; i < per; ++i) {
            const int64_t ch = (base + i) / HW % C;
            double want = (x[base + i] - mean) / std::sqrt(var + 1e-4);
            if (affine) want = want * scale[ch] + bias[ch];
            EXPECT_NEAR(y[base + i], want, 1e-4) << "groups " << groups << " at " << base + i;
          }
        }
      }
    }
  }
  OpTester bad("group_norm");
  bad.SetInput<float>("X", "x", {1, 6, 2}, RandomFloats(12, 1));
  bad.SetAttr("groups", 4);
  bad.SetOutput("Y", "y");
  Status s = bad.Run();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("channels 6 are not divisible by groups 4"), std::string::npos)
      << s.message();
}

TEST(AffineChannel, NchwAndNhwc) {
  const std::vector<float> x = RandomFloats(2 * 3 * 4, 31);
  const std::vector<float> scale = {0.5f, -1.f, 2.f}, bias = {1.f, 0.f, -3.f};
  for (const std::string layout : {"NCHW", "NHWC"}) {
    const bool last = layout == "NHWC";
    OpTester t("affine_channel");
    t.SetInput<float>("X", "x", last ? DDim{2, 4, 3} : DDim{2, 3, 4}, x);
    t.SetInput<float>("Scale", "s", {3}, scale);
    t.SetInput<float>("Bias", "b", {3}, bias);
    t.SetAttr("data_layout", layout);
    t.SetOutput("Out", "out");
    ASSERT_TRUE(t.Run().ok());
    std::vector<float> want;
    for (int64_t i = 0; i < 24; ++i) {
      const int64_t ch = last ? i % 3 : i / 4 % 3;
      want.push_back(x[i] * scale[ch] + bias[ch]);
    }
    EXPECT_EQ(t.GetData<float>("out"), want) << layout;
  }
}

}  // namespace
}  // namespace lite
