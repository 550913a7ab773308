#include <cmath>
#include <functional>
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

template <typename T>
std::vector<T> Iota(int64_t n, T start, T step) {
  std::vector<T> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = start + static_cast<T>(i) * step;
  return v;
}

// Numpy broadcasting of x and y whose dims the test gives already aligned to
// the output rank (the case's expected interpretation of `axis`).
template <typename T>
std::vector<T> RefBroadcast(const std::vector<T>& x, const DDim& xd,
                            const std::vector<T>& y, const DDim& yd,
                            const std::function<T(T, T)>& f, DDim* od) {
  od->resize(xd.size());
  for (size_t i = 0; i < xd.size(); ++i) (*od)[i] = std::max(xd[i], yd[i]);
  const int64_t n = Product(*od);
  std::vector<T> out(n);
  for (int64_t i = 0; i < n; ++i) {
    int64_t rem = i, xi = 0, yi = 0, xs = 1, ys = 1;
    for (size_t d = od->size(); d-- > 0;) {
      const int64_t c = rem % (*od)[d];
      rem /= (*od)[d];
      if (xd[d] != 1) xi += c * xs;
      if (yd[d] != 1) yi += c * ys;
      xs *= xd[d];
      ys *= yd[d];
    }
    out[i] = f(x[xi], y[yi]);
  }
  return out;
}

struct BCase {
  DDim x, y;
  int axis;
  DDim x_aligned, y_aligned;
};

const BCase kBroadcastCases[] = {
    {{2, 3, 4, 5}, {2, 3, 4, 5}, -1, {2, 3, 4, 5}, {2, 3, 4, 5}},  // same shape
    {{2, 3, 4, 5}, {4, 5}, -1, {2, 3, 4, 5}, {1, 1, 4, 5}},        // trailing
    {{2, 3, 4, 5}, {5}, -1, {2, 3, 4, 5}, {1, 1, 1, 5}},
    {{2, 3, 4, 5}, {3}, 1, {2, 3, 4, 5}, {1, 3, 1, 1}},            // per channel
    {{2, 3, 4, 5}, {3, 4}, 1, {2, 3, 4, 5}, {1, 3, 4, 1}},
    {{2, 3, 4, 5}, {3, 1, 1}, 1, {2, 3, 4, 5}, {1, 3, 1, 1}},
    {{2, 3, 4, 5}, {3, 1}, 1, {2, 3, 4, 5}, {1, 3, 1, 1}},         // trimmed 1s
    {{2, 3, 4}, {4, 1}, 2, {2, 3, 4}, {1, 1, 4}},                  // trim needed
    {{2, 3}, {3, 1, 1}, 1, {1, 2, 3}, {3, 1, 1}},                  // X smaller
    {{2, 3, 4, 5}, {2, 3, 1, 1}, -1, {2, 3, 4, 5}, {2, 3, 1, 1}},  // SE gate
    {{2, 3, 4, 5}, {1, 3, 1, 1}, -1, {2, 3, 4, 5}, {1, 3, 1, 1}},
    {{2, 3, 4, 5}, {1}, -1, {2, 3, 4, 5}, {1, 1, 1, 1}},           // scalar
    {{2, 3, 4, 5}, {}, -1, {2, 3, 4, 5}, {1, 1, 1, 1}},            // 0-D
    {{2, 3, 4, 5}, {2, 3}, 0, {2, 3, 4, 5}, {2, 3, 1, 1}},
    {{4, 5}, {2, 3, 4, 5}, -1, {1, 1, 4, 5}, {2, 3, 4, 5}},        // X smaller
    {{3}, {2, 3, 4}, 1, {1, 3, 1}, {2, 3, 4}},
    {{2, 3, 1, 1}, {2, 3, 4, 5}, -1, {2, 3, 1, 1}, {2, 3, 4, 5}},
    {{2, 1, 4}, {1, 3, 1}, -1, {2, 1, 4}, {1, 3, 1}},              // both ways
    {{2, 3, 1, 5}, {2, 1, 4, 1}, -1, {2, 3, 1, 5}, {2, 1, 4, 1}},
    {{2, 3, 4, 5}, {3, 1, 1, 1}, 1, {2, 3, 4, 5}, {1, 3, 1, 1}},   // legacy axis
};

