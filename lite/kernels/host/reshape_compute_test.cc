#include <gtest/gtest.h>

#include <numeric>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

template <typename T>
std::vector<T> Iota(int64_t n, T start = T(0)) {
  std::vector<T> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = static_cast<T>(start + static_cast<T>(i));
  return v;
}

// Runs `op` on float input x of dims `in` and returns the status; the output
// var is "out" (and "xshape" when with_xshape).
struct Runner {
  OpTester t;
  explicit Runner(const std::string& op, const DDim& in, bool with_xshape = true)
      : t(op) {
    t.SetInput<float>("X", "x", in, Iota<float>(Product(in), 1.f));
    t.SetOutput("Out", "out");
    if (with_xshape) t.SetOutput("XShape", "xshape");
  }
  void ExpectOut(const DDim& dims) {
    EXPECT_EQ(t.Get("out").dims(), dims);
    EXPECT_EQ(t.GetData<float>("out"), Iota<float>(Product(dims), 1.f));
  }
};

TEST(Reshape, ZeroCopiesDimAndMinusOneIsInferred) {
  Runner r("reshape2", {2, 3, 4});
  r.t.SetAttr("shape", std::vector<int32_t>{0, -1, 2});
  ASSERT_TRUE(r.t.Run().ok());
  r.ExpectOut({2, 6, 2});
  EXPECT_EQ(r.t.Get("xshape").dims(), (DDim{0, 2, 3, 4}));
}

TEST(Reshape, V1WithoutXShape) {
  Runner r("reshape", {4, 6}, false);
  r.t.SetAttr("shape", std::vector<int64_t>{-1, 3});
  ASSERT_TRUE(r.t.Run().ok());
  r.ExpectOut({8, 3});
}

TEST(Reshape, ShapeInputOverridesAttr) {
  Runner r("reshape2", {2, 3, 4});
  r.t.SetAttr("shape", std::vector<int32_t>{24});
  r.t.SetInput<int32_t>("Shape", "shape", {2}, {4, -1});
  ASSERT_TRUE(r.t.Run().ok());
  r.ExpectOut({4, 6});
}

TEST(Reshape, ShapeTensorListOverridesShapeAndAttr) {
  Runner r("reshape2", {2, 3, 4});
  r.t.SetAttr("shape", std::vector<int32_t>{24});
  r.t.SetInput<int32_t>("Shape", "shape", {2}, {4, -1});
  r.t.SetInput<int64_t>("ShapeTensor", "s0", {1}, {4});
  r.t.SetInput<int32_t>("ShapeTensor", "s1", {1}, {0});  // copies in[1] = 3
  r.t.SetInput<int64_t>("ShapeTensor", "s2", {1}, {-1});
  ASSERT_TRUE(r.t.Run().ok());
  r.ExpectOut({4, 3, 2});
}

TEST(Reshape, NewShapeValuesWithSameDimsAreHonouredOnRerun) {
  Runner r("reshape2", {2, 3, 4});
  Tensor* s = r.t.SetInput<int32_t>("Shape", "shape", {2}, {4, -1});
  ASSERT_TRUE(r.t.Run().ok());
  r.ExpectOut({4, 6});
  s->mutable_data<int32_t>()[0] = 12;
  ASSERT_TRUE(r.t.Run().ok());
  r.ExpectOut({12, 2});
}

TEST(Reshape, Int64DataIsCopied) {
  OpTester t("reshape2");
  std::vector<int64_t> x = {1, -2, 3, 1LL << 40, 5, 6};
  t.SetInput<int64_t>("X", "x", {2, 3}, x);
  t.SetOutput("Out", "out");
  t.SetAttr("shape", std::vector<int32_t>{3, 2});
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dtype(), DataType::kInt64);
  EXPECT_EQ(t.GetData<int64_t>("out"), x);
}

TEST(Reshape, InvalidShapesFail) {
  const std::vector<std::vector<int32_t>> bad = {
      {5, -1}, {-1, -1}, {7}, {2, -3, 4}, {0, 0, 0, 0}};
  for (const auto& shape : bad) {
    Runner r("reshape2", {2, 3, 4});
    r.t.SetAttr("shape", shape);
    EXPECT_FALSE(r.t.Run().ok()) << shape.size();
  }
}

TEST(Flatten, Flatten2Axis) {
  {
    Runner r("flatten2", {2, 3, 4});
    r.t.SetAttr("axis", 2);
    ASSERT_TRUE(r.t.Run().ok());
    r.ExpectOut({6, 4});
    EXPECT_EQ(r.t.Get("xshape").dims(), (DDim{0, 2, 3, 4}));
  }
  {
    Runner r("flatten", {2, 3, 4}, false);
    r.t.SetAttr("axis", 0);
    ASSERT_TRUE(r.t.Run().ok());
    r.ExpectOut({1, 24});
  }
  {
    Runner r("flatten2", {2, 3, 4});  // default axis 1
    ASSERT_TRUE(r.t.Run().ok());
    r.ExpectOut({2, 12});
  }
  {
    Runner r("flatten2", {2, 3, 4});
    r.t.SetAttr("axis", 4);
    EXPECT_FALSE(r.t.Run().ok());
  }
}

