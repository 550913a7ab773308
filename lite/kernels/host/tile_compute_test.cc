// tile / expand / expand_v2 / expand_as(_v2) against a reference that maps
// every output index back to X (index modulo X's aligned dim).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

template <typename T>
std::vector<T> Reference(const std::vector<T>& x, DDim xd, const DDim& od) {
  xd.insert(xd.begin(), od.size() - xd.size(), 1);
  std::vector<T> out;
  std::vector<int64_t> idx(od.size(), 0);
  for (int64_t n = 0; n < Product(od); ++n) {
    int64_t xi = 0;
    for (size_t d = 0; d < od.size(); ++d) xi = xi * xd[d] + idx[d] % xd[d];
    out.push_back(x[xi]);
    for (size_t d = od.size(); d-- > 0;) {
      if (++idx[d] < od[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}

template <typename T>
void Expect(const std::string& op, const DDim& xd, const std::string& attr,
            const std::vector<int32_t>& value, const DDim& want_dims) {
  std::vector<T> x;
  for (int64_t i = 0; i < Product(xd); ++i) x.push_back(static_cast<T>(i * 3 - 7));
  OpTester t(op);
  t.SetInput<T>("X", "x", xd, x);
  t.SetOutput("Out", "out");
  t.SetAttr(attr, value);
  Status s = t.Run();
  ASSERT_TRUE(s.ok()) << op << ": " << s.ToString();
  ASSERT_EQ(t.Get("out").dims(), want_dims) << op;
  EXPECT_EQ(t.GetData<T>("out"), Reference(x, xd, want_dims)) << op;
}

TEST(Tile, RepeatsOfEveryRankAlignment) {
  Expect<float>("tile", {2, 3}, "repeat_times", {2, 2}, {4, 6});
  Expect<float>("tile", {2, 3}, "repeat_times", {3, 1, 2}, {3, 2, 6});  // repeats longer
  Expect<int64_t>("tile", {2, 1, 3}, "repeat_times", {4}, {2, 1, 12});  // X longer
  Expect<int32_t>("tile", {5}, "repeat_times", {1}, {5});
  Expect<float>("expand", {1, 3}, "expand_times", {2, 2}, {2, 6});
}

TEST(Tile, ExpandV2BroadcastsOnesAndKeepsMinusOne) {
  Expect<float>("expand_v2", {1, 3}, "shape", {4, 3}, {4, 3});
  Expect<float>("expand_v2", {3, 1}, "shape", {2, -1, 5}, {2, 3, 5});
  Expect<bool>("expand_v2", {2}, "shape", {3, 2}, {3, 2});
  Expect<float>("expand_as_v2", {1, 4, 1}, "target_shape", {2, 4, 3}, {2, 4, 3});
}

TEST(Tile, ExpandAsV2TakesYsDims) {
  OpTester t("expand_as_v2");
  t.SetInput<float>("X", "x", {3, 1}, {1.f, 2.f, 3.f});
  t.SetInput<float>("Y", "y", {3, 2}, std::vector<float>(6, 0.f));
  t.SetOutput("Out", "out");
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dims(), (DDim{3, 2}));
  EXPECT_EQ(t.GetData<float>("out"), (std::vector<float>{1, 1, 2, 2, 3, 3}));
}

// expand_as (v1) tiles X: every target dim a multiple of X's, same rank.
TEST(Tile, ExpandAsTilesToTargetTensor) {
  const struct {
    DDim xd, td;
  } cases[] = {{{2, 3}, {4, 6}}, {{1, 3}, {5, 3}}, {{2, 1, 2}, {2, 3, 4}}};
  for (const auto& c : cases) {
    std::vector<int64_t> x;
    for (int64_t i = 0; i < Product(c.xd); ++i) x.push_back(i * 5 - 3);
    OpTester t("expand_as");
    t.SetInput<int64_t>("X", "x", c.xd, x);
    t.SetInput<float>("target_tensor", "target", c.td, std::vector<float>(Product(c.td), 0.f));
    t.SetOutput("Out", "out");
    Status s = t.Run();
    ASSERT_TRUE(s.ok()) << s.ToString();
    ASSERT_EQ(t.Get("out").dims(), c.td);
    EXPECT_EQ(t.Get("out").dtype(), DataType::kInt64);
    EXPECT_EQ(t.GetData<int64_t>("out"), Reference(x, c.xd, c.td)) << DimsToString(c.td);
  }
  const struct {
    DDim xd, td;
    const char* message;
  } bad[] = {{{2, 3}, {4, 5}, "not a tiling"}, {{3}, {2, 3}, "same rank"}};
  for (const auto& c : bad) {
    OpTester t("expand_as");
    t.SetInput<float>("X", "x", c.xd, std::vector<float>(Product(c.xd), 1.f));
    t.SetInput<float>("target_tensor", "target", c.td, std::vector<float>(Product(c.td), 0.f));
    t.SetOutput("Out", "out");
    Status s = t.Run();
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.message().find(c.message), std::string::npos) << s.message();
    EXPECT_NE(s.message().find("expand_as"), std::string::npos) << s.message();
  }
}

// expand_v2 as dynamic-batch exports write `cls.expand((shape(x)[0], -1, -1))`:
// attribute shape [-2, -1, -1] and one 1-element tensor per dim. A second
// run with another batch value (same tensor dims, so no re-infer) follows it.
TEST(Tile, ExpandV2TakesItsShapeFromTensorsEachRun) {
  OpTester t("expand_v2");
  t.SetInput<float>("X", "x", {1, 1, 3}, {1.f, 2.f, 3.f});
  Tensor* batch = t.SetInput<int32_t>("expand_shapes_tensor", "batch", {1}, {2});
  t.SetInput<int32_t>("expand_shapes_tensor", "keep1", {1}, {-1});
  t.SetInput<int32_t>("expand_shapes_tensor", "keep2", {1}, {-1});
  t.SetOutput("Out", "out");
  t.SetAttr("shape", std::vector<int32_t>{-2, -1, -1});
  Status s = t.Run();
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(t.Get("out").dims(), (DDim{2, 1, 3}));
  EXPECT_EQ(t.GetData<float>("out"), (std::vector<float>{1, 2, 3, 1, 2, 3}));
  batch->mutable_data<int32_t>()[0] = 3;
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dims(), (DDim{3, 1, 3}));
  EXPECT_EQ(t.GetData<float>("out"), Reference<float>({1.f, 2.f, 3.f}, {1, 1, 3}, {3, 1, 3}));

  OpTester whole("expand_v2");  // one int64 Shape tensor
  whole.SetInput<float>("X", "x", {2, 1}, {4.f, 5.f});
  whole.SetInput<int64_t>("Shape", "shape", {2}, {-1, 3});
  whole.SetOutput("Out", "out");
  whole.SetAttr("shape", std::vector<int32_t>{});
  ASSERT_TRUE(whole.Run().ok());
  EXPECT_EQ(whole.GetData<float>("out"), (std::vector<float>{4, 4, 4, 5, 5, 5}));

  OpTester bad("expand_v2");  // a 0 read at run time is refused like the attribute's
  bad.SetInput<float>("X", "x", {1}, {1.f});
  bad.SetInput<int32_t>("Shape", "shape", {1}, {0});
  bad.SetOutput("Out", "out");
  s = bad.Run();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("invalid value 0"), std::string::npos) << s.message();
}

