#include <cmath>
#include <functional>
#include <limits>
#include <string>

#include <gtest/gtest.h>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

// ---- reference reduction: visits every element, maps it to its output ----

template <typename T>
std::vector<double> RefReduce(const std::vector<T>& x, const DDim& d,
                              const std::vector<bool>& red, const std::string& kind) {
  const size_t rank = d.size();
  int64_t on = 1, count = 1;
  for (size_t i = 0; i < rank; ++i) (red[i] ? count : on) *= d[i];
  double init = 0;
  if (kind == "prod") init = 1;
  if (kind == "max") init = -std::numeric_limits<double>::infinity();
  if (kind == "min") init = std::numeric_limits<double>::infinity();
  std::vector<double> out(on, init);
  for (size_t e = 0; e < x.size(); ++e) {
    int64_t rem = e, oi = 0, os = 1;
    for (size_t i = rank; i-- > 0;) {
      const int64_t c = rem % d[i];
      rem /= d[i];
      if (!red[i]) {
        oi += c * os;
        os *= d[i];
      }
    }
    const double v = static_cast<double>(x[e]);
    if (kind == "sum" || kind == "mean") out[oi] += v;
    if (kind == "prod") out[oi] *= v;
    if (kind == "max") out[oi] = std::max(out[oi], v);
    if (kind == "min") out[oi] = std::min(out[oi], v);
  }
  if (kind == "mean") {
    for (auto& v : out) v /= count;
  }
  return out;
}

struct RCase {
  DDim x;
  std::vector<int64_t> dim;
  bool keep_dim;
  bool reduce_all;
  DDim expect;
  std::vector<bool> reduced;
};

const RCase kCases[] = {
    {{2, 3, 4}, {1}, false, false, {2, 4}, {false, true, false}},
    {{2, 3, 4}, {1}, true, false, {2, 1, 4}, {false, true, false}},
    {{2, 3, 4}, {-1}, false, false, {2, 3}, {false, false, true}},
    {{2, 3, 4}, {0, 2}, false, false, {3}, {true, false, true}},
    {{2, 3, 4}, {0, -1}, true, false, {1, 3, 1}, {true, false, true}},
    {{2, 3, 4}, {-3, 1}, false, false, {4}, {true, true, false}},
    {{2, 3, 4}, {0}, false, true, {1}, {true, true, true}},
    {{2, 3, 4}, {1}, true, true, {1, 1, 1}, {true, true, true}},
    {{2, 3, 4}, {0, 1, 2}, false, false, {1}, {true, true, true}},
    {{2, 3, 4, 5}, {1, 3}, false, false, {2, 4}, {false, true, false, true}},
    {{2, 1, 3, 5}, {2}, false, false, {2, 1, 5}, {false, false, true, false}},
    {{6}, {0}, false, false, {1}, {true}},
};

template <typename T>
std::vector<T> MakeData(int64_t n) {
  std::vector<T> v(n);
  for (int64_t i = 0; i < n; ++i) {
    v[i] = static_cast<T>(((i * 7) % 11) - 4);
    if (std::is_floating_point_v<T>) v[i] = static_cast<T>(v[i] * 0.37 + 0.1);
  }
  return v;
}

template <typename T>
void CheckReduce(const std::string& kind) {
  for (const auto& c : kCases) {
    const auto x = MakeData<T>(Product(c.x));
    OpTester t("reduce_" + kind);
    t.SetInput<T>("X", "x", c.x, x);
    t.SetOutput("Out", "out");
    t.SetAttr("dim", c.dim);
    t.SetAttr("keep_dim", c.keep_dim);
    t.SetAttr("reduce_all", c.reduce_all);
    const std::string what = kind + " x=" + DimsToString(c.x) + " keep=" +
                             std::to_string(c.keep_dim) + " all=" +
                             std::to_string(c.reduce_all);
    Status s = t.Run();
    ASSERT_TRUE(s.ok()) << what << ": " << s.ToString();
    EXPECT_EQ(t.Get("out").dims(), c.expect) << what;
    EXPECT_EQ(t.Get("out").dtype(), DataTypeOf<T>()) << what;
    auto ref = RefReduce(x, c.x, c.reduced, kind);
    auto out = t.GetData<T>("out");
    ASSERT_EQ(out.size(), ref.size()) << what;
    for (size_t i = 0; i < ref.size(); ++i) {
      if (std::is_floating_point_v<T>) {
        EXPECT_NEAR(out[i], ref[i], 1e-4 * std::max(1.0, std::fabs(ref[i]))) << what << " " << i;
      } else {
        // integer mean truncates
        EXPECT_EQ(static_cast<double>(out[i]),
                  kind == "mean" ? std::trunc(ref[i]) : ref[i]) << what << " " << i;
      }
    }
  }
}