const std::pair<const char*, std::function<float(float, float)>> kFloatOps[] = {
    {"elementwise_add", [](float a, float b) { return a + b; }},
    {"elementwise_sub", [](float a, float b) { return a - b; }},
    {"elementwise_mul", [](float a, float b) { return a * b; }},
    {"elementwise_div", [](float a, float b) { return a / b; }},
    {"elementwise_max", [](float a, float b) { return std::max(a, b); }},
    {"elementwise_min", [](float a, float b) { return std::min(a, b); }},
    {"elementwise_pow", [](float a, float b) { return std::pow(a, b); }},
};

TEST(Elementwise, AllOpsAllBroadcastCasesFloat) {
  for (const auto& c : kBroadcastCases) {
    for (const auto& op : kFloatOps) {
      const auto x = Iota<float>(Product(c.x), 0.5f, 0.37f);
      const auto y = Iota<float>(Product(c.y), 1.25f, 0.11f);
      OpTester t(op.first);
      t.SetInput<float>("X", "x", c.x, x);
      t.SetInput<float>("Y", "y", c.y, y);
      t.SetOutput("Out", "out");
      t.SetAttr("axis", c.axis);
      const std::string what = std::string(op.first) + " x=" + DimsToString(c.x) +
                               " y=" + DimsToString(c.y) + " axis=" + std::to_string(c.axis);
      ASSERT_TRUE(t.Run().ok()) << what;
      DDim od;
      auto ref = RefBroadcast<float>(x, c.x_aligned, y, c.y_aligned, op.second, &od);
      ASSERT_EQ(t.Get("out").dims(), od) << what;
      auto out = t.GetData<float>("out");
      ASSERT_EQ(out.size(), ref.size());
      for (size_t i = 0; i < ref.size(); ++i) {
        ASSERT_NEAR(out[i], ref[i], 1e-5f * std::max(1.f, std::fabs(ref[i]))) << what << " i=" << i;
      }
    }
  }
}

TEST(Elementwise, DefaultAxisIsMinusOne) {
  OpTester t("elementwise_add");
  t.SetInput<float>("X", "x", {2, 3}, {0, 1, 2, 3, 4, 5});
  t.SetInput<float>("Y", "y", {3}, {10, 20, 30});
  t.SetOutput("Out", "out");
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.GetData<float>("out"), (std::vector<float>{10, 21, 32, 13, 24, 35}));
}

template <typename T>
void CheckIntCase(const char* op, const std::function<T(T, T)>& f) {
  for (const auto& c : kBroadcastCases) {
    std::vector<T> x = Iota<T>(Product(c.x), static_cast<T>(-7), static_cast<T>(3));
    std::vector<T> y = Iota<T>(Product(c.y), static_cast<T>(1), static_cast<T>(1));
    OpTester t(op);
    t.SetInput<T>("X", "x", c.x, x);
    t.SetInput<T>("Y", "y", c.y, y);
    t.SetOutput("Out", "out");
    t.SetAttr("axis", c.axis);
    ASSERT_TRUE(t.Run().ok()) << op;
    EXPECT_EQ(t.Get("out").dtype(), DataTypeOf<T>());
    DDim od;
    auto ref = RefBroadcast<T>(x, c.x_aligned, y, c.y_aligned, f, &od);
    ASSERT_EQ(t.Get("out").dims(), od) << op;
    EXPECT_EQ(t.GetData<T>("out"), ref) << op << " x=" << DimsToString(c.x)
                                       << " y=" << DimsToString(c.y);
  }
}

TEST(Elementwise, Int64AndInt32) {
  CheckIntCase<int64_t>("elementwise_add", [](int64_t a, int64_t b) { return a + b; });
  CheckIntCase<int64_t>("elementwise_sub", [](int64_t a, int64_t b) { return a - b; });
  CheckIntCase<int64_t>("elementwise_mul", [](int64_t a, int64_t b) { return a * b; });
  CheckIntCase<int64_t>("elementwise_div", [](int64_t a, int64_t b) { return a / b; });
  CheckIntCase<int64_t>("elementwise_max", [](int64_t a, int64_t b) { return std::max(a, b); });
  CheckIntCase<int32_t>("elementwise_add", [](int32_t a, int32_t b) { return a + b; });
  CheckIntCase<int32_t>("elementwise_mul", [](int32_t a, int32_t b) { return a * b; });
  CheckIntCase<int32_t>("elementwise_div", [](int32_t a, int32_t b) { return a / b; });
  CheckIntCase<int32_t>("elementwise_min", [](int32_t a, int32_t b) { return std::min(a, b); });
}