TEST(Tile, Errors) {
  OpTester bad("expand_v2");
  bad.SetInput<float>("X", "x", {2, 3}, std::vector<float>(6, 0.f));
  bad.SetOutput("Out", "out");
  bad.SetAttr("shape", std::vector<int32_t>{4, 3});
  Status s = bad.Run();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("neither 1 nor 4"), std::string::npos) << s.message();

  OpTester zero("tile");
  zero.SetInput<float>("X", "x", {2}, {1.f, 2.f});
  zero.SetOutput("Out", "out");
  zero.SetAttr("repeat_times", std::vector<int32_t>{0});
  EXPECT_FALSE(zero.Run().ok());

  OpTester tensor("tile");  // a repeat below 1 read at run time, named by its input
  tensor.SetInput<float>("X", "x", {2}, {1.f, 2.f});
  tensor.SetInput<int32_t>("RepeatTimes", "r", {1}, {0});
  tensor.SetOutput("Out", "out");
  tensor.SetAttr("repeat_times", std::vector<int32_t>{2});
  s = tensor.Run();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("invalid value 0"), std::string::npos) << s.message();
}

// tile's and expand's repeats as tensors win over the attribute and are read
// again each run.
TEST(Tile, RepeatsFromTensorsEachRun) {
  OpTester tile("tile");
  tile.SetInput<float>("X", "x", {1, 2}, {1.f, 2.f});
  Tensor* rows = tile.SetInput<int64_t>("RepeatTimes", "r", {2}, {2, 1});
  tile.SetOutput("Out", "out");
  tile.SetAttr("repeat_times", std::vector<int32_t>{1, 1});
  Status s = tile.Run();
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(tile.Get("out").dims(), (DDim{2, 2}));
  EXPECT_EQ(tile.GetData<float>("out"), (std::vector<float>{1, 2, 1, 2}));
  rows->mutable_data<int64_t>()[0] = 3;
  rows->mutable_data<int64_t>()[1] = 2;
  ASSERT_TRUE(tile.Run().ok());
  EXPECT_EQ(tile.Get("out").dims(), (DDim{3, 4}));
  EXPECT_EQ(tile.GetData<float>("out"), Reference<float>({1.f, 2.f}, {1, 2}, {3, 4}));

  OpTester expand("expand");  // one 1-element tensor per dim
  expand.SetInput<float>("X", "x", {2, 1}, {4.f, 5.f});
  expand.SetInput<int32_t>("expand_times_tensor", "t0", {1}, {1});
  Tensor* cols = expand.SetInput<int32_t>("expand_times_tensor", "t1", {1}, {3});
  expand.SetOutput("Out", "out");
  expand.SetAttr("expand_times", std::vector<int32_t>{1, 1});
  s = expand.Run();
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(expand.GetData<float>("out"), (std::vector<float>{4, 4, 4, 5, 5, 5}));
  cols->mutable_data<int32_t>()[0] = 2;
  ASSERT_TRUE(expand.Run().ok());
  EXPECT_EQ(expand.Get("out").dims(), (DDim{2, 2}));
  EXPECT_EQ(expand.GetData<float>("out"), (std::vector<float>{4, 4, 5, 5}));
}

}  // namespace
}  // namespace lite
