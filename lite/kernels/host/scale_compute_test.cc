#include <cmath>
#include <limits>
#include <string>

#include <gtest/gtest.h>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

const std::vector<float> kX = {-3.5f, -1.f, -0.4f, 0.f, 0.6f, 2.f, 2.5f, 9.75f};

// ---- scale ----

TEST(Scale, DefaultsAreIdentity) {
  OpTester t("scale");
  t.SetInput<float>("X", "x", {2, 4}, kX);
  t.SetOutput("Out", "out");
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dims(), (DDim{2, 4}));
  EXPECT_EQ(t.GetData<float>("out"), kX);
}

TEST(Scale, BiasAfterAndBeforeScale) {
  for (bool after : {true, false}) {
    OpTester t("scale");
    t.SetInput<float>("X", "x", {8}, kX);
    t.SetOutput("Out", "out");
    t.SetAttr("scale", 2.5f);
    t.SetAttr("bias", -1.5f);
    t.SetAttr("bias_after_scale", after);
    ASSERT_TRUE(t.Run().ok());
    auto out = t.GetData<float>("out");
    for (size_t i = 0; i < kX.size(); ++i) {
      const float ref = after ? 2.5f * kX[i] - 1.5f : 2.5f * (kX[i] - 1.5f);
      EXPECT_FLOAT_EQ(out[i], ref) << after << " " << i;
    }
  }
}

TEST(Scale, ScaleTensorOverridesAttr) {
  OpTester t("scale");
  t.SetInput<float>("X", "x", {8}, kX);
  Tensor* s = t.SetInput<float>("ScaleTensor", "s", {1}, {3.f});
  t.SetOutput("Out", "out");
  t.SetAttr("scale", 100.f);
  t.SetAttr("bias", 1.f);
  ASSERT_TRUE(t.Run().ok());
  auto out = t.GetData<float>("out");
  for (size_t i = 0; i < kX.size(); ++i) EXPECT_FLOAT_EQ(out[i], 3.f * kX[i] + 1.f);
  s->mutable_data<float>()[0] = -2.f;  // value read at every run
  ASSERT_TRUE(t.Run().ok());
  out = t.GetData<float>("out");
  for (size_t i = 0; i < kX.size(); ++i) EXPECT_FLOAT_EQ(out[i], -2.f * kX[i] + 1.f);
}

TEST(Scale, Int64AndInt32) {
  OpTester t("scale");
  t.SetInput<int64_t>("X", "x", {4}, {-3, 0, 5, 7});
  t.SetOutput("Out", "out");
  t.SetAttr("scale", 2.f);
  t.SetAttr("bias", 1.f);
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dtype(), DataType::kInt64);
  EXPECT_EQ(t.GetData<int64_t>("out"), (std::vector<int64_t>{-5, 1, 11, 15}));

  OpTester u("scale");
  u.SetInput<int32_t>("X", "x", {3}, {1, 2, 3});
  u.SetOutput("Out", "out");
  u.SetAttr("scale", -1.f);
  u.SetAttr("bias", 4.f);
  u.SetAttr("bias_after_scale", false);
  ASSERT_TRUE(u.Run().ok());
  EXPECT_EQ(u.GetData<int32_t>("out"), (std::vector<int32_t>{-5, -6, -7}));
}

TEST(Scale, FusedActivations) {
  {
    OpTester t("scale");
    t.SetInput<float>("X", "x", {8}, kX);
    t.SetOutput("Out", "out");
    t.SetAttr("scale", 2.f);
    t.SetAttr("fuse_activation", std::string("relu6"));
    t.SetAttr("fuse_alpha", 6.f);
    ASSERT_TRUE(t.Run().ok());
    auto out = t.GetData<float>("out");
    for (size_t i = 0; i < kX.size(); ++i) {
      EXPECT_FLOAT_EQ(out[i], std::min(std::max(2.f * kX[i], 0.f), 6.f));
    }
  }
  {  // Paddle-Lite's activation_type/alpha form
    OpTester t("scale");
    t.SetInput<float>("X", "x", {8}, kX);
    t.SetOutput("Out", "out");
    t.SetAttr("activation_type", std::string("leaky_relu"));
    t.SetAttr("alpha", 0.5f);
    ASSERT_TRUE(t.Run().ok());
    auto out = t.GetData<float>("out");
    for (size_t i = 0; i < kX.size(); ++i) {
      EXPECT_FLOAT_EQ(out[i], kX[i] > 0 ? kX[i] : 0.5f * kX[i]);
    }
  }
  OpTester bad("scale");
  bad.SetInput<float>("X", "x", {8}, kX);
  bad.SetOutput("Out", "out");
  bad.SetAttr("activation_type", std::string("softsign"));
  EXPECT_EQ(bad.Run().code(), StatusCode::kUnimplemented);
}

