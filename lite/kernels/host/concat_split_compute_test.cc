#include <gtest/gtest.h>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

// Reference element (i0..i_{r-1}) of a row-major tensor.
int64_t Offset(const DDim& d, const std::vector<int64_t>& idx) {
  int64_t off = 0;
  for (size_t i = 0; i < d.size(); ++i) off = off * d[i] + idx[i];
  return off;
}

bool Next(const DDim& d, std::vector<int64_t>* idx) {
  for (int i = static_cast<int>(d.size()) - 1; i >= 0; --i) {
    if (++(*idx)[i] < d[i]) return true;
    (*idx)[i] = 0;
  }
  return false;
}

template <typename T>
std::vector<T> ConcatRef(const std::vector<std::vector<T>>& xs,
                         const std::vector<DDim>& dims, int axis, DDim* out_dims) {
  DDim out = dims[0];
  out[axis] = 0;
  for (const auto& d : dims) out[axis] += d[axis];
  *out_dims = out;
  std::vector<T> y(Product(out));
  std::vector<int64_t> idx(out.size(), 0);
  do {
    int64_t a = idx[axis];
    size_t k = 0;
    while (a >= dims[k][axis]) a -= dims[k++][axis];
    auto src = idx;
    src[axis] = a;
    y[Offset(out, idx)] = xs[k][Offset(dims[k], src)];
  } while (Next(out, &idx));
  return y;
}

TEST(Concat, NegativeAxisInt64) {
  std::vector<DDim> dims = {{2, 3, 2}, {2, 1, 2}, {2, 4, 2}};
  std::vector<std::vector<int64_t>> xs;
  OpTester t("concat");
  for (size_t i = 0; i < dims.size(); ++i) {
    std::vector<int64_t> x(Product(dims[i]));
    for (size_t j = 0; j < x.size(); ++j) x[j] = (int64_t(i + 1) << 33) + j;
    xs.push_back(x);
    t.SetInput<int64_t>("X", "x" + std::to_string(i), dims[i], x);
  }
  t.SetOutput("Out", "out");
  t.SetAttr("axis", -2);
  ASSERT_TRUE(t.Run().ok());
  DDim want_dims;
  auto want = ConcatRef(xs, dims, 1, &want_dims);
  EXPECT_EQ(t.Get("out").dims(), (DDim{2, 8, 2}));
  EXPECT_EQ(t.Get("out").dtype(), DataType::kInt64);
  EXPECT_EQ(t.GetData<int64_t>("out"), want);
}

TEST(Concat, AxisTensorOverridesAttrAndMismatchFails) {
  std::vector<DDim> dims = {{2, 3}, {1, 3}};
  std::vector<std::vector<float>> xs = {{1, 2, 3, 4, 5, 6}, {7, 8, 9}};
  OpTester t("concat");
  t.SetInput<float>("X", "a", dims[0], xs[0]);
  t.SetInput<float>("X", "b", dims[1], xs[1]);
  t.SetInput<int32_t>("AxisTensor", "axis", {1}, {0});
  t.SetAttr("axis", 1);
  t.SetOutput("Out", "out");
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dims(), (DDim{3, 3}));
  EXPECT_EQ(t.GetData<float>("out"), (std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8, 9}));

  OpTester bad("concat");
  bad.SetInput<float>("X", "a", dims[0], xs[0]);
  bad.SetInput<float>("X", "b", dims[1], xs[1]);
  bad.SetAttr("axis", 1);  // dims differ on axis 0
  bad.SetOutput("Out", "out");
  EXPECT_FALSE(bad.Run().ok());
}

TEST(Split, SectionsWithMinusOne) {
  const DDim in{2, 7, 3};
  std::vector<int32_t> x(Product(in));
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<int32_t>(i * 3 + 1);
  OpTester t("split");
  t.SetInput<int32_t>("X", "x", in, x);
  t.SetAttr("axis", -2);
  t.SetAttr("sections", std::vector<int32_t>{2, -1, 1});
  for (int i = 0; i < 3; ++i) t.SetOutput("Out", "o" + std::to_string(i));
  ASSERT_TRUE(t.Run().ok());
  const std::vector<int64_t> sizes = {2, 4, 1};
  int64_t begin = 0;
  for (int k = 0; k < 3; ++k) {
    const DDim od{2, sizes[k], 3};
    ASSERT_EQ(t.Get("o" + std::to_string(k)).dims(), od);
    auto got = t.GetData<int32_t>("o" + std::to_string(k));
    std::vector<int64_t> idx(3, 0);
    do {
      auto src = idx;
      src[1] += begin;
      EXPECT_EQ(got[Offset(od, idx)], x[Offset(in, src)]);
    } while (Next(od, &idx));
    begin += sizes[k];
  }
}

