// strided_slice, crop and crop_tensor against index lists built by plain
// Python-style loops over each axis.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

std::vector<float> Iota(int64_t n) {
  std::vector<float> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = static_cast<float>(i);
  return v;
}

// The indices Python's range(dim)[start:end:stride] visits.
std::vector<int64_t> PyRange(int64_t dim, int64_t start, int64_t end, int64_t stride) {
  auto norm = [dim, stride](int64_t v) {
    if (v < 0) v += dim;
    const int64_t lo = stride > 0 ? 0 : -1, hi = stride > 0 ? dim : dim - 1;
    return v < lo ? lo : (v > hi ? hi : v);
  };
  std::vector<int64_t> picked;
  for (int64_t i = norm(start); stride > 0 ? i < norm(end) : i > norm(end); i += stride) {
    picked.push_back(i);
  }
  return picked;
}

// X [3, 4, 5] (values = flat index) at the given per-axis index lists.
std::vector<float> Pick3(const std::vector<std::vector<int64_t>>& idx) {
  std::vector<float> out;
  for (int64_t a : idx[0])
    for (int64_t b : idx[1])
      for (int64_t c : idx[2]) out.push_back(static_cast<float>((a * 4 + b) * 5 + c));
  return out;
}

struct SliceCase {
  std::vector<int64_t> starts, ends, strides;
};

TEST(StridedSlice, PythonSlicingOnTwoAxes) {
  const std::vector<SliceCase> cases = {
      {{0, 1}, {3, 5}, {1, 2}},          // forward steps
      {{-1, -1}, {-100, -100}, {-1, -2}},  // full reverse
      {{10, 3}, {0, 0}, {-2, -1}},       // start past the end, reverse
      {{2, 4}, {1, 1}, {1, 1}},          // empty (end before start)
      {{-2, 0}, {100, 5}, {3, 4}},       // end past the dim
  };
  for (const SliceCase& c : cases) {
    OpTester t("strided_slice");
    t.SetInput<float>("Input", "x", {3, 4, 5}, Iota(60));
    t.SetAttr("axes", std::vector<int32_t>{0, 2});
    t.SetAttr("starts", std::vector<int32_t>(c.starts.begin(), c.starts.end()));
    t.SetAttr("ends", std::vector<int32_t>(c.ends.begin(), c.ends.end()));
    t.SetAttr("strides", std::vector<int32_t>(c.strides.begin(), c.strides.end()));
    t.SetOutput("Out", "out");
    Status s = t.Run();
    ASSERT_TRUE(s.ok()) << s.ToString();
    const std::vector<std::vector<int64_t>> idx = {
        PyRange(3, c.starts[0], c.ends[0], c.strides[0]), PyRange(4, 0, 4, 1),
        PyRange(5, c.starts[1], c.ends[1], c.strides[1])};
    EXPECT_EQ(t.Get("out").dims(),
              (DDim{static_cast<int64_t>(idx[0].size()), 4, static_cast<int64_t>(idx[2].size())}))
        << "starts " << c.starts[0] << "," << c.starts[1];
    EXPECT_EQ(t.GetData<float>("out"), Pick3(idx)) << "starts " << c.starts[0];
  }
}

TEST(StridedSlice, TensorsDecreaseAxisAndErrors) {
  OpTester t("strided_slice");
  t.SetInput<float>("Input", "x", {3, 4, 5}, Iota(60));
  t.SetInput<int64_t>("StartsTensor", "s", {2}, {1, 3});
  t.SetInput<int32_t>("EndsTensor", "e", {2}, {2, 0});
  t.SetInput<int64_t>("StridesTensor", "st", {2}, {1, -2});
  t.SetAttr("axes", std::vector<int32_t>{0, 1});
  t.SetAttr("starts", std::vector<int32_t>{0, 0});  // the tensors win
  t.SetAttr("ends", std::vector<int32_t>{1, 1});
  t.SetAttr("strides", std::vector<int32_t>{1, 1});
  t.SetAttr("decrease_axis", std::vector<int32_t>{0});
  t.SetOutput("Out", "out");
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dims(), (DDim{2, 5}));
  EXPECT_EQ(t.GetData<float>("out"), Pick3({{1}, {3, 1}, {0, 1, 2, 3, 4}}));

  OpTester zero("strided_slice");
  zero.SetInput<float>("Input", "x", {3}, Iota(3));
  zero.SetAttr("axes", std::vector<int32_t>{0});
  zero.SetAttr("starts", std::vector<int32_t>{0});
  zero.SetAttr("ends", std::vector<int32_t>{3});
  zero.SetAttr("strides", std::vector<int32_t>{0});
  zero.SetOutput("Out", "out");
  Status s = zero.Run();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("stride of axis 0 is 0"), std::string::npos) << s.message();
}

TEST(Crop, AttrShapeReferenceYAndOffsetsTensor) {
  OpTester a("crop");
  a.SetInput<float>("X", "x", {3, 4, 5}, Iota(60));
  a.SetAttr("shape", std::vector<int32_t>{2, 2, 3});
  a.SetAttr("offsets", std::vector<int32_t>{1, 2, 1});
  a.SetOutput("Out", "out");
  ASSERT_TRUE(a.Run().ok());
  EXPECT_EQ(a.Get("out").dims(), (DDim{2, 2, 3}));
  EXPECT_EQ(a.GetData<float>("out"), Pick3({{1, 2}, {2, 3}, {1, 2, 3}}));

  OpTester y("crop");
  y.SetInput<float>("X", "x", {3, 4, 5}, Iota(60));
  y.SetInput<float>("Y", "ref", {1, 4, 2}, std::vector<float>(8));
  y.SetInput<int32_t>("Offsets", "o", {3}, {2, 0, 3});
  y.SetOutput("Out", "out");
  ASSERT_TRUE(y.Run().ok());
  EXPECT_EQ(y.GetData<float>("out"), Pick3({{2}, {0, 1, 2, 3}, {3, 4}}));

  OpTester out("crop");
  out.SetInput<float>("X", "x", {3, 4, 5}, Iota(60));
  out.SetAttr("shape", std::vector<int32_t>{2, 2, 3});
  out.SetAttr("offsets", std::vector<int32_t>{2, 0, 0});
  out.SetOutput("Out", "out");
  Status s = out.Run();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("outside X [3, 4, 5] at dim 0"), std::string::npos) << s.message();
}

TEST(CropTensor, ShapeListWithMinusOneAndOffsetsList) {
  OpTester t("crop_tensor");
  t.SetInput<int64_t>("X", "x", {2, 3}, {0, 1, 2, 3, 4, 5});
  t.SetInput<int32_t>("ShapeTensor", "s0", {1}, {1});
  t.SetInput<int32_t>("ShapeTensor", "s1", {1}, {-1});
  t.SetInput<int64_t>("OffsetsTensor", "o0", {1}, {1});
  t.SetInput<int64_t>("OffsetsTensor", "o1", {1}, {1});
  t.SetOutput("Out", "out");
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dims(), (DDim{1, 2}));
  EXPECT_EQ(t.GetData<int64_t>("out"), (std::vector<int64_t>{4, 5}));
}

}  // namespace
}  // namespace lite