TEST(Reduce, FloatAllKinds) {
  for (const char* k : {"sum", "mean", "max", "min", "prod"}) CheckReduce<float>(k);
}

TEST(Reduce, Int64AndInt32) {
  for (const char* k : {"sum", "max", "min", "mean"}) CheckReduce<int64_t>(k);
  for (const char* k : {"sum", "max", "min", "prod"}) CheckReduce<int32_t>(k);
}

TEST(Reduce, DefaultsReduceDimZero) {
  OpTester t("reduce_sum");
  t.SetInput<float>("X", "x", {2, 3}, {1, 2, 3, 4, 5, 6});
  t.SetOutput("Out", "out");
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dims(), (DDim{3}));
  EXPECT_EQ(t.GetData<float>("out"), (std::vector<float>{5, 7, 9}));
}

TEST(Reduce, EmptyDimListReducesAll) {
  OpTester t("reduce_max");
  t.SetInput<float>("X", "x", {2, 3}, {1, 9, 3, 4, 5, 6});
  t.SetOutput("Out", "out");
  t.SetAttr("dim", std::vector<int32_t>{});
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dims(), (DDim{1}));
  EXPECT_EQ(t.GetData<float>("out"), (std::vector<float>{9}));
}

TEST(Reduce, OutDtypeBoolToInt64) {
  OpTester t("reduce_sum");
  t.SetInput<bool>("X", "x", {2, 3}, {true, false, true, true, true, false});
  t.SetOutput("Out", "out");
  t.SetAttr("dim", std::vector<int32_t>{1});
  t.SetAttr("out_dtype", 3);
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dtype(), DataType::kInt64);
  EXPECT_EQ(t.GetData<int64_t>("out"), (std::vector<int64_t>{2, 2}));
}

TEST(Reduce, Errors) {
  OpTester t("reduce_sum");
  t.SetInput<float>("X", "x", {2, 3}, std::vector<float>(6, 1.f));
  t.SetOutput("Out", "out");
  t.SetAttr("dim", std::vector<int32_t>{2});
  EXPECT_FALSE(t.Run().ok());
  OpTester u("reduce_mean");
  u.SetInput<float>("X", "x", {2, 3}, std::vector<float>(6, 1.f));
  u.SetOutput("Out", "out");
  u.SetAttr("dim", std::vector<int32_t>{-3});
  EXPECT_FALSE(u.Run().ok());
  OpTester v("reduce_sum");
  v.SetInput<float>("X", "x", {2, 3}, std::vector<float>(6, 1.f));
  v.SetOutput("Out", "out");
  v.SetAttr("out_dtype", 4);  // FP16
  EXPECT_EQ(v.Run().code(), StatusCode::kUnimplemented);
}

// ---- sum / mean ----

TEST(Sum, ListOfTensors) {
  OpTester t("sum");
  t.SetInput<float>("X", "a", {2, 2}, {1, 2, 3, 4});
  t.SetInput<float>("X", "b", {2, 2}, {10, 20, 30, 40});
  t.SetInput<float>("X", "c", {2, 2}, {0.5f, 0.5f, 0.5f, 0.5f});
  t.SetOutput("Out", "out");
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dims(), (DDim{2, 2}));
  EXPECT_EQ(t.GetData<float>("out"), (std::vector<float>{11.5f, 22.5f, 33.5f, 44.5f}));
}

TEST(Sum, Int64InPlace) {
  OpTester t("sum");
  t.SetInput<int64_t>("X", "a", {3}, {1, 2, 3});
  t.SetInput<int64_t>("X", "b", {3}, {10, 20, 30});
  t.SetOutput("Out", "a");  // Out aliases the first input
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.GetData<int64_t>("a"), (std::vector<int64_t>{11, 22, 33}));
}

