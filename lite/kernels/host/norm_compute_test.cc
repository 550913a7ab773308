// instance_norm, layer_norm and lrn against naive references.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

void ExpectNear(const std::vector<float>& a, const std::vector<float>& b, const std::string& w,
                float tol = 1e-4f) {
  ASSERT_EQ(a.size(), b.size()) << w;
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_NEAR(a[i], b[i], tol * (1.f + std::fabs(b[i]))) << w << " at " << i;
  }
}

// Normalises `count` rows of `len` values: returns y, and row mean / var.
void NaiveRows(const std::vector<float>& x, int64_t rows, int64_t len, float eps,
               std::vector<double>* mean, std::vector<double>* var, std::vector<double>* norm) {
  mean->assign(rows, 0);
  var->assign(rows, 0);
  norm->assign(x.size(), 0);
  for (int64_t r = 0; r < rows; ++r) {
    double s = 0, ss = 0;
    for (int64_t j = 0; j < len; ++j) s += x[r * len + j];
    double m = s / len;
    for (int64_t j = 0; j < len; ++j) ss += (x[r * len + j] - m) * (x[r * len + j] - m);
    (*mean)[r] = m;
    (*var)[r] = ss / len;
    for (int64_t j = 0; j < len; ++j) {
      (*norm)[r * len + j] = (x[r * len + j] - m) / std::sqrt(ss / len + eps);
    }
  }
}

TEST(InstanceNorm, MatchesNaiveWithSavedStats) {
  for (bool affine : {true, false}) {
    const DDim d = {2, 3, 4, 5};
    auto x = RandomFloats(2 * 3 * 20, 1, -3.f, 3.f);
    auto g = RandomFloats(3, 2), b = RandomFloats(3, 3);
    OpTester t("instance_norm");
    t.SetInput<float>("X", "x", d, x);
    if (affine) {
      t.SetInput<float>("Scale", "g", {3}, g);
      t.SetInput<float>("Bias", "b", {3}, b);
    }
    t.SetOutput("Y", "y");
    t.SetOutput("SavedMean", "sm");
    t.SetOutput("SavedVariance", "sv");
    t.SetAttr("epsilon", 1e-3f);
    ASSERT_TRUE(t.Run().ok());
    std::vector<double> mean, var, norm;
    NaiveRows(x, 6, 20, 1e-3f, &mean, &var, &norm);
    std::vector<float> ref(x.size()), rm(6), rv(6);
    for (size_t i = 0; i < x.size(); ++i) {
      int c = (i / 20) % 3;
      ref[i] = static_cast<float>(affine ? norm[i] * g[c] + b[c] : norm[i]);
    }
    for (int i = 0; i < 6; ++i) {
      rm[i] = static_cast<float>(mean[i]);
      rv[i] = static_cast<float>(1.0 / std::sqrt(var[i] + 1e-3));
    }
    EXPECT_EQ(t.Get("y").dims(), d);
    EXPECT_EQ(t.Get("sm").dims(), (DDim{6}));
    ExpectNear(t.GetData<float>("y"), ref, "y");
    ExpectNear(t.GetData<float>("sm"), rm, "saved mean");
    ExpectNear(t.GetData<float>("sv"), rv, "saved inv std");
  }
}

TEST(InstanceNorm, DynamicShapeAndErrors) {
  OpTester t("instance_norm");
  Tensor* in = t.SetInput<float>("X", "x", {1, 2, 3}, RandomFloats(6, 4));
  t.SetOutput("Y", "y");
  ASSERT_TRUE(t.Run().ok());
  auto x2 = RandomFloats(3 * 2 * 7, 5);
  in->Resize({3, 2, 7});
  std::copy(x2.begin(), x2.end(), in->mutable_data<float>());
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("y").dims(), (DDim{3, 2, 7}));
  std::vector<double> mean, var, norm;
  NaiveRows(x2, 6, 7, 1e-5f, &mean, &var, &norm);
  ExpectNear(t.GetData<float>("y"), std::vector<float>(norm.begin(), norm.end()), "rerun");

  OpTester bad("instance_norm");
  bad.SetInput<float>("X", "x", {1, 2, 3}, RandomFloats(6, 4));
  bad.SetInput<float>("Scale", "g", {3}, {1, 1, 1});
  bad.SetOutput("Y", "y");
  EXPECT_EQ(bad.Run().code(), StatusCode::kInvalidArgument);
}

