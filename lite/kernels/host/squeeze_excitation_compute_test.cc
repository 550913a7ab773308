// squeeze_excitation on host: the block's formula against a reference
// written out here, and filter/bias shape errors. (se_block_fuse_pass_test
// also checks it against the four ops it replaces.)
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

// x [2, 3, 2, 2] (values i / 10), squeeze [2, 3] (relu), excite [3, 2]
// (sigmoid on the mul side).
void SetUpBlock(OpTester* t, const DDim& excite_dims = {3, 2, 1, 1}) {
  std::vector<float> x(24);
  for (int i = 0; i < 24; ++i) x[i] = i / 10.f - 1.f;
  t->SetInput<float>("X", "x", {2, 3, 2, 2}, x);
  t->SetInput<float>("SqueezeFilter", "w1", {2, 3, 1, 1}, {1, -1, 0.5f, -2, 1, 1});
  t->SetInput<float>("SqueezeBias", "b1", {2}, {0.1f, -0.2f});
  t->SetInput<float>("ExciteFilter", "w2", excite_dims, {1, 2, -1, 0.5f, 0, -3});
  t->SetOutput("Out", "out");
  t->SetAttr("fuse_activation", std::string("relu"));
  t->SetAttr("y_activation", std::string("sigmoid"));
}

TEST(HostSqueezeExcitation, MatchesTheFormula) {
  OpTester t("squeeze_excitation");
  SetUpBlock(&t);
  ASSERT_TRUE(t.Run().ok());
  const std::vector<float> w1 = {1, -1, 0.5f, -2, 1, 1}, b1 = {0.1f, -0.2f};
  const std::vector<float> w2 = {1, 2, -1, 0.5f, 0, -3};
  std::vector<float> out = t.GetData<float>("out");
  for (int n = 0; n < 2; ++n) {
    float mean[3], hidden[2];
    for (int c = 0; c < 3; ++c) {
      mean[c] = 0.f;
      for (int i = 0; i < 4; ++i) mean[c] += ((n * 3 + c) * 4 + i) / 10.f - 1.f;
      mean[c] /= 4.f;
    }
    for (int r = 0; r < 2; ++r) {
      float v = b1[r];
      for (int c = 0; c < 3; ++c) v += w1[r * 3 + c] * mean[c];
      hidden[r] = std::max(v, 0.f);
    }
    for (int c = 0; c < 3; ++c) {
      const float v = w2[c * 2] * hidden[0] + w2[c * 2 + 1] * hidden[1];
      const float gate = 1.f / (1.f + std::exp(-v));
      for (int i = 0; i < 4; ++i) {
        const int k = (n * 3 + c) * 4 + i;
        EXPECT_NEAR(out[k], (k / 10.f - 1.f) * gate, 1e-6f) << k;
      }
    }
  }
}

// One channel, one squeezed value, unit weights: m = 0.3 and h = m are
// each quantized with scale 1 (level round(38.1) = 38) before the products.
TEST(HostSqueezeExcitation, QuantizedBlockQuantizesMAndH) {
  for (bool quantized : {false, true}) {
    OpTester t("squeeze_excitation");
    t.SetInput<float>("X", "x", {1, 1, 1, 1}, {0.3f});
    t.SetInput<float>("SqueezeFilter", "w1", {1, 1, 1, 1}, {1.f});
    t.SetInput<float>("ExciteFilter", "w2", {1, 1, 1, 1}, {1.f});
    t.SetOutput("Out", "out");
    if (quantized) {
      t.SetAttr("Squeeze_input_scale", 1.f);
      t.SetAttr("Squeeze_round_type", 1);
      t.SetAttr("Excite_input_scale", 1.f);
    }
    ASSERT_TRUE(t.Run().ok());
    const float q = 38.f * 1.f / 127.f;
    EXPECT_FLOAT_EQ(t.GetData<float>("out")[0], quantized ? 0.3f * q : 0.3f * 0.3f);
  }
}

TEST(HostSqueezeExcitation, BadQuantScalesAreErrors) {
  for (float scale : {0.f, -1.f, INFINITY}) {
    OpTester t("squeeze_excitation");
    SetUpBlock(&t);
    t.SetAttr("Excite_input_scale", scale);
    Status s = t.Run();
    ASSERT_FALSE(s.ok()) << scale;
    EXPECT_NE(s.message().find("Excite_input_scale must be a finite scale > 0"),
              std::string::npos)
        << s.message();
  }
  OpTester t("squeeze_excitation");
  SetUpBlock(&t);
  t.SetAttr("Squeeze_input_scale", 1.f);
  t.SetAttr("Squeeze_round_type", 2);
  Status s = t.Run();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("Squeeze_round_type must be 0 or 1"), std::string::npos)
      << s.message();
}

// The int8 levels output (operators/levels_output.h) checks its attributes.
TEST(HostSqueezeExcitation, BadLevelsOutputAttributesAreErrors) {
  struct Case {
    const char* dtype;
    float scale;
    const char* message;
    bool enable_int8;
  } cases[] = {{"uint8", 1.f, "Output_dtype must be float32 or int8, got uint8", true},
               {"int8", 0.f, "int8 output needs Output_scale > 0", true},
               {"int8", NAN, "int8 output needs Output_scale > 0", true},
               {"int8", 1.f, "Output_dtype int8 needs enable_int8", false}};
  for (const Case& c : cases) {
    OpTester t("squeeze_excitation");
    SetUpBlock(&t);
    t.SetAttr("enable_int8", c.enable_int8);
    t.SetAttr("Output_dtype", std::string(c.dtype));
    t.SetAttr("Output_scale", c.scale);
    Status s = t.Run();
    ASSERT_FALSE(s.ok()) << c.message;
    EXPECT_NE(s.message().find(c.message), std::string::npos) << s.message();
    EXPECT_NE(s.message().find("squeeze_excitation"), std::string::npos) << s.message();
  }
}

TEST(HostSqueezeExcitation, NoChannelsIsAnError) {
  OpTester t("squeeze_excitation");
  t.SetInput<float>("X", "x", {1, 0, 2, 2}, {});
  t.SetInput<float>("SqueezeFilter", "w1", {0, 0, 1, 1}, {});
  t.SetInput<float>("ExciteFilter", "w2", {0, 0, 1, 1}, {});
  t.SetOutput("Out", "out");
  Status s = t.Run();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("at least one channel"), std::string::npos) << s.message();
}

TEST(HostSqueezeExcitation, MismatchedFiltersAreErrors) {
  OpTester t("squeeze_excitation");
  SetUpBlock(&t, {2, 3, 1, 1});
  Status s = t.Run();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("ExciteFilter must be [3, 2, 1, 1]"), std::string::npos)
      << s.message();

  OpTester bias("squeeze_excitation");
  SetUpBlock(&bias);
  bias.SetInput<float>("ExciteBias", "b2", {2}, {1, 2});
  s = bias.Run();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("ExciteBias must hold 3 values"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace lite
