#include <cmath>

#include <gtest/gtest.h>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

TEST(Activation, ReluTanhSigmoidMatchReference) {
  const std::vector<float> x = {-2.f, -0.5f, 0.f, 0.25f, 3.f, 7.f};
  struct Case {
    const char* op;
    float (*ref)(float);
  } cases[] = {
      {"relu", [](float v) { return v > 0 ? v : 0.f; }},
      {"tanh", [](float v) { return std::tanh(v); }},
      {"sigmoid", [](float v) { return 1.f / (1.f + std::exp(-v)); }},
  };
  for (const auto& c : cases) {
    OpTester t(c.op);
    t.SetInput<float>("X", "x", {2, 3}, x);
    t.SetOutput("Out", "out");
    ASSERT_TRUE(t.Run().ok()) << c.op;
    auto out = t.GetData<float>("out");
    ASSERT_EQ(t.Get("out").dims(), (DDim{2, 3}));
    for (size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(out[i], c.ref(x[i]), 1e-6) << c.op;
  }
}

TEST(Activation, ReinfersShapeWhenInputDimsChange) {
  OpTester t("relu");
  Tensor* in = t.SetInput<float>("X", "x", {4}, {1, -1, 2, -2});
  t.SetOutput("Out", "out");
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dims(), (DDim{4}));
  in->Resize({2, 1});
  float* p = in->mutable_data<float>();
  p[0] = -3;
  p[1] = 5;
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dims(), (DDim{2, 1}));
  EXPECT_EQ(t.GetData<float>("out"), (std::vector<float>{0, 5}));
}

}  // namespace
}  // namespace lite