// ---- dropout ----

TEST(Dropout, DowngradeInInferIsDefault) {
  for (bool explicit_impl : {false, true}) {
    OpTester t("dropout");
    t.SetInput<float>("X", "x", {2, 4}, kX);
    t.SetOutput("Out", "out");
    t.SetOutput("Mask", "mask");
    t.SetAttr("dropout_prob", 0.3f);
    if (explicit_impl) {
      t.SetAttr("dropout_implementation", std::string("downgrade_in_infer"));
      t.SetAttr("is_test", true);
    }
    ASSERT_TRUE(t.Run().ok());
    EXPECT_EQ(t.Get("out").dims(), (DDim{2, 4}));
    auto out = t.GetData<float>("out");
    for (size_t i = 0; i < kX.size(); ++i) EXPECT_FLOAT_EQ(out[i], kX[i] * (1.f - 0.3f));
  }
}

TEST(Dropout, DefaultProbIsHalf) {
  OpTester t("dropout");
  t.SetInput<float>("X", "x", {8}, kX);
  t.SetOutput("Out", "out");
  ASSERT_TRUE(t.Run().ok());
  auto out = t.GetData<float>("out");
  for (size_t i = 0; i < kX.size(); ++i) EXPECT_FLOAT_EQ(out[i], kX[i] * 0.5f);
}

TEST(Dropout, UpscaleInTrainIsIdentity) {
  OpTester t("dropout");
  t.SetInput<float>("X", "x", {8}, kX);
  t.SetOutput("Out", "out");
  t.SetAttr("dropout_prob", 0.3f);
  t.SetAttr("dropout_implementation", std::string("upscale_in_train"));
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.GetData<float>("out"), kX);
}

TEST(Dropout, BadAttributes) {
  OpTester t("dropout");
  t.SetInput<float>("X", "x", {8}, kX);
  t.SetOutput("Out", "out");
  t.SetAttr("dropout_implementation", std::string("sometimes"));
  EXPECT_FALSE(t.Run().ok());
  OpTester u("dropout");
  u.SetInput<float>("X", "x", {8}, kX);
  u.SetOutput("Out", "out");
  u.SetAttr("dropout_prob", 1.5f);
  EXPECT_FALSE(u.Run().ok());
}

// ---- cast ----

template <typename From, typename To>
void ExpectCast(int in_code, int out_code, const std::vector<From>& x,
                const std::vector<To>& expected) {
  OpTester t("cast");
  t.SetInput<From>("X", "x", {static_cast<int64_t>(x.size())}, x);
  t.SetOutput("Out", "out");
  t.SetAttr("in_dtype", in_code);
  t.SetAttr("out_dtype", out_code);
  Status s = t.Run();
  ASSERT_TRUE(s.ok()) << in_code << "->" << out_code << ": " << s.ToString();
  EXPECT_EQ(t.Get("out").dtype(), DataTypeOf<To>());
  EXPECT_EQ(t.Get("out").dims(), (DDim{static_cast<int64_t>(x.size())}));
  EXPECT_EQ(t.GetData<To>("out"), expected) << in_code << "->" << out_code;
}

TEST(Cast, FloatToIntsTruncates) {
  const std::vector<float> x = {-2.7f, -0.5f, 0.f, 0.9f, 3.99f, 1e6f};
  ExpectCast<float, int64_t>(5, 3, x, {-2, 0, 0, 0, 3, 1000000});
  ExpectCast<float, int32_t>(5, 2, x, {-2, 0, 0, 0, 3, 1000000});
  ExpectCast<float, bool>(5, 0, x, {true, true, false, true, true, true});
  ExpectCast<float, double>(5, 6, {1.5f, -2.25f}, {1.5, -2.25});
}

TEST(Cast, IntsAndBoolToFloat) {
  ExpectCast<int64_t, float>(3, 5, {-3, 0, 7, 123456}, {-3.f, 0.f, 7.f, 123456.f});
  ExpectCast<int32_t, float>(2, 5, {-1, 2}, {-1.f, 2.f});
  ExpectCast<bool, float>(0, 5, {true, false, true}, {1.f, 0.f, 1.f});
  ExpectCast<bool, int64_t>(0, 3, {true, false}, {1, 0});
}

