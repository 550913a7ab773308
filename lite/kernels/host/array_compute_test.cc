// cumsum, flip, roll and range against reference loops written per case.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

// X [2, 3, 4] with values 0..23.
std::vector<float> X24() {
  std::vector<float> v(24);
  for (int i = 0; i < 24; ++i) v[i] = static_cast<float>(i);
  return v;
}

float At(const std::vector<float>& x, int a, int b, int c) { return x[(a * 3 + b) * 4 + c]; }

std::vector<float> RunOn(const std::string& op, const std::vector<float>& x,
                         const std::function<void(OpTester*)>& attrs, DDim* dims = nullptr) {
  OpTester t(op);
  t.SetInput<float>("X", "x", {2, 3, 4}, x);
  t.SetOutput("Out", "out");
  attrs(&t);
  Status s = t.Run();
  EXPECT_TRUE(s.ok()) << op << ": " << s.ToString();
  if (!s.ok()) return {};
  if (dims) *dims = t.Get("out").dims();
  return t.GetData<float>("out");
}

TEST(CumSum, AxisExclusiveReverseFlatten) {
  const auto x = X24();
  for (bool exclusive : {false, true}) {
    for (bool reverse : {false, true}) {
      const auto out = RunOn("cumsum", x, [&](OpTester* t) {
        t->SetAttr("axis", 1);
        t->SetAttr("exclusive", exclusive);
        t->SetAttr("reverse", reverse);
      });
      ASSERT_EQ(out.size(), 24u);
      for (int a = 0; a < 2; ++a) {
        for (int b = 0; b < 3; ++b) {
          for (int c = 0; c < 4; ++c) {
            float want = 0;
            for (int j = 0; j < 3; ++j) {
              const bool in = reverse ? (exclusive ? j > b : j >= b) : (exclusive ? j < b : j <= b);
              if (in) want += At(x, a, j, c);
            }
            EXPECT_EQ(out[(a * 3 + b) * 4 + c], want) << exclusive << reverse << a << b << c;
          }
        }
      }
    }
  }
  DDim dims;
  const auto flat = RunOn("cumsum", x, [](OpTester* t) { t->SetAttr("flatten", true); }, &dims);
  EXPECT_EQ(dims, (DDim{24}));
  float sum = 0;
  for (int i = 0; i < 24; ++i) EXPECT_EQ(flat[i], sum += x[i]);
  const auto last = RunOn("cumsum", x, [](OpTester*) {});  // default axis -1
  EXPECT_EQ(last[5], x[4] + x[5]);
  EXPECT_EQ(last[8], x[8]);
}

TEST(FlipRoll, AgainstIndexArithmetic) {
  const auto x = X24();
  const auto flipped = RunOn("flip", x, [](OpTester* t) {
    t->SetAttr("axis", std::vector<int64_t>{0, -1});
  });
  const auto rolled = RunOn("roll", x, [](OpTester* t) {
    t->SetAttr("axis", std::vector<int64_t>{1, 2});
    t->SetAttr("shifts", std::vector<int64_t>{-1, 6});
  });
  ASSERT_EQ(flipped.size(), 24u);
  ASSERT_EQ(rolled.size(), 24u);
  for (int a = 0; a < 2; ++a) {
    for (int b = 0; b < 3; ++b) {
      for (int c = 0; c < 4; ++c) {
        EXPECT_EQ(flipped[(a * 3 + b) * 4 + c], At(x, 1 - a, b, 3 - c));
        // out[(b - 1) mod 3][(c + 6) mod 4] = x[b][c]
        EXPECT_EQ(rolled[(a * 3 + (b + 2) % 3) * 4 + (c + 2) % 4], At(x, a, b, c));
      }
    }
  }
  const auto flat = RunOn("roll", x, [](OpTester* t) {
    t->SetAttr("shifts", std::vector<int64_t>{5});
  });
  for (int i = 0; i < 24; ++i) EXPECT_EQ(flat[(i + 5) % 24], x[i]);
}

TEST(Range, FloatIntAndNegativeStep) {
  auto run = [](auto start, auto end, auto step) {
    using T = decltype(start);
    OpTester t("range");
    t.SetInput<T>("Start", "s", {1}, {start});
    t.SetInput<T>("End", "e", {1}, {end});
    t.SetInput<T>("Step", "st", {1}, {step});
    t.SetOutput("Out", "out");
    EXPECT_TRUE(t.Run().ok());
    return t.GetData<T>("out");
  };
  EXPECT_EQ(run(0.5f, 2.0f, 0.5f), (std::vector<float>{0.5f, 1.f, 1.5f}));
  EXPECT_EQ(run(int64_t{10}, int64_t{1}, int64_t{-4}), (std::vector<int64_t>{10, 6, 2}));
  EXPECT_EQ(run(int32_t{0}, int32_t{7}, int32_t{3}), (std::vector<int32_t>{0, 3, 6}));
  EXPECT_TRUE(run(int32_t{5}, int32_t{1}, int32_t{1}).empty());

  OpTester zero("range");
  zero.SetInput<float>("Start", "s", {1}, {0.f});
  zero.SetInput<float>("End", "e", {1}, {1.f});
  zero.SetInput<float>("Step", "st", {1}, {0.f});
  zero.SetOutput("Out", "out");
  Status s = zero.Run();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("Step must not be 0"), std::string::npos) << s.message();
}

TEST(Roll, ShiftsAndAxisMustAgree) {
  OpTester t("roll");
  t.SetInput<float>("X", "x", {2, 3, 4}, X24());
  t.SetOutput("Out", "out");
  t.SetAttr("axis", std::vector<int64_t>{0, 1});
  t.SetAttr("shifts", std::vector<int64_t>{1});
  EXPECT_FALSE(t.Run().ok());
}

}  // namespace
}  // namespace lite
