// assign_value over its value lists and linspace against the two-sided
// formula written out per element.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

TEST(AssignValue, EveryValueListAndCountCheck) {
  OpTester f("assign_value");
  f.SetAttr("shape", std::vector<int32_t>{2, 2});
  f.SetAttr("dtype", 5);
  f.SetAttr("fp32_values", std::vector<float>{1.5f, -2.f, 0.25f, 4.f});
  f.SetOutput("Out", "out");
  ASSERT_TRUE(f.Run().ok());
  EXPECT_EQ(f.Get("out").dims(), (DDim{2, 2}));
  EXPECT_EQ(f.GetData<float>("out"), (std::vector<float>{1.5f, -2.f, 0.25f, 4.f}));

  OpTester i("assign_value");
  i.SetAttr("shape", std::vector<int32_t>{3});
  i.SetAttr("dtype", 3);
  i.SetAttr("int64_values", std::vector<int64_t>{int64_t{1} << 40, -7, 0});
  i.SetOutput("Out", "out");
  ASSERT_TRUE(i.Run().ok());
  EXPECT_EQ(i.GetData<int64_t>("out"), (std::vector<int64_t>{int64_t{1} << 40, -7, 0}));

  OpTester b("assign_value");
  b.SetAttr("shape", std::vector<int32_t>{2});
  b.SetAttr("dtype", 0);
  b.SetAttr("bool_values", std::vector<int32_t>{0, 1});
  b.SetOutput("Out", "out");
  ASSERT_TRUE(b.Run().ok());
  EXPECT_EQ(b.GetData<bool>("out"), (std::vector<bool>{false, true}));

  OpTester bad("assign_value");
  bad.SetAttr("shape", std::vector<int32_t>{2, 3});
  bad.SetAttr("dtype", 2);
  bad.SetAttr("int32_values", std::vector<int32_t>{1, 2});
  bad.SetOutput("Out", "out");
  Status s = bad.Run();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("int32_values holds 2 values but shape [2, 3] needs 6"),
            std::string::npos)
      << s.message();
}

std::vector<double> LinspaceRef(double a, double b, int64_t n) {
  std::vector<double> out;
  const double step = n > 1 ? (b - a) / (n - 1) : 0;
  for (int64_t i = 0; i < n; ++i) out.push_back(i < n / 2 ? a + i * step : b - (n - 1 - i) * step);
  if (n == 1) out[0] = a;
  return out;
}

TEST(Linspace, FloatIntAndSinglePoint) {
  for (int64_t n : {1, 2, 5, 8}) {
    OpTester t("linspace");
    t.SetInput<float>("Start", "a", {1}, {-1.5f});
    t.SetInput<float>("Stop", "b", {1}, {2.f});
    t.SetInput<int32_t>("Num", "n", {1}, {static_cast<int32_t>(n)});
    t.SetAttr("dtype", 5);
    t.SetOutput("Out", "out");
    ASSERT_TRUE(t.Run().ok());
    EXPECT_EQ(t.Get("out").dims(), (DDim{n}));
    std::vector<float> want;
    for (double v : LinspaceRef(-1.5, 2.0, n)) want.push_back(static_cast<float>(v));
    EXPECT_EQ(t.GetData<float>("out"), want) << "num " << n;
  }
  OpTester i("linspace");
  i.SetInput<float>("Start", "a", {1}, {0.9f});  // truncated to 0 first
  i.SetInput<float>("Stop", "b", {1}, {10.f});
  i.SetInput<int64_t>("Num", "n", {1}, {4});
  i.SetAttr("dtype", 3);
  i.SetOutput("Out", "out");
  ASSERT_TRUE(i.Run().ok());
  EXPECT_EQ(i.GetData<int64_t>("out"), (std::vector<int64_t>{0, 3, 6, 10}));

  OpTester zero("linspace");
  zero.SetInput<float>("Start", "a", {1}, {0.f});
  zero.SetInput<float>("Stop", "b", {1}, {1.f});
  zero.SetInput<int32_t>("Num", "n", {1}, {0});
  zero.SetOutput("Out", "out");
  Status s = zero.Run();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("Num must be > 0"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace lite