TEST(Flatten, ContiguousRange) {
  struct Case {
    int start, stop;
    bool set;
    DDim want;
  } cases[] = {
      {1, -1, false, {2, 60}},   {1, 2, true, {2, 12, 5}}, {0, -1, true, {120}},
      {-2, -1, true, {2, 3, 20}}, {2, 2, true, {2, 3, 4, 5}}, {0, 0, true, {2, 3, 4, 5}},
  };
  for (const auto& c : cases) {
    Runner r("flatten_contiguous_range", {2, 3, 4, 5});
    if (c.set) {
      r.t.SetAttr("start_axis", c.start);
      r.t.SetAttr("stop_axis", c.stop);
    }
    ASSERT_TRUE(r.t.Run().ok()) << c.start << " " << c.stop;
    r.ExpectOut(c.want);
    EXPECT_EQ(r.t.Get("xshape").dims(), (DDim{0, 2, 3, 4, 5}));
  }
  Runner bad("flatten_contiguous_range", {2, 3, 4, 5});
  bad.t.SetAttr("start_axis", 2);
  bad.t.SetAttr("stop_axis", 1);
  EXPECT_FALSE(bad.t.Run().ok());
  Runner oob("flatten_contiguous_range", {2, 3});
  oob.t.SetAttr("stop_axis", 5);
  EXPECT_FALSE(oob.t.Run().ok());
}

TEST(Squeeze, ListedNonUnitAxisIsIgnored) {
  Runner r("squeeze2", {1, 3, 1, 2});
  r.t.SetAttr("axes", std::vector<int32_t>{0, 1});
  ASSERT_TRUE(r.t.Run().ok());
  r.ExpectOut({3, 1, 2});
  EXPECT_EQ(r.t.Get("xshape").dims(), (DDim{0, 1, 3, 1, 2}));
}

TEST(Squeeze, EmptyAxesSqueezesAllOnesAndNegativeAxes) {
  {
    Runner r("squeeze2", {1, 3, 1, 2});
    ASSERT_TRUE(r.t.Run().ok());
    r.ExpectOut({3, 2});
  }
  {
    Runner r("squeeze", {1, 3, 1, 2}, false);
    r.t.SetAttr("axes", std::vector<int32_t>{-2});
    ASSERT_TRUE(r.t.Run().ok());
    r.ExpectOut({1, 3, 2});
  }
  {
    Runner r("squeeze2", {1, 3});
    r.t.SetAttr("axes", std::vector<int32_t>{2});
    EXPECT_FALSE(r.t.Run().ok());
  }
}

// Reference: insert a 1 at each (normalized) axis in order.
DDim UnsqueezeRef(DDim d, const std::vector<int>& axes) {
  for (int a : axes) {
    int cur = static_cast<int>(d.size());
    int c = a < 0 ? a + cur + 1 : a;
    d.insert(d.begin() + c, 1);
  }
  return d;
}

TEST(Unsqueeze, NegativeAndMultipleAxesInOrder) {
  const std::vector<std::vector<int>> cases = {
      {0, -1}, {-1, 0}, {1, 1}, {0, 2, 4}, {-1, -1}, {2, 0, -3}};
  for (const auto& axes : cases) {
    Runner r("unsqueeze2", {3, 4});
    r.t.SetAttr("axes", std::vector<int32_t>(axes.begin(), axes.end()));
    ASSERT_TRUE(r.t.Run().ok()) << axes[0] << " " << axes[1];
    r.ExpectOut(UnsqueezeRef({3, 4}, axes));
    EXPECT_EQ(r.t.Get("xshape").dims(), (DDim{0, 3, 4}));
  }
  EXPECT_EQ(UnsqueezeRef({3, 4}, {0, -1}), (DDim{1, 3, 4, 1}));
  Runner bad("unsqueeze", {3, 4}, false);
  bad.t.SetAttr("axes", std::vector<int32_t>{4});
  EXPECT_FALSE(bad.t.Run().ok());
}

TEST(Unsqueeze, AxesTensorAndListOverrideAttr) {
  {
    Runner r("unsqueeze2", {3, 4});
    r.t.SetAttr("axes", std::vector<int32_t>{0});
    r.t.SetInput<int32_t>("AxesTensor", "axes", {2}, {1, -1});
    ASSERT_TRUE(r.t.Run().ok());
    r.ExpectOut({3, 1, 4, 1});
  }
  {
    Runner r("unsqueeze2", {3, 4});
    r.t.SetInput<int64_t>("AxesTensorList", "a0", {1}, {2});
    r.t.SetInput<int32_t>("AxesTensorList", "a1", {1}, {0});
    ASSERT_TRUE(r.t.Run().ok());
    r.ExpectOut({1, 3, 4, 1});
  }
}

TEST(Reshape, ReinfersWhenInputDimsChange) {
  OpTester t("flatten_contiguous_range");
  Tensor* x = t.SetInput<float>("X", "x", {2, 3, 4}, Iota<float>(24));
  t.SetOutput("Out", "out");
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dims(), (DDim{2, 12}));
  x->Resize({3, 2, 2});
  float* p = x->mutable_data<float>();
  for (int i = 0; i < 12; ++i) p[i] = static_cast<float>(100 + i);
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dims(), (DDim{3, 4}));
  EXPECT_EQ(t.GetData<float>("out"), Iota<float>(12, 100.f));
}

}  // namespace
}  // namespace lite
