// arm softmax (XNNPACK softmax_nc, last axis), concat (row copies in NHWC)
// and fc (XNNPACK fully_connected_nc) against the host kernels; and what
// each declines at kernel pick.
#include <string>
#include <vector>

#include "lite/kernels/arm/arm_test_util.h"

namespace lite {
namespace {

using arm_test::ExpectArmMatchesHost;

TEST(ArmSoftmax, LastAxisMatchesHost) {
  for (const DDim& d : {DDim{4, 1000}, DDim{2, 3, 17}, DDim{1, 8, 19, 76}}) {
    auto setup = [d](OpTester* t) {
      t->SetInput<float>("X", "x", d, RandomFloats(Product(d), 7, -9.f, 9.f));
      t->SetOutput("Out", "out");
      t->SetAttr("axis", -1);
    };
    ExpectArmMatchesHost("softmax", setup, {"out"}, DimsToString(d), 1e-5f);
  }
}

TEST(ArmSoftmax, DeclinesOtherAxes) {
  const KernelDef* def = arm_test::ArmKernelDef("softmax");
  ASSERT_NE(def, nullptr);
  cpp::OpDesc desc("softmax");
  desc.SetInput("X", {"x"});
  desc.SetAttr("axis", 1);
  auto rank4 = [](const std::string&) { return std::vector<int64_t>{1, 2, 3, 4}; };
  auto rank2 = [](const std::string&) { return std::vector<int64_t>{1, 2}; };
  EXPECT_FALSE(def->Accepts(desc, rank4));
  EXPECT_TRUE(def->Accepts(desc, rank2));
  EXPECT_EQ(arm_test::ArmKernelDef("log_softmax"), nullptr);
}

TEST(ArmConcat, EveryAxisMatchesHost) {
  for (int axis : {0, 1, 2, -1}) {
    auto setup = [axis](OpTester* t) {
      for (int i = 0; i < 3; ++i) {
        DDim d{2, 3, 4, 5};
        d[axis < 0 ? 3 : axis] = i + 1;
        t->SetInput<float>("X", "x" + std::to_string(i), d, RandomFloats(Product(d), i));
      }
      t->SetOutput("Out", "out");
      t->SetAttr("axis", axis);
    };
    ExpectArmMatchesHost("concat", setup, {"out"}, "axis " + std::to_string(axis), 0.f);
  }
  auto rank2 = [](OpTester* t) {
    t->SetInput<float>("X", "a", {3, 4}, RandomFloats(12, 1));
    t->SetInput<float>("X", "b", {3, 2}, RandomFloats(6, 2));
    t->SetOutput("Out", "out");
    t->SetAttr("axis", 1);
  };
  ExpectArmMatchesHost("concat", rank2, {"out"}, "rank 2", 0.f);
  auto weight = [](OpTester* t) {  // a persistable input held in NCHW order
    t->SetInput<float>("X", "a", {1, 3, 2, 5}, RandomFloats(30, 1));
    t->SetInput<float>("X", "b", {1, 2, 2, 5}, RandomFloats(20, 2))->set_persistable(true);
    t->SetOutput("Out", "out");
    t->SetAttr("axis", 1);
  };
  ExpectArmMatchesHost("concat", weight, {"out"}, "persistable input", 0.f);
}

// Inputs nearest-upscaled into the concat (input_upscale, PP-OCR det's
// FPN: factors 1, 2, 4, 8), two samples.
TEST(ArmConcat, UpscaledInputsMatchHost) {
  auto setup = [](OpTester* t) {
    const std::vector<int64_t> channels{24, 40, 17, 24};
    const std::vector<int> factor{1, 2, 4, 8};
    for (size_t i = 0; i < channels.size(); ++i) {
      const DDim d{2, channels[i], 16 / factor[i], 24 / factor[i]};
      t->SetInput<float>("X", "x" + std::to_string(i), d,
                         RandomFloats(Product(d), 20 + i, -3.f, 3.f));
    }
    t->SetOutput("Out", "out");
    t->SetAttr("axis", 1);
    t->SetAttr("input_upscale", factor);
  };
  ExpectArmMatchesHost("concat", setup, {"out"}, "upscaled", 0.f);
}

// Inputs multiplied per channel (InputScale, concat_scale_fuse_pass), with
// and without input_upscale.
TEST(ArmConcat, ScaledInputsMatchHost) {
  for (bool upscale : {false, true}) {
    auto setup = [upscale](OpTester* t) {
      t->SetInput<float>("X", "a", {2, 3, 4, 6}, RandomFloats(144, 1));
      t->SetInput<float>("X", "b", {2, 2, upscale ? 2 : 4, upscale ? 3 : 6},
                         RandomFloats(upscale ? 24 : 96, 2));
      t->SetInput<float>("InputScale", "s0", {3}, RandomFloats(3, 3));
      t->SetInput<float>("InputScale", "s1", {2, 2, 1, 1}, RandomFloats(4, 4));
      t->SetOutput("Out", "out");
      t->SetAttr("axis", 1);
      if (upscale) t->SetAttr("input_upscale", std::vector<int>{1, 2});
    };
    ExpectArmMatchesHost("concat", setup, {"out"}, upscale ? "scaled upscaled" : "scaled", 1e-6f);
  }
}

TEST(ArmFc, MatchesHostWithBiasAndActivations) {
  for (const std::string act : {"", "relu"}) {
    for (const std::string fused : {"", "relu6"}) {
      for (bool bias : {false, true}) {
        auto setup = [&](OpTester* t) {
          t->SetInput<float>("Input", "x", {3, 4, 5}, RandomFloats(60, 1, -3.f, 3.f));
          t->SetInput<float>("W", "w", {20, 7}, RandomFloats(140, 2));
          if (bias) t->SetInput<float>("Bias", "b", {7}, RandomFloats(7, 3));
          t->SetOutput("Out", "out");
          t->SetAttr("in_num_col_dims", 1);
          t->SetAttr("activation_type", act);
          if (!fused.empty()) {
            t->SetAttr("fuse_activation", fused);
            t->SetAttr("fuse_alpha", 1.f);
          }
        };
        ExpectArmMatchesHost("fc", setup, {"out"},
                             "fc " + act + " " + fused + (bias ? " bias" : ""), 1e-5f);
      }
    }
  }
  auto batch = [](OpTester* t) {
    t->SetInput<float>("Input", "x", {2, 64, 1, 1}, RandomFloats(128, 4));
    t->SetInput<float>("W", "w", {64, 10}, RandomFloats(640, 5));
    t->SetOutput("Out", "out");
    t->SetAttr("in_num_col_dims", 1);
  };
  ExpectArmMatchesHost("fc", batch, {"out"}, "fc [2, 64, 1, 1]", 1e-5f, 2);
}

TEST(ArmFc, EpilogueActivationAfterRelu) {
  for (const std::string act : {"", "relu"}) {
    auto sig = [act](OpTester* t) {
      t->SetInput<float>("Input", "x", {3, 4}, RandomFloats(12, 1, -3.f, 3.f));
      t->SetInput<float>("W", "w", {4, 7}, RandomFloats(28, 2));
      t->SetOutput("Out", "out");
      t->SetAttr("activation_type", act);
      t->SetAttr("fuse_activation", std::string("sigmoid"));
    };
    ExpectArmMatchesHost("fc", sig, {"out"}, "fc " + act + " sigmoid", 1e-5f);
  }
}

}  // namespace
}  // namespace lite
