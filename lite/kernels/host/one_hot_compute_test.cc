// one_hot and one_hot_v2 against a reference that sets one element per
// index.
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

// The reference: `rows` one-hot rows of `depth` floats.
std::vector<float> OneHotRows(const std::vector<int64_t>& index, int64_t depth) {
  std::vector<float> out(index.size() * depth, 0.f);
  for (size_t i = 0; i < index.size(); ++i) {
    if (index[i] >= 0 && index[i] < depth) out[i * depth + index[i]] = 1.f;
  }
  return out;
}

TEST(OneHot, V1ReplacesTheLastUnitDim) {
  const std::vector<int64_t> x = {2, 0, 3, 1, 1, 0};
  OpTester t("one_hot");
  t.SetInput<int64_t>("X", "x", {2, 3, 1}, x);
  t.SetOutput("Out", "out");
  t.SetAttr("depth", 4);
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dims(), (DDim{2, 3, 4}));
  EXPECT_EQ(t.GetData<float>("out"), OneHotRows(x, 4));

  OpTester bad("one_hot");
  bad.SetInput<int64_t>("X", "x", {2, 3}, x);
  bad.SetOutput("Out", "out");
  bad.SetAttr("depth", 4);
  Status s = bad.Run();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("[..., 1]"), std::string::npos) << s.message();
}

// depth_tensor overrides the attribute, read at each run (both versions).
TEST(OneHot, DepthTensorIsReadAtRunTime) {
  const std::vector<int32_t> x = {1, 4, 0};
  for (const char* op : {"one_hot", "one_hot_v2"}) {
    const bool v1 = std::string(op) == "one_hot";
    OpTester t(op);
    t.SetInput<int32_t>("X", "x", v1 ? DDim{3, 1} : DDim{3}, x);
    Tensor* depth = t.SetInput<int32_t>("depth_tensor", "depth", {1}, {5});
    t.SetOutput("Out", "out");
    t.SetAttr("depth", 2);  // overridden
    Status s = t.Run();
    ASSERT_TRUE(s.ok()) << op << ": " << s.ToString();
    EXPECT_EQ(t.Get("out").dims(), (DDim{3, 5})) << op;
    EXPECT_EQ(t.GetData<float>("out"), OneHotRows({1, 4, 0}, 5)) << op;
    depth->mutable_data<int32_t>()[0] = 6;  // a new value, same dims
    ASSERT_TRUE(t.Run().ok()) << op;
    EXPECT_EQ(t.Get("out").dims(), (DDim{3, 6})) << op;
    EXPECT_EQ(t.GetData<float>("out"), OneHotRows({1, 4, 0}, 6)) << op;
    depth->mutable_data<int32_t>()[0] = 0;
    s = t.Run();
    EXPECT_FALSE(s.ok()) << op;
    EXPECT_NE(s.message().find("depth must be >= 1"), std::string::npos) << s.message();
  }
}

}  // namespace
}  // namespace lite
