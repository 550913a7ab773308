// batch_norm (inference) against the textbook formula.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

std::vector<float> Reference(const std::vector<float>& x, const DDim& d,
                             const std::vector<float>& g, const std::vector<float>& b,
                             const std::vector<float>& m, const std::vector<float>& v,
                             float eps) {
  int64_t inner = 1;
  for (size_t i = 2; i < d.size(); ++i) inner *= d[i];
  std::vector<float> y(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    int64_t c = (i / inner) % d[1];
    y[i] = static_cast<float>((x[i] - m[c]) / std::sqrt(double(v[c]) + eps) * g[c] + b[c]);
  }
  return y;
}

struct BnRun {
  OpTester t{"batch_norm"};
  std::vector<float> x, g, b, m, v;
  BnRun(const DDim& d, uint32_t seed) {
    const int64_t c = d[1];
    int64_t n = 1;
    for (auto e : d) n *= e;
    x = RandomFloats(n, seed, -2.f, 2.f);
    g = RandomFloats(c, seed + 1);
    b = RandomFloats(c, seed + 2);
    m = RandomFloats(c, seed + 3);
    v = RandomFloats(c, seed + 4, 1e-5f, 1e-3f);  // small so epsilon matters
    t.SetInput<float>("X", "x", d, x);
    t.SetInput<float>("Scale", "g", {c}, g);
    t.SetInput<float>("Bias", "b", {c}, b);
    t.SetInput<float>("Mean", "m", {c}, m);
    t.SetInput<float>("Variance", "v", {c}, v);
    t.SetOutput("Y", "y");
  }
};

void ExpectNear(const std::vector<float>& a, const std::vector<float>& b, const std::string& w,
                float tol = 1e-3f) {
  ASSERT_EQ(a.size(), b.size()) << w;
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_NEAR(a[i], b[i], tol * (1.f + std::fabs(b[i]))) << w << " at " << i;
  }
}

TEST(BatchNorm, DefaultAndCustomEpsilon) {
  const DDim d = {2, 3, 4, 5};
  {
    BnRun r(d, 1);
    ASSERT_TRUE(r.t.Run().ok());
    EXPECT_EQ(r.t.Get("y").dims(), d);
    ExpectNear(r.t.GetData<float>("y"), Reference(r.x, d, r.g, r.b, r.m, r.v, 1e-5f), "1e-5");
  }
  {
    BnRun r(d, 1);
    r.t.SetAttr("epsilon", 1e-3f);
    ASSERT_TRUE(r.t.Run().ok());
    auto y = r.t.GetData<float>("y");
    ExpectNear(y, Reference(r.x, d, r.g, r.b, r.m, r.v, 1e-3f), "1e-3");
    // And it really differs from the default-epsilon answer.
    auto y_default = Reference(r.x, d, r.g, r.b, r.m, r.v, 1e-5f);
    float max_diff = 0;
    for (size_t i = 0; i < y.size(); ++i) max_diff = std::max(max_diff, std::fabs(y[i] - y_default[i]));
    EXPECT_GT(max_diff, 0.1f);
  }
}

TEST(BatchNorm, RanksTwoAndFiveAndOptionalOutputs) {
  for (const DDim& d : {DDim{4, 6}, DDim{1, 2, 3, 2, 2}}) {
    BnRun r(d, 7);
    r.t.SetOutput("MeanOut", "mo");
    r.t.SetOutput("VarianceOut", "vo");
    r.t.SetOutput("SavedMean", "sm");
    r.t.SetOutput("SavedVariance", "sv");
    ASSERT_TRUE(r.t.Run().ok());
    ExpectNear(r.t.GetData<float>("y"), Reference(r.x, d, r.g, r.b, r.m, r.v, 1e-5f),
               DimsToString(d));
    for (const char* o : {"mo", "vo", "sm", "sv"}) EXPECT_EQ(r.t.Get(o).dims(), (DDim{d[1]}));
    EXPECT_EQ(r.t.GetData<float>("mo"), r.m);
    EXPECT_EQ(r.t.GetData<float>("vo"), r.v);
  }
}

TEST(BatchNorm, InPlaceMeanOutAndPersistableWeightsAndDynamicShape) {
  DDim d = {1, 3, 2, 2};
  BnRun r(d, 9);
  r.t.SetOutput("MeanOut", "m");  // Paddle binds MeanOut to the Mean var
  for (const char* w : {"g", "b", "m", "v"}) {
    r.t.scope()->FindMutableTensor(w)->set_persistable(true);
  }
  ASSERT_TRUE(r.t.Run().ok());
  ExpectNear(r.t.GetData<float>("y"), Reference(r.x, d, r.g, r.b, r.m, r.v, 1e-5f), "first");
  EXPECT_EQ(r.t.GetData<float>("m"), r.m);

  d = {3, 3, 5, 1};
  auto x2 = RandomFloats(15 * 3, 10, -2.f, 2.f);
  Tensor* in = r.t.scope()->FindMutableTensor("x");
  in->Resize(d);
  std::copy(x2.begin(), x2.end(), in->mutable_data<float>());
  ASSERT_TRUE(r.t.Run().ok());
  EXPECT_EQ(r.t.Get("y").dims(), d);
  ExpectNear(r.t.GetData<float>("y"), Reference(x2, d, r.g, r.b, r.m, r.v, 1e-5f), "rerun");
}

TEST(BatchNorm, OptionalScaleAndBias) {
  OpTester t("batch_norm");
  t.SetInput<float>("X", "x", {1, 2, 1, 2}, {1, 2, 3, 4});
  t.SetInput<float>("Mean", "m", {2}, {1, 2});
  t.SetInput<float>("Variance", "v", {2}, {4, 1});
  t.SetOutput("Y", "y");
  t.SetAttr("epsilon", 0.f);
  ASSERT_TRUE(t.Run().ok());
  ExpectNear(t.GetData<float>("y"), {0.f, 0.5f, 1.f, 2.f}, "no scale/bias", 1e-6f);
}

TEST(BatchNorm, RejectsUnsupportedLayoutAndBadShapes) {
  {
    BnRun r({1, 3, 2, 2}, 1);
    r.t.SetAttr("data_layout", std::string("NHWC"));
    EXPECT_EQ(r.t.Run().code(), StatusCode::kUnimplemented);
  }
  {
    OpTester t("batch_norm");
    t.SetInput<float>("X", "x", {1, 3, 2, 2}, std::vector<float>(12, 1.f));
    t.SetInput<float>("Mean", "m", {2}, {0, 0});
    t.SetInput<float>("Variance", "v", {3}, {1, 1, 1});
    t.SetOutput("Y", "y");
    EXPECT_EQ(t.Run().code(), StatusCode::kInvalidArgument);
  }
  {
    OpTester t("batch_norm");  // Variance missing
    t.SetInput<float>("X", "x", {1, 3}, {1, 2, 3});
    t.SetInput<float>("Mean", "m", {3}, {0, 0, 0});
    t.SetOutput("Y", "y");
    EXPECT_FALSE(t.Run().ok());
  }
}

}  // namespace
}  // namespace lite
