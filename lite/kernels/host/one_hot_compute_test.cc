// one_hot_v2 against a reference that sets one element per index.
#include <gtest/gtest.h>

#include <vector>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

TEST(OneHot, FloatAndIntOutputs) {
  OpTester t("one_hot_v2");
  const std::vector<int64_t> x = {2, 0, 3, 1, 1, 0};
  t.SetInput<int64_t>("X", "x", {2, 3}, x);
  t.SetOutput("Out", "out");
  t.SetAttr("depth", 4);
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dims(), (DDim{2, 3, 4}));
  std::vector<float> want(24, 0.f);
  for (size_t i = 0; i < x.size(); ++i) want[i * 4 + x[i]] = 1.f;
  EXPECT_EQ(t.GetData<float>("out"), want);

  OpTester ints("one_hot_v2");
  ints.SetInput<int32_t>("X", "x", {3}, {1, 0, 1});
  ints.SetOutput("Out", "out");
  ints.SetAttr("depth", 2);
  ints.SetAttr("dtype", 3);  // int64
  ASSERT_TRUE(ints.Run().ok());
  EXPECT_EQ(ints.GetData<int64_t>("out"), (std::vector<int64_t>{0, 1, 1, 0, 0, 1}));
}

TEST(OneHot, OutOfRange) {
  OpTester t("one_hot_v2");
  t.SetInput<int32_t>("X", "x", {2}, {1, 5});
  t.SetOutput("Out", "out");
  t.SetAttr("depth", 3);
  Status s = t.Run();
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << s.ToString();
  EXPECT_NE(s.message().find("index 5 (element 1 of X)"), std::string::npos) << s.message();

  OpTester allowed("one_hot_v2");
  allowed.SetInput<int32_t>("X", "x", {2}, {1, 5});
  allowed.SetOutput("Out", "out");
  allowed.SetAttr("depth", 3);
  allowed.SetAttr("allow_out_of_range", true);
  ASSERT_TRUE(allowed.Run().ok());
  EXPECT_EQ(allowed.GetData<float>("out"), (std::vector<float>{0, 1, 0, 0, 0, 0}));
}

}  // namespace
}  // namespace lite
