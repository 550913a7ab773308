// density_prior_box against a reference that lists every box of every cell
// from the op's formula, over derived and given steps, flatten_to_2d, clip,
// and its attribute checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

struct DensityCfg {
  std::vector<float> sizes = {4.f, 8.f};
  std::vector<int32_t> densities = {2, 1};
  std::vector<float> ratios = {1.f, 2.f};
  float step_w = 0.f, step_h = 0.f, offset = 0.5f;
  bool clip = false, flatten = false;
};

// Feature map 2x3 over an 10x15 image.
std::vector<float> RefBoxes(const DensityCfg& c) {
  const double iw = 15, ih = 10;
  const double sw = (c.step_w == 0 || c.step_h == 0) ? iw / 3 : c.step_w;
  const double sh = (c.step_w == 0 || c.step_h == 0) ? ih / 2 : c.step_h;
  const int avg = static_cast<int>((sw + sh) / 2);
  std::vector<float> out;
  for (int h = 0; h < 2; ++h) {
    for (int w = 0; w < 3; ++w) {
      for (size_t s = 0; s < c.sizes.size(); ++s) {
        const int d = c.densities[s];
        const int shift = avg / d;
        for (float r : c.ratios) {
          const double bw = c.sizes[s] * std::sqrt(r), bh = c.sizes[s] / std::sqrt(r);
          for (int i = 0; i < d; ++i) {
            for (int j = 0; j < d; ++j) {
              const double x = (w + c.offset) * sw - avg / 2.0 + shift / 2.0 + j * shift;
              const double y = (h + c.offset) * sh - avg / 2.0 + shift / 2.0 + i * shift;
              const double box[4] = {(x - bw / 2) / iw, (y - bh / 2) / ih, (x + bw / 2) / iw,
                                     (y + bh / 2) / ih};
              for (double v : box) out.push_back(static_cast<float>(std::min(std::max(v, 0.0), 1.0)));
            }
          }
        }
      }
    }
  }
  return out;
}

Status RunDensity(const DensityCfg& c, OpTester* t) {
  t->SetInput<float>("Input", "in", {1, 5, 2, 3}, std::vector<float>(30));
  t->SetInput<float>("Image", "img", {1, 3, 10, 15}, std::vector<float>(450));
  t->SetAttr("fixed_sizes", c.sizes);
  t->SetAttr("fixed_ratios", c.ratios);
  t->SetAttr("densities", c.densities);
  t->SetAttr("variances", std::vector<float>{0.1f, 0.2f, 0.3f, 0.4f});
  t->SetAttr("step_w", c.step_w);
  t->SetAttr("step_h", c.step_h);
  t->SetAttr("offset", c.offset);
  t->SetAttr("clip", c.clip);
  t->SetAttr("flatten_to_2d", c.flatten);
  t->SetOutput("Boxes", "boxes");
  t->SetOutput("Variances", "var");
  return t->Run();
}

TEST(DensityPriorBox, MatchesReferenceOverAttributes) {
  std::vector<DensityCfg> cases(4);
  cases[1].step_w = 6.f;
  cases[1].step_h = 4.f;
  cases[1].offset = 0.25f;
  cases[2].clip = true;
  cases[2].flatten = true;
  cases[3].sizes = {3.f, 6.f, 12.f};
  cases[3].densities = {4, 2, 1};
  cases[3].ratios = {0.5f, 1.f, 3.f};
  for (size_t k = 0; k < cases.size(); ++k) {
    const DensityCfg& c = cases[k];
    OpTester t("density_prior_box");
    ASSERT_TRUE(RunDensity(c, &t).ok()) << "case " << k;
    int64_t priors = 0;
    for (int32_t d : c.densities) priors += d * d;
    priors *= c.ratios.size();
    const DDim want_dims = c.flatten ? DDim{6 * priors, 4} : DDim{2, 3, priors, 4};
    EXPECT_EQ(t.Get("boxes").dims(), want_dims) << "case " << k;
    EXPECT_EQ(t.Get("var").dims(), want_dims) << "case " << k;
    const std::vector<float> got = t.GetData<float>("boxes");
    const std::vector<float> want = RefBoxes(c);
    ASSERT_EQ(got.size(), want.size()) << "case " << k;
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_NEAR(got[i], want[i], 1e-5) << "case " << k << " at " << i;
    }
    const std::vector<float> var = t.GetData<float>("var");
    for (size_t i = 0; i < var.size(); ++i) EXPECT_FLOAT_EQ(var[i], 0.1f * (i % 4 + 1));
  }
}

TEST(DensityPriorBox, DensitiesMustMatchFixedSizes) {
  DensityCfg c;
  c.densities = {2};
  OpTester t("density_prior_box");
  const Status s = RunDensity(c, &t);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("density_prior_box"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("densities (1) must be as many as fixed_sizes (2)"),
            std::string::npos)
      << s.message();
}

}  // namespace
}  // namespace lite
