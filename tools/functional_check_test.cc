// The functional rules of meta.json on small hand-made outputs: parsing both
// kinds, and each failing when what it guards breaks.
#include "tools/functional_check.h"

#include <vector>

#include <gtest/gtest.h>

namespace lite {
namespace tools {
namespace {

TEST(FunctionalCheck, ArgmaxPerRow) {
  auto rule = ParseFunctionalRule(R"({"rule": "argmax", "reference_argmax": [1, 0]})");
  ASSERT_TRUE(rule.ok()) << rule.status().ToString();
  EXPECT_EQ(rule->kind, FunctionalRule::Kind::kArgmax);
  const std::vector<float> ref = {0.4f, 0.6f, 0.9f, 0.1f};
  const std::vector<float> close = {0.45f, 0.55f, 0.7f, 0.3f};
  const std::vector<float> flipped = {0.55f, 0.45f, 0.7f, 0.3f};
  EXPECT_TRUE(ApplyFunctionalRule(*rule, close.data(), ref.data(), 4, 2).passed);
  const FunctionalResult bad = ApplyFunctionalRule(*rule, flipped.data(), ref.data(), 4, 2);
  EXPECT_FALSE(bad.passed);
  EXPECT_NE(bad.summary.find("[0, 0]"), std::string::npos) << bad.summary;
}

TEST(FunctionalCheck, BinaryMapIouAndDiffLimits) {
  auto rule = ParseFunctionalRule(
      R"({"min_iou_prob_gt_0.3": 0.75, "max_frac_abs_diff_gt_0.1": 0.25,
          "max_mean_abs_diff": 0.2})");
  ASSERT_TRUE(rule.ok()) << rule.status().ToString();
  EXPECT_EQ(rule->kind, FunctionalRule::Kind::kBinaryMap);
  EXPECT_DOUBLE_EQ(rule->threshold, 0.3);
  EXPECT_DOUBLE_EQ(rule->abs_diff_over, 0.1);
  const std::vector<float> ref = {0.9f, 0.8f, 0.7f, 0.6f, 0.f, 0.f, 0.f, 0.f};
  // One of four positives lost: IoU 3/4, one element of eight off by 0.5.
  const std::vector<float> lost_one = {0.9f, 0.8f, 0.7f, 0.1f, 0.f, 0.f, 0.f, 0.f};
  EXPECT_TRUE(ApplyFunctionalRule(*rule, lost_one.data(), ref.data(), 8, 8).passed);
  // Two lost: IoU 2/4.
  const std::vector<float> lost_two = {0.9f, 0.8f, 0.2f, 0.1f, 0.f, 0.f, 0.f, 0.f};
  const FunctionalResult bad = ApplyFunctionalRule(*rule, lost_two.data(), ref.data(), 8, 8);
  EXPECT_FALSE(bad.passed);
  EXPECT_NE(bad.summary.find("0.5000"), std::string::npos) << bad.summary;
  // Same binary map but values drifting everywhere: the mean limit catches it.
  const std::vector<float> drift = {0.6f, 0.5f, 0.4f, 0.35f, 0.25f, 0.25f, 0.25f, 0.25f};
  EXPECT_FALSE(ApplyFunctionalRule(*rule, drift.data(), ref.data(), 8, 8).passed);
}

TEST(FunctionalCheck, UnknownRuleIsAnError) {
  EXPECT_TRUE(ParseFunctionalRule("")->kind == FunctionalRule::Kind::kNone);
  auto rule = ParseFunctionalRule(R"({"rule": "something else", "limit": 3})");
  ASSERT_FALSE(rule.ok());
  EXPECT_NE(rule.status().message().find("limit"), std::string::npos);
}

}  // namespace
}  // namespace tools
}  // namespace lite
