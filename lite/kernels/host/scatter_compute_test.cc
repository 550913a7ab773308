// scatter (both overwrite modes) and scatter_nd_add against reference loops
// over explicit coordinates.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

TEST(Scatter, OverwriteAndAccumulateWithRepeatedIds) {
  const std::vector<float> x = RandomFloats(4 * 3, 3);
  const std::vector<int64_t> ids = {2, 0, 2};
  const std::vector<float> upd = RandomFloats(3 * 3, 4);
  for (bool overwrite : {true, false}) {
    OpTester t("scatter");
    t.SetInput<float>("X", "x", {4, 3}, x);
    t.SetInput<int64_t>("Ids", "ids", {3}, ids);
    t.SetInput<float>("Updates", "u", {3, 3}, upd);
    t.SetAttr("overwrite", overwrite);
    t.SetOutput("Out", "out");
    ASSERT_TRUE(t.Run().ok());
    std::vector<float> want = x;
    for (int64_t r : ids) {
      for (int c = 0; c < 3; ++c) want[r * 3 + c] = 0.f;
    }
    for (size_t i = 0; i < ids.size(); ++i) {
      for (int c = 0; c < 3; ++c) {
        float& w = want[ids[i] * 3 + c];
        w = overwrite ? upd[i * 3 + c] : w + upd[i * 3 + c];
      }
    }
    EXPECT_EQ(t.GetData<float>("out"), want) << "overwrite " << overwrite;
  }
}

TEST(Scatter, BadIdsAndUpdatesShapeAreErrors) {
  OpTester range("scatter");
  range.SetInput<int32_t>("X", "x", {2, 2}, {1, 2, 3, 4});
  range.SetInput<int32_t>("Ids", "ids", {1}, {2});
  range.SetInput<int32_t>("Updates", "u", {1, 2}, {5, 6});
  range.SetOutput("Out", "out");
  Status s = range.Run();
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << s.ToString();
  EXPECT_NE(s.message().find("index 2 (element 0 of the indices) is out of range [0, 2)"),
            std::string::npos)
      << s.message();

  OpTester shape("scatter");
  shape.SetInput<int32_t>("X", "x", {2, 2}, {1, 2, 3, 4});
  shape.SetInput<int32_t>("Ids", "ids", {1}, {1});
  shape.SetInput<int32_t>("Updates", "u", {1, 3}, {5, 6, 7});
  shape.SetOutput("Out", "out");
  s = shape.Run();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("Updates [1, 3] must be [1, 2]"), std::string::npos) << s.message();
}

TEST(ScatterNdAdd, FullAndPartialDepthAccumulate) {
  const std::vector<float> x = RandomFloats(2 * 3 * 4, 5);  // [2, 3, 4]
  // Partial depth: Index [3, 2] names rows (a, b); Updates [3, 4].
  const std::vector<int32_t> idx = {1, 2, 0, 0, 1, 2};
  const std::vector<float> upd = RandomFloats(3 * 4, 6);
  OpTester t("scatter_nd_add");
  t.SetInput<float>("X", "x", {2, 3, 4}, x);
  t.SetInput<int32_t>("Index", "i", {3, 2}, idx);
  t.SetInput<float>("Updates", "u", {3, 4}, upd);
  t.SetOutput("Out", "out");
  ASSERT_TRUE(t.Run().ok());
  std::vector<float> want = x;
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 4; ++c) want[(idx[r * 2] * 3 + idx[r * 2 + 1]) * 4 + c] += upd[r * 4 + c];
  }
  EXPECT_EQ(t.GetData<float>("out"), want);

  // Full depth on int64: single elements, Index [2, 1, 3] -> Updates [2, 1].
  OpTester full("scatter_nd_add");
  full.SetInput<int64_t>("X", "x", {2, 3, 4}, std::vector<int64_t>(24, 1));
  full.SetInput<int64_t>("Index", "i", {2, 1, 3}, {1, 2, 3, 1, 2, 3});
  full.SetInput<int64_t>("Updates", "u", {2, 1}, {10, 20});
  full.SetOutput("Out", "out");
  ASSERT_TRUE(full.Run().ok());
  std::vector<int64_t> want64(24, 1);
  want64[23] = 31;
  EXPECT_EQ(full.GetData<int64_t>("out"), want64);
}

}  // namespace
}  // namespace lite
