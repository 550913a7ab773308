// Comparison and logical ops against a reference that indexes the
// broadcast operands directly (dims aligned by hand in each case).
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

// out[i] = f(x[xi], y[yi]) with xa/ya the operands' dims aligned to od.
std::vector<bool> Reference(const std::vector<double>& x, const DDim& xa,
                            const std::vector<double>& y, const DDim& ya, const DDim& od,
                            const std::function<bool(double, double)>& f) {
  std::vector<bool> out;
  std::vector<int64_t> idx(od.size(), 0);
  for (int64_t n = 0; n < Product(od); ++n) {
    int64_t xi = 0, yi = 0;
    for (size_t d = 0; d < od.size(); ++d) {
      xi = xi * xa[d] + (xa[d] == 1 ? 0 : idx[d]);
      yi = yi * ya[d] + (ya[d] == 1 ? 0 : idx[d]);
    }
    out.push_back(f(x[xi], y[yi]));
    for (size_t d = od.size(); d-- > 0;) {
      if (++idx[d] < od[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}

template <typename T>
std::vector<double> Widen(const std::vector<T>& v) {
  return std::vector<double>(v.begin(), v.end());
}

template <typename T>
void ExpectBinary(const std::string& op, const DDim& xd, const std::vector<T>& x,
                  const DDim& yd, const std::vector<T>& y, int axis, const DDim& xa,
                  const DDim& ya, const DDim& od,
                  const std::function<bool(double, double)>& f) {
  OpTester t(op);
  t.SetInput<T>("X", "x", xd, x);
  t.SetInput<T>("Y", "y", yd, y);
  t.SetOutput("Out", "out");
  if (axis != -1) t.SetAttr("axis", axis);
  Status s = t.Run();
  ASSERT_TRUE(s.ok()) << op << ": " << s.ToString();
  ASSERT_EQ(t.Get("out").dims(), od) << op;
  ASSERT_EQ(t.Get("out").dtype(), DataType::kBool) << op;
  const std::vector<bool> want = Reference(Widen(x), xa, Widen(y), ya, od, f);
  const auto got = t.GetData<bool>("out");
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(got[i], want[i]) << op << " at " << i;
}

struct Named {
  std::string op;
  std::function<bool(double, double)> f;
};

const std::vector<Named> kCompare = {
    {"equal", [](double a, double b) { return a == b; }},
    {"not_equal", [](double a, double b) { return a != b; }},
    {"less_than", [](double a, double b) { return a < b; }},
    {"less_equal", [](double a, double b) { return a <= b; }},
    {"greater_than", [](double a, double b) { return a > b; }},
    {"greater_equal", [](double a, double b) { return a >= b; }},
};

TEST(Compare, SameShapeTrailingAndAxisBroadcast) {
  const std::vector<float> x = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
                                3, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1};
  const std::vector<float> same(x.rbegin(), x.rend());
  const std::vector<float> last = {1, 3, 5, 7};
  const std::vector<float> mid = {2, 3, 9};
  for (const Named& c : kCompare) {
    ExpectBinary<float>(c.op, {2, 3, 4}, x, {2, 3, 4}, same, -1, {2, 3, 4}, {2, 3, 4},
                        {2, 3, 4}, c.f);
    ExpectBinary<float>(c.op, {2, 3, 4}, x, {4}, last, -1, {2, 3, 4}, {1, 1, 4}, {2, 3, 4}, c.f);
    // Paddle's axis: Y [3] aligned at dim 1 of X.
    ExpectBinary<float>(c.op, {2, 3, 4}, x, {3}, mid, 1, {2, 3, 4}, {1, 3, 1}, {2, 3, 4}, c.f);
    // Both operands broadcast: [2,1,4] against [3,1].
    ExpectBinary<float>(c.op, {2, 1, 4}, std::vector<float>(x.begin(), x.begin() + 8), {3, 1},
                        mid, -1, {2, 1, 4}, {1, 3, 1}, {2, 3, 4}, c.f);
  }
}

TEST(Compare, IntegerTypes) {
  const std::vector<int64_t> x = {-3, 0, 7, 1LL << 40, 5, 5};
  const std::vector<int64_t> y = {-3, 1, 6, 1LL << 40, 4, 6};
  const std::vector<int32_t> x32 = {1, 2, 3, 4, 5, 6};
  for (const Named& c : kCompare) {
    ExpectBinary<int64_t>(c.op, {6}, x, {6}, y, -1, {6}, {6}, {6}, c.f);
    ExpectBinary<int32_t>(c.op, {2, 3}, x32, {1}, {3}, -1, {2, 3}, {1, 1}, {2, 3}, c.f);
  }
}

TEST(Logical, BinaryOnBoolAndNonBool) {
  const std::vector<Named> ops = {
      {"logical_and", [](double a, double b) { return a != 0 && b != 0; }},
      {"logical_or", [](double a, double b) { return a != 0 || b != 0; }},
      {"logical_xor", [](double a, double b) { return (a != 0) != (b != 0); }},
  };
  const std::vector<bool> xb = {true, false, true, false, true, true};
  const std::vector<bool> yb = {true, true, false};
  const std::vector<float> xf = {0.f, -2.f, 0.5f, 0.f, 0.f, 3.f};
  const std::vector<float> yf = {0.f, 1.f, 0.f};
  for (const Named& c : ops) {
    ExpectBinary<bool>(c.op, {2, 3}, xb, {3}, yb, -1, {2, 3}, {1, 3}, {2, 3}, c.f);
    ExpectBinary<float>(c.op, {2, 3}, xf, {3}, yf, -1, {2, 3}, {1, 3}, {2, 3}, c.f);
  }
}

TEST(Logical, Not) {
  OpTester t("logical_not");
  t.SetInput<int32_t>("X", "x", {2, 2}, {0, 3, -1, 0});
  t.SetOutput("Out", "out");
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dims(), (DDim{2, 2}));
  EXPECT_EQ(t.GetData<bool>("out"), (std::vector<bool>{true, false, false, true}));
}

TEST(Compare, Errors) {
  OpTester mixed("less_than");
  mixed.SetInput<float>("X", "x", {2}, {1.f, 2.f});
  mixed.SetInput<int32_t>("Y", "y", {2}, {1, 2});
  mixed.SetOutput("Out", "out");
  Status s = mixed.Run();
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << s.ToString();
  EXPECT_NE(s.message().find("int32"), std::string::npos) << s.message();

  OpTester shapes("equal");
  shapes.SetInput<float>("X", "x", {2, 3}, std::vector<float>(6, 0.f));
  shapes.SetInput<float>("Y", "y", {2}, {1.f, 2.f});
  shapes.SetOutput("Out", "out");
  s = shapes.Run();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("equal"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace lite
