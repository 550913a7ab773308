// meshgrid against the definition Out[i][j0, j1, j2] = X[i][ji].
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

TEST(Meshgrid, ThreeInputsIjIndexing) {
  const std::vector<std::vector<int32_t>> xs = {{1, 2}, {10, 20, 30}, {100, 200, 300, 400}};
  OpTester t("meshgrid");
  for (size_t i = 0; i < xs.size(); ++i) {
    t.SetInput<int32_t>("X", "x" + std::to_string(i), {static_cast<int64_t>(xs[i].size())}, xs[i]);
    t.SetOutput("Out", "o" + std::to_string(i));
  }
  ASSERT_TRUE(t.Run().ok());
  for (size_t i = 0; i < xs.size(); ++i) {
    const std::string name = "o" + std::to_string(i);
    EXPECT_EQ(t.Get(name).dims(), (DDim{2, 3, 4}));
    std::vector<int32_t> want;
    for (int a = 0; a < 2; ++a)
      for (int b = 0; b < 3; ++b)
        for (int c = 0; c < 4; ++c) want.push_back(xs[i][i == 0 ? a : (i == 1 ? b : c)]);
    EXPECT_EQ(t.GetData<int32_t>(name), want) << name;
  }
}

TEST(Meshgrid, MixedDtypesAreAnError) {
  OpTester t("meshgrid");
  t.SetInput<int32_t>("X", "a", {2}, {1, 2});
  t.SetInput<float>("X", "b", {2}, {1.f, 2.f});
  t.SetOutput("Out", "o0");
  t.SetOutput("Out", "o1");
  Status s = t.Run();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("input 1 is float32 but input 0 is int32"), std::string::npos)
      << s.message();
}

}  // namespace
}  // namespace lite