TEST(Elementwise, IntPowAndDivTruncate) {
  OpTester t("elementwise_pow");
  t.SetInput<int64_t>("X", "x", {4}, {2, 3, -2, 5});
  t.SetInput<int64_t>("Y", "y", {4}, {10, 3, 3, 0});
  t.SetOutput("Out", "out");
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.GetData<int64_t>("out"), (std::vector<int64_t>{1024, 27, -8, 1}));

  OpTester d("elementwise_div");
  d.SetInput<int32_t>("X", "x", {3}, {7, -7, 6});
  d.SetInput<int32_t>("Y", "y", {1}, {2});
  d.SetOutput("Out", "out");
  ASSERT_TRUE(d.Run().ok());
  EXPECT_EQ(d.GetData<int32_t>("out"), (std::vector<int32_t>{3, -3, 3}));
}

TEST(Elementwise, IntDivisionByZeroFails) {
  OpTester t("elementwise_div");
  t.SetInput<int64_t>("X", "x", {3}, {1, 2, 3});
  t.SetInput<int64_t>("Y", "y", {3}, {1, 0, 1});
  t.SetOutput("Out", "out");
  EXPECT_FALSE(t.Run().ok());
}

float HardSigmoid(float v, float slope, float offset) {
  return std::min(std::max(slope * v + offset, 0.f), 1.f);
}

TEST(Elementwise, YActivationSqueezeExcitationGate) {
  const DDim xd = {2, 3, 2, 2}, yd = {2, 3, 1, 1};
  const auto x = Iota<float>(24, -3.f, 0.25f);
  const auto y = Iota<float>(6, -4.f, 1.7f);
  for (int explicit_attrs = 0; explicit_attrs < 2; ++explicit_attrs) {
    OpTester t("elementwise_mul");
    t.SetInput<float>("X", "x", xd, x);
    t.SetInput<float>("Y", "y", yd, y);
    t.SetOutput("Out", "out");
    t.SetAttr("axis", -1);
    t.SetAttr("y_activation", std::string("hard_sigmoid"));
    const float slope = explicit_attrs ? 0.1666667f : 0.2f;
    const float offset = 0.5f;
    if (explicit_attrs) {
      t.SetAttr("y_alpha", slope);
      t.SetAttr("y_beta", offset);
    }
    ASSERT_TRUE(t.Run().ok());
    DDim od;
    auto ref = RefBroadcast<float>(
        x, xd, y, yd,
        [&](float a, float b) { return a * HardSigmoid(b, slope, offset); }, &od);
    auto out = t.GetData<float>("out");
    ASSERT_EQ(t.Get("out").dims(), od);
    for (size_t i = 0; i < ref.size(); ++i) EXPECT_NEAR(out[i], ref[i], 1e-5) << i;
  }
}

TEST(Elementwise, YActivationPlusOutputActivation) {
  OpTester t("elementwise_add");
  t.SetInput<float>("X", "x", {4}, {-10.f, -1.f, 2.f, 10.f});
  t.SetInput<float>("Y", "y", {4}, {0.f, 1.f, -1.f, 3.f});
  t.SetOutput("Out", "out");
  t.SetAttr("y_activation", std::string("relu"));
  t.SetAttr("fuse_activation", std::string("relu6"));
  t.SetAttr("fuse_alpha", 6.f);
  ASSERT_TRUE(t.Run().ok());
  // relu6(x + relu(y))
  EXPECT_EQ(t.GetData<float>("out"), (std::vector<float>{0.f, 0.f, 2.f, 6.f}));
}