TEST(LayerNorm, MatchesNaiveForSeveralAxes) {
  const DDim d = {2, 3, 4, 5};
  for (int axis : {1, 2, 3}) {
    int64_t left = 1, right = 1;
    for (int i = 0; i < 4; ++i) (i < axis ? left : right) *= d[i];
    auto x = RandomFloats(120, 10 + axis, -2.f, 5.f);
    auto g = RandomFloats(right, 20), b = RandomFloats(right, 21);
    OpTester t("layer_norm");
    t.SetInput<float>("X", "x", d, x);
    t.SetInput<float>("Scale", "g", {right}, g);
    t.SetInput<float>("Bias", "b", {right}, b);
    t.SetOutput("Y", "y");
    t.SetOutput("Mean", "m");
    t.SetOutput("Variance", "v");
    t.SetAttr("begin_norm_axis", axis);
    ASSERT_TRUE(t.Run().ok()) << axis;
    std::vector<double> mean, var, norm;
    NaiveRows(x, left, right, 1e-5f, &mean, &var, &norm);
    std::vector<float> ref(120);
    for (size_t i = 0; i < ref.size(); ++i) {
      ref[i] = static_cast<float>(norm[i] * g[i % right] + b[i % right]);
    }
    EXPECT_EQ(t.Get("y").dims(), d);
    EXPECT_EQ(t.Get("m").dims(), DDim(d.begin(), d.begin() + axis));
    EXPECT_EQ(t.Get("v").numel(), left);
    ExpectNear(t.GetData<float>("y"), ref, "axis " + std::to_string(axis));
    ExpectNear(t.GetData<float>("m"), std::vector<float>(mean.begin(), mean.end()), "mean");
    ExpectNear(t.GetData<float>("v"), std::vector<float>(var.begin(), var.end()), "var");
  }
}

TEST(LayerNorm, NoAffineDefaultAxisDynamicShapeAndErrors) {
  OpTester t("layer_norm");
  Tensor* in = t.SetInput<float>("X", "x", {2, 8}, RandomFloats(16, 30));
  t.SetOutput("Y", "y");
  ASSERT_TRUE(t.Run().ok());
  auto x2 = RandomFloats(5 * 8, 31);
  in->Resize({5, 8});
  std::copy(x2.begin(), x2.end(), in->mutable_data<float>());
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("y").dims(), (DDim{5, 8}));
  std::vector<double> mean, var, norm;
  NaiveRows(x2, 5, 8, 1e-5f, &mean, &var, &norm);
  ExpectNear(t.GetData<float>("y"), std::vector<float>(norm.begin(), norm.end()), "rerun");

  for (int axis : {0, 2, -1}) {
    OpTester bad("layer_norm");
    bad.SetInput<float>("X", "x", {2, 8}, RandomFloats(16, 30));
    bad.SetOutput("Y", "y");
    bad.SetAttr("begin_norm_axis", axis);
    EXPECT_EQ(bad.Run().code(), StatusCode::kInvalidArgument) << axis;
  }
  OpTester bad("layer_norm");
  bad.SetInput<float>("X", "x", {2, 8}, RandomFloats(16, 30));
  bad.SetInput<float>("Scale", "g", {2}, {1, 1});
  bad.SetOutput("Y", "y");
  EXPECT_EQ(bad.Run().code(), StatusCode::kInvalidArgument);
}