TEST(Split, NumAndSectionsTensorListAndErrors) {
  {
    OpTester t("split");
    t.SetInput<float>("X", "x", {4, 2}, {0, 1, 2, 3, 4, 5, 6, 7});
    t.SetAttr("num", 2);
    t.SetOutput("Out", "a");
    t.SetOutput("Out", "b");
    ASSERT_TRUE(t.Run().ok());
    EXPECT_EQ(t.GetData<float>("a"), (std::vector<float>{0, 1, 2, 3}));
    EXPECT_EQ(t.GetData<float>("b"), (std::vector<float>{4, 5, 6, 7}));
  }
  {
    OpTester t("split");
    t.SetInput<float>("X", "x", {4, 2}, {0, 1, 2, 3, 4, 5, 6, 7});
    t.SetAttr("sections", std::vector<int32_t>{2, 2});
    t.SetInput<int32_t>("SectionsTensorList", "s0", {1}, {1});
    t.SetInput<int32_t>("SectionsTensorList", "s1", {1}, {-1});
    t.SetInput<int64_t>("AxisTensor", "ax", {1}, {0});
    t.SetAttr("axis", 1);
    t.SetOutput("Out", "a");
    t.SetOutput("Out", "b");
    ASSERT_TRUE(t.Run().ok());
    EXPECT_EQ(t.Get("a").dims(), (DDim{1, 2}));
    EXPECT_EQ(t.Get("b").dims(), (DDim{3, 2}));
    EXPECT_EQ(t.GetData<float>("b"), (std::vector<float>{2, 3, 4, 5, 6, 7}));
  }
  const std::vector<std::vector<int32_t>> bad_sections = {{-1, -1}, {1, 2}, {5, -1}};
  for (const auto& s : bad_sections) {
    OpTester t("split");
    t.SetInput<float>("X", "x", {4, 2}, std::vector<float>(8));
    t.SetAttr("sections", s);
    t.SetOutput("Out", "a");
    t.SetOutput("Out", "b");
    EXPECT_FALSE(t.Run().ok());
  }
  OpTester t("split");
  t.SetInput<float>("X", "x", {3, 2}, std::vector<float>(6));
  t.SetAttr("num", 2);  // 3 is not divisible by 2
  t.SetOutput("Out", "a");
  t.SetOutput("Out", "b");
  EXPECT_FALSE(t.Run().ok());
}

TEST(Stack, StackAndUnstackRoundTrip) {
  OpTester s("stack");
  s.SetInput<float>("X", "a", {2, 2}, {1, 2, 3, 4});
  s.SetInput<float>("X", "b", {2, 2}, {5, 6, 7, 8});
  s.SetAttr("axis", -2);  // -> axis 1 of the rank-3 output
  s.SetOutput("Y", "y");
  ASSERT_TRUE(s.Run().ok());
  EXPECT_EQ(s.Get("y").dims(), (DDim{2, 2, 2}));
  EXPECT_EQ(s.GetData<float>("y"), (std::vector<float>{1, 2, 5, 6, 3, 4, 7, 8}));

  OpTester u("unstack");
  u.SetInput<float>("X", "x", {2, 2, 2}, {1, 2, 5, 6, 3, 4, 7, 8});
  u.SetAttr("axis", 1);
  u.SetAttr("num", 2);
  u.SetOutput("Y", "a");
  u.SetOutput("Y", "b");
  ASSERT_TRUE(u.Run().ok());
  EXPECT_EQ(u.Get("a").dims(), (DDim{2, 2}));
  EXPECT_EQ(u.GetData<float>("a"), (std::vector<float>{1, 2, 3, 4}));
  EXPECT_EQ(u.GetData<float>("b"), (std::vector<float>{5, 6, 7, 8}));
}

TEST(Stack, UnbindSplitsEveryIndexOfTheAxisIntoOut) {
  OpTester u("unbind");
  u.SetInput<int64_t>("X", "x", {2, 3}, {0, 1, 2, 3, 4, 5});
  u.SetAttr("axis", -1);
  for (const char* name : {"a", "b", "c"}) u.SetOutput("Out", name);
  ASSERT_TRUE(u.Run().ok());
  EXPECT_EQ(u.Get("b").dims(), (DDim{2}));
  EXPECT_EQ(u.GetData<int64_t>("a"), (std::vector<int64_t>{0, 3}));
  EXPECT_EQ(u.GetData<int64_t>("b"), (std::vector<int64_t>{1, 4}));
  EXPECT_EQ(u.GetData<int64_t>("c"), (std::vector<int64_t>{2, 5}));

  OpTester few("unbind");
  few.SetInput<float>("X", "x", {2, 3}, RandomFloats(6, 1));
  few.SetOutput("Out", "a");  // axis 0 has 2 slices
  Status s = few.Run();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("unbind"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace lite
