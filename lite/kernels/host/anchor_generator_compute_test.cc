// anchor_generator against anchors worked out by hand for stride 16.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

TEST(AnchorGenerator, HandWorkedAnchorsAndLoopOrder) {
  OpTester t("anchor_generator");
  t.SetInput<float>("Input", "in", {1, 2, 1, 2}, std::vector<float>(4));
  t.SetAttr("anchor_sizes", std::vector<float>{32.f, 64.f});
  t.SetAttr("aspect_ratios", std::vector<float>{1.f, 2.f});
  t.SetAttr("stride", std::vector<float>{16.f, 16.f});
  t.SetAttr("variances", std::vector<float>{1.f, 2.f, 3.f, 4.f});
  t.SetOutput("Anchors", "a");
  t.SetOutput("Variances", "v");
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("a").dims(), (DDim{1, 2, 4, 4}));
  // Centres 7.5 and 23.5 (offset 0.5 * 15). Ratio 1: base 16 x 16, so sizes
  // 32 x 32 and 64 x 64. Ratio 2: base_w = round(sqrt(128)) = 11, base_h 22,
  // so 22 x 44 and 44 x 88. Each anchor is centre -/+ (size - 1) / 2.
  const float sizes[4][2] = {{32, 32}, {64, 64}, {22, 44}, {44, 88}};
  std::vector<float> want;
  for (float cx : {7.5f, 23.5f}) {
    for (const auto& s : sizes) {
      want.insert(want.end(), {cx - (s[0] - 1) / 2, 7.5f - (s[1] - 1) / 2, cx + (s[0] - 1) / 2,
                               7.5f + (s[1] - 1) / 2});
    }
  }
  EXPECT_EQ(t.GetData<float>("a"), want);
  const std::vector<float> v = t.GetData<float>("v");
  for (size_t i = 0; i < v.size(); ++i) EXPECT_EQ(v[i], static_cast<float>(i % 4 + 1));

  OpTester bad("anchor_generator");
  bad.SetInput<float>("Input", "in", {1, 2, 1, 2}, std::vector<float>(4));
  bad.SetAttr("anchor_sizes", std::vector<float>{32.f});
  bad.SetAttr("aspect_ratios", std::vector<float>{1.f});
  bad.SetAttr("stride", std::vector<float>{16.f});
  bad.SetOutput("Anchors", "a");
  bad.SetOutput("Variances", "v");
  Status s = bad.Run();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("stride must hold 2 positive values"), std::string::npos)
      << s.message();
}

}  // namespace
}  // namespace lite