// Paddle's documented formula: sum over j in [max(0, c - n/2), min(C-1, c + n/2)].
std::vector<float> NaiveLrn(const std::vector<float>& x, const DDim& d, int n, float k,
                            float alpha, float beta, std::vector<float>* mid) {
  const int64_t C = d[1], plane = d[2] * d[3];
  std::vector<float> out(x.size());
  mid->assign(x.size(), 0.f);
  for (int64_t b = 0; b < d[0]; ++b)
    for (int64_t c = 0; c < C; ++c)
      for (int64_t i = 0; i < plane; ++i) {
        double s = 0;
        for (int64_t j = std::max<int64_t>(0, c - n / 2); j <= std::min<int64_t>(C - 1, c + n / 2);
             ++j) {
          double v = x[(b * C + j) * plane + i];
          s += v * v;
        }
        const int64_t idx = (b * C + c) * plane + i;
        double m = k + alpha * s;
        (*mid)[idx] = static_cast<float>(m);
        out[idx] = static_cast<float>(x[idx] * std::pow(m, -beta));
      }
  return out;
}

TEST(Lrn, DefaultsAndCustomAttributes) {
  const DDim d = {2, 7, 3, 2};
  auto x = RandomFloats(2 * 7 * 6, 40, -60.f, 60.f);  // large so alpha * sum matters
  {
    OpTester t("lrn");
    t.SetInput<float>("X", "x", d, x);
    t.SetOutput("Out", "out");
    t.SetOutput("MidOut", "mid");
    ASSERT_TRUE(t.Run().ok());
    std::vector<float> mid;
    auto ref = NaiveLrn(x, d, 5, 2.f, 1e-4f, 0.75f, &mid);
    ExpectNear(t.GetData<float>("out"), ref, "defaults");
    ExpectNear(t.GetData<float>("mid"), mid, "mid");
    // alpha must not be divided by n: that would change the answer.
    std::vector<float> mid_div;
    auto wrong = NaiveLrn(x, d, 5, 2.f, 1e-4f / 5, 0.75f, &mid_div);
    float max_diff = 0;
    for (size_t i = 0; i < ref.size(); ++i) max_diff = std::max(max_diff, std::fabs(ref[i] - wrong[i]));
    EXPECT_GT(max_diff, 1.f);
  }
  {
    OpTester t("lrn");
    t.SetInput<float>("X", "x", d, x);
    t.SetOutput("Out", "out");
    t.SetAttr("n", 3);
    t.SetAttr("k", 1.f);
    t.SetAttr("alpha", 1e-3f);
    t.SetAttr("beta", 1.f);
    ASSERT_TRUE(t.Run().ok());
    std::vector<float> mid;
    ExpectNear(t.GetData<float>("out"), NaiveLrn(x, d, 3, 1.f, 1e-3f, 1.f, &mid), "custom");
  }
}

TEST(Lrn, ErrorsAndDynamicShape) {
  OpTester t("lrn");
  Tensor* in = t.SetInput<float>("X", "x", {1, 3, 2, 2}, RandomFloats(12, 50));
  t.SetOutput("Out", "out");
  ASSERT_TRUE(t.Run().ok());
  auto x2 = RandomFloats(2 * 3 * 3 * 1, 51, -30.f, 30.f);
  in->Resize({2, 3, 3, 1});
  std::copy(x2.begin(), x2.end(), in->mutable_data<float>());
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dims(), (DDim{2, 3, 3, 1}));
  std::vector<float> mid;
  ExpectNear(t.GetData<float>("out"), NaiveLrn(x2, {2, 3, 3, 1}, 5, 2.f, 1e-4f, .75f, &mid),
             "rerun");

  {
    OpTester bad("lrn");
    bad.SetInput<float>("X", "x", {1, 3, 2, 2}, RandomFloats(12, 50));
    bad.SetOutput("Out", "out");
    bad.SetAttr("n", 4);
    EXPECT_EQ(bad.Run().code(), StatusCode::kInvalidArgument);
  }
  {
    OpTester bad("lrn");
    bad.SetInput<float>("X", "x", {1, 3, 2, 2}, RandomFloats(12, 50));
    bad.SetOutput("Out", "out");
    bad.SetAttr("data_format", std::string("NHWC"));
    EXPECT_EQ(bad.Run().code(), StatusCode::kUnimplemented);
  }
  {
    OpTester bad("lrn");
    bad.SetInput<float>("X", "x", {3, 4}, RandomFloats(12, 50));
    bad.SetOutput("Out", "out");
    EXPECT_EQ(bad.Run().code(), StatusCode::kInvalidArgument);
  }
}

}  // namespace
}  // namespace lite