TEST(Sum, ShapeMismatchFails) {
  OpTester t("sum");
  t.SetInput<float>("X", "a", {2, 2}, {1, 2, 3, 4});
  t.SetInput<float>("X", "b", {4}, {1, 2, 3, 4});
  t.SetOutput("Out", "out");
  EXPECT_FALSE(t.Run().ok());
}

TEST(Mean, AllElementsToShapeOne) {
  OpTester t("mean");
  t.SetInput<float>("X", "x", {2, 3}, {1, 2, 3, 4, 5, 7});
  t.SetOutput("Out", "out");
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dims(), (DDim{1}));
  EXPECT_FLOAT_EQ(t.GetData<float>("out")[0], 22.f / 6.f);
}

// ---- arg_max, arg_min ----

template <typename TOut>
void CheckArgMax(const DDim& d, int64_t axis, bool keepdims, int dtype_code,
                 const DDim& expect_dims, const std::string& op = "arg_max") {
  std::vector<float> x(Product(d));
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>((i * 5) % 7);  // ties
  OpTester t(op);
  t.SetInput<float>("X", "x", d, x);
  t.SetOutput("Out", "out");
  t.SetAttr("axis", axis);
  t.SetAttr("keepdims", keepdims);
  if (dtype_code != 0) t.SetAttr("dtype", dtype_code);
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dims(), expect_dims);
  EXPECT_EQ(t.Get("out").dtype(), DataTypeOf<TOut>());
  const int64_t a = axis < 0 ? axis + static_cast<int64_t>(d.size()) : axis;
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < a; ++i) outer *= d[i];
  for (size_t i = a + 1; i < d.size(); ++i) inner *= d[i];
  auto out = t.GetData<TOut>("out");
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t k = 0; k < inner; ++k) {
      int64_t best = 0;
      for (int64_t j = 0; j < d[a]; ++j) {
        const float v = x[(o * d[a] + j) * inner + k], b = x[(o * d[a] + best) * inner + k];
        if (op == "arg_min" ? v < b : v > b) best = j;
      }
      EXPECT_EQ(out[o * inner + k], static_cast<TOut>(best)) << o << "," << k;
    }
  }
}

TEST(ArgMax, AxesKeepdimsDtype) {
  CheckArgMax<int64_t>({3, 4, 5}, 1, false, 0, {3, 5});   // default dtype int64
  CheckArgMax<int64_t>({3, 4, 5}, -1, true, 3, {3, 4, 1});
  CheckArgMax<int32_t>({3, 4, 5}, 0, false, 2, {4, 5});
  CheckArgMax<int32_t>({7}, 0, false, 2, {1});
  CheckArgMax<int64_t>({3, 4, 5}, -3, true, -1, {1, 4, 5});
}

TEST(ArgMin, AxesKeepdimsDtype) {
  CheckArgMax<int64_t>({3, 4, 5}, 1, false, 0, {3, 5}, "arg_min");
  CheckArgMax<int32_t>({3, 4, 5}, -1, true, 2, {3, 4, 1}, "arg_min");
  CheckArgMax<int64_t>({6}, 0, false, 3, {1}, "arg_min");
}

TEST(ArgMax, FlattenAndInt64Input) {
  OpTester t("arg_max");
  t.SetInput<int64_t>("X", "x", {2, 3}, {4, 9, 1, 9, 2, 0});
  t.SetOutput("Out", "out");
  t.SetAttr("flatten", true);
  t.SetAttr("axis", static_cast<int64_t>(0));
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dims(), (DDim{1}));
  EXPECT_EQ(t.GetData<int64_t>("out"), (std::vector<int64_t>{1}));
}

TEST(ArgMax, Errors) {
  OpTester t("arg_max");
  t.SetInput<float>("X", "x", {2, 3}, std::vector<float>(6, 1.f));
  t.SetOutput("Out", "out");
  t.SetAttr("axis", static_cast<int64_t>(2));
  EXPECT_FALSE(t.Run().ok());
  OpTester u("arg_max");
  u.SetInput<float>("X", "x", {2, 3}, std::vector<float>(6, 1.f));
  u.SetOutput("Out", "out");
  u.SetAttr("dtype", 5);
  EXPECT_FALSE(u.Run().ok());
}

}  // namespace
}  // namespace lite