TEST(Elementwise, FusedOutputActivation) {
  const auto x = Iota<float>(12, -3.f, 0.5f);
  const auto y = Iota<float>(3, -1.f, 0.75f);
  struct Act {
    const char* name;
    float alpha, beta, gamma;
    std::function<float(float)> f;
  } acts[] = {
      {"relu", 0, 0, 0, [](float v) { return std::max(v, 0.f); }},
      {"leaky_relu", 0.1f, 0, 0, [](float v) { return v > 0 ? v : 0.1f * v; }},
      {"hard_swish", 6.f, 6.f, 3.f,
       [](float v) { return v * std::min(std::max(v + 3.f, 0.f), 6.f) / 6.f; }},
      {"sigmoid", 0, 0, 0, [](float v) { return 1.f / (1.f + std::exp(-v)); }},
  };
  for (const auto& a : acts) {
    OpTester t("elementwise_add");
    t.SetInput<float>("X", "x", {4, 3}, x);
    t.SetInput<float>("Y", "y", {3}, y);
    t.SetOutput("Out", "out");
    t.SetAttr("fuse_activation", std::string(a.name));
    t.SetAttr("fuse_alpha", a.alpha);
    t.SetAttr("fuse_beta", a.beta);
    t.SetAttr("fuse_gamma", a.gamma);
    ASSERT_TRUE(t.Run().ok()) << a.name;
    auto out = t.GetData<float>("out");
    for (int i = 0; i < 12; ++i) {
      EXPECT_NEAR(out[i], a.f(x[i] + y[i % 3]), 1e-5) << a.name << " " << i;
    }
  }
}

TEST(Elementwise, ReinfersWhenDimsChange) {
  OpTester t("elementwise_mul");
  Tensor* x = t.SetInput<float>("X", "x", {1, 2, 1, 1}, {2, 3});
  t.SetInput<float>("Y", "y", {2}, {10, 100});
  t.SetOutput("Out", "out");
  t.SetAttr("axis", 1);
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.GetData<float>("out"), (std::vector<float>{20, 300}));
  x->Resize({1, 2, 1, 2});
  float* p = x->mutable_data<float>();
  for (int i = 0; i < 4; ++i) p[i] = static_cast<float>(i + 1);
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dims(), (DDim{1, 2, 1, 2}));
  EXPECT_EQ(t.GetData<float>("out"), (std::vector<float>{10, 20, 300, 400}));
}

Status RunBinary(const char* op, const DDim& xd, const DDim& yd, int axis,
                 const std::map<std::string, std::string>& str_attrs = {}) {
  OpTester t(op);
  t.SetInput<float>("X", "x", xd, std::vector<float>(Product(xd), 1.f));
  t.SetInput<float>("Y", "y", yd, std::vector<float>(Product(yd), 1.f));
  t.SetOutput("Out", "out");
  t.SetAttr("axis", axis);
  for (const auto& kv : str_attrs) t.SetAttr(kv.first, kv.second);
  return t.Run();
}

TEST(Elementwise, Errors) {
  EXPECT_FALSE(RunBinary("elementwise_add", {2, 3}, {4}, -1).ok());
  EXPECT_FALSE(RunBinary("elementwise_add", {2, 3, 4}, {2, 5, 4}, -1).ok());
  EXPECT_FALSE(RunBinary("elementwise_add", {2, 3, 4}, {3}, 2).ok());   // 4 vs 3
  EXPECT_FALSE(RunBinary("elementwise_add", {2, 3, 4}, {3}, 3).ok());   // axis range
  EXPECT_FALSE(RunBinary("elementwise_add", {2, 3, 4}, {3}, -2).ok());
  EXPECT_FALSE(RunBinary("elementwise_add", {2, 3}, {3, 4}, 1).ok());   // overflows
  Status s = RunBinary("elementwise_add", {2, 3}, {3}, -1, {{"fuse_activation", "softsign"}});
  EXPECT_EQ(s.code(), StatusCode::kUnimplemented);
  s = RunBinary("elementwise_mul", {2, 3}, {3}, -1, {{"y_activation", "softsign"}});
  EXPECT_EQ(s.code(), StatusCode::kUnimplemented);
  EXPECT_TRUE(RunBinary("elementwise_add", {2, 3}, {3}, -1).ok());

  OpTester t("elementwise_add");  // mixed dtypes
  t.SetInput<float>("X", "x", {2}, {1, 2});
  t.SetInput<int64_t>("Y", "y", {2}, {1, 2});
  t.SetOutput("Out", "out");
  EXPECT_FALSE(t.Run().ok());

  OpTester u("elementwise_add");  // activation on an int op
  u.SetInput<int64_t>("X", "x", {2}, {1, 2});
  u.SetInput<int64_t>("Y", "y", {2}, {1, 2});
  u.SetOutput("Out", "out");
  u.SetAttr("fuse_activation", std::string("relu"));
  EXPECT_EQ(u.Run().code(), StatusCode::kUnimplemented);
}

}  // namespace
}  // namespace lite