TEST(Cast, BetweenInts) {
  ExpectCast<int64_t, int32_t>(3, 2, {-5, 0, 1 << 20}, {-5, 0, 1 << 20});
  ExpectCast<int32_t, int64_t>(2, 3, {-5, 9}, {-5, 9});
  ExpectCast<int32_t, bool>(2, 0, {0, 3, -1}, {false, true, true});
  ExpectCast<int32_t, uint8_t>(2, 20, {0, 200}, {0, 200});
  ExpectCast<uint8_t, int32_t>(20, 2, {0, 255}, {0, 255});
  ExpectCast<int8_t, float>(21, 5, {-128, 127}, {-128.f, 127.f});
  ExpectCast<float, int16_t>(5, 1, {-300.5f}, {-300});
  ExpectCast<float, float>(5, 5, {1.25f}, {1.25f});
}

Status RunCast(int in_code, int out_code) {
  OpTester t("cast");
  t.SetInput<float>("X", "x", {2}, {1.f, 2.f});
  t.SetOutput("Out", "out");
  t.SetAttr("in_dtype", in_code);
  t.SetAttr("out_dtype", out_code);
  return t.Run();
}

TEST(Cast, UnsupportedCodes) {
  EXPECT_EQ(RunCast(5, 4).code(), StatusCode::kUnimplemented);   // FP16 out
  EXPECT_EQ(RunCast(4, 5).code(), StatusCode::kUnimplemented);   // FP16 in
  EXPECT_FALSE(RunCast(5, 22).ok());                             // BF16
  EXPECT_FALSE(RunCast(5, 7).ok());                              // LOD_TENSOR kind
  EXPECT_TRUE(RunCast(5, 3).ok());
}

// ---- clip ----

TEST(Clip, AttrsAndTensors) {
  {
    OpTester t("clip");
    t.SetInput<float>("X", "x", {2, 4}, kX);
    t.SetOutput("Out", "out");
    t.SetAttr("min", -1.f);
    t.SetAttr("max", 2.25f);
    ASSERT_TRUE(t.Run().ok());
    EXPECT_EQ(t.Get("out").dims(), (DDim{2, 4}));
    auto out = t.GetData<float>("out");
    for (size_t i = 0; i < kX.size(); ++i) {
      EXPECT_FLOAT_EQ(out[i], std::min(std::max(kX[i], -1.f), 2.25f));
    }
  }
  {
    OpTester t("clip");
    t.SetInput<float>("X", "x", {8}, kX);
    t.SetInput<float>("Min", "mn", {1}, {0.f});
    t.SetInput<float>("Max", "mx", {1}, {1.f});
    t.SetOutput("Out", "out");
    t.SetAttr("min", -100.f);
    t.SetAttr("max", 100.f);
    ASSERT_TRUE(t.Run().ok());
    auto out = t.GetData<float>("out");
    for (size_t i = 0; i < kX.size(); ++i) {
      EXPECT_FLOAT_EQ(out[i], std::min(std::max(kX[i], 0.f), 1.f));
    }
  }
  {  // only max given as attr: min defaults to the lowest float
    OpTester t("clip");
    t.SetInput<float>("X", "x", {8}, kX);
    t.SetOutput("Out", "out");
    t.SetAttr("max", 0.f);
    ASSERT_TRUE(t.Run().ok());
    auto out = t.GetData<float>("out");
    for (size_t i = 0; i < kX.size(); ++i) EXPECT_FLOAT_EQ(out[i], std::min(kX[i], 0.f));
  }
}

TEST(Clip, Int64) {
  OpTester t("clip");
  t.SetInput<int64_t>("X", "x", {5}, {-10, -1, 0, 4, 99});
  t.SetOutput("Out", "out");
  t.SetAttr("min", -2.f);
  t.SetAttr("max", 5.f);
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.GetData<int64_t>("out"), (std::vector<int64_t>{-2, -1, 0, 4, 5}));
  OpTester u("clip");  // default attrs saturate instead of overflowing
  u.SetInput<int32_t>("X", "x", {2}, {-7, 7});
  u.SetOutput("Out", "out");
  ASSERT_TRUE(u.Run().ok());
  EXPECT_EQ(u.GetData<int32_t>("out"), (std::vector<int32_t>{-7, 7}));
}

TEST(Clip, MinAboveMaxFails) {
  OpTester t("clip");
  t.SetInput<float>("X", "x", {8}, kX);
  t.SetOutput("Out", "out");
  t.SetAttr("min", 2.f);
  t.SetAttr("max", 1.f);
  EXPECT_FALSE(t.Run().ok());
  OpTester u("clip");
  u.SetInput<float>("X", "x", {8}, kX);
  u.SetInput<float>("Max", "mx", {1}, {-5.f});
  u.SetOutput("Out", "out");
  u.SetAttr("min", 0.f);
  u.SetAttr("max", 1.f);
  EXPECT_FALSE(u.Run().ok());
}

}  // namespace
}  // namespace lite
