// prior_box against box sizes worked out by hand for one configuration, in
// both prior orders, with and without clipping, and its attribute checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

// Feature map 2x3 over an 8x12 image: steps 4 and 4, centres at 2 + 4k.
std::vector<float> RefBoxes(const std::vector<std::pair<float, float>>& sizes, bool clip) {
  std::vector<float> out;
  for (int h = 0; h < 2; ++h) {
    for (int w = 0; w < 3; ++w) {
      const float cx = 2.f + 4.f * w, cy = 2.f + 4.f * h;
      for (const auto& s : sizes) {
        const float box[4] = {(cx - s.first / 2) / 12.f, (cy - s.second / 2) / 8.f,
                              (cx + s.first / 2) / 12.f, (cy + s.second / 2) / 8.f};
        for (float v : box) out.push_back(clip ? std::min(std::max(v, 0.f), 1.f) : v);
      }
    }
  }
  return out;
}

TEST(PriorBox, BothOrdersClipAndVariances) {
  const float r2 = std::sqrt(2.f), mm = std::sqrt(24.f);
  // aspect_ratios {2, 1} with flip: 1, 2, 1/2 (the repeated 1 is dropped).
  const std::vector<std::pair<float, float>> ratio_first = {
      {4.f, 4.f}, {4.f * r2, 4.f / r2}, {4.f / r2, 4.f * r2}, {mm, mm}};
  const std::vector<std::pair<float, float>> min_max_first = {
      {4.f, 4.f}, {mm, mm}, {4.f * r2, 4.f / r2}, {4.f / r2, 4.f * r2}};
  for (bool order : {false, true}) {
    for (bool clip : {false, true}) {
      OpTester t("prior_box");
      t.SetInput<float>("Input", "in", {1, 5, 2, 3}, std::vector<float>(30));
      t.SetInput<float>("Image", "img", {1, 3, 8, 12}, std::vector<float>(288));
      t.SetAttr("min_sizes", std::vector<float>{4.f});
      t.SetAttr("max_sizes", std::vector<float>{6.f});
      t.SetAttr("aspect_ratios", std::vector<float>{2.f, 1.f});
      t.SetAttr("flip", true);
      t.SetAttr("clip", clip);
      t.SetAttr("min_max_aspect_ratios_order", order);
      t.SetAttr("variances", std::vector<float>{0.1f, 0.2f, 0.3f, 0.4f});
      t.SetOutput("Boxes", "boxes");
      t.SetOutput("Variances", "var");
      ASSERT_TRUE(t.Run().ok());
      EXPECT_EQ(t.Get("boxes").dims(), (DDim{2, 3, 4, 4}));
      const std::vector<float> got = t.GetData<float>("boxes");
      const std::vector<float> want = RefBoxes(order ? min_max_first : ratio_first, clip);
      ASSERT_EQ(got.size(), want.size());
      for (size_t i = 0; i < got.size(); ++i) {
        EXPECT_NEAR(got[i], want[i], 1e-6) << "order " << order << " clip " << clip << " at " << i;
      }
      const std::vector<float> var = t.GetData<float>("var");
      for (size_t i = 0; i < var.size(); ++i) EXPECT_FLOAT_EQ(var[i], 0.1f * (i % 4 + 1));
    }
  }
}

TEST(PriorBox, MaxSizeNotAboveMinIsAnError) {
  OpTester t("prior_box");
  t.SetInput<float>("Input", "in", {1, 1, 1, 1}, {0.f});
  t.SetInput<float>("Image", "img", {1, 1, 4, 4}, std::vector<float>(16));
  t.SetAttr("min_sizes", std::vector<float>{4.f});
  t.SetAttr("max_sizes", std::vector<float>{2.f});
  t.SetOutput("Boxes", "boxes");
  t.SetOutput("Variances", "var");
  Status s = t.Run();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("max_sizes[0] must be > min_sizes[0]"), std::string::npos)
      << s.message();
}

}  // namespace
}  // namespace lite
