// gather, index_select, gather_nd and where against reference loops over
// explicit indices.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

std::vector<float> Iota(int64_t n) {
  std::vector<float> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = static_cast<float>(i) * 0.5f - 3.f;
  return v;
}

// X [2, 3, 4] gathered along `axis` by `index`.
std::vector<float> GatherRef(const std::vector<float>& x, int axis,
                             const std::vector<int64_t>& index) {
  const int64_t d[3] = {2, 3, 4};
  std::vector<float> out;
  int64_t od[3] = {2, 3, 4};
  od[axis] = static_cast<int64_t>(index.size());
  for (int64_t a = 0; a < od[0]; ++a) {
    for (int64_t b = 0; b < od[1]; ++b) {
      for (int64_t c = 0; c < od[2]; ++c) {
        int64_t i[3] = {a, b, c};
        i[axis] = index[i[axis]];
        out.push_back(x[(i[0] * d[1] + i[1]) * d[2] + i[2]]);
      }
    }
  }
  return out;
}

TEST(Gather, EveryAxisBothOpsBothIndexTypes) {
  const std::vector<float> x = Iota(24);
  const std::vector<int64_t> index = {1, 0, 1, 1};
  for (int axis = 0; axis < 3; ++axis) {
    std::vector<int64_t> idx;
    for (int64_t v : index) idx.push_back(axis == 0 ? v : (axis == 1 ? 2 - v : 3 - v));
    for (const std::string op : {"gather", "index_select"}) {
      OpTester t(op);
      t.SetInput<float>("X", "x", {2, 3, 4}, x);
      if (op == "gather") {
        t.SetInput<int64_t>("Index", "i", {4}, idx);
        t.SetAttr("axis", axis);
      } else {
        t.SetInput<int32_t>("Index", "i", {4}, std::vector<int32_t>(idx.begin(), idx.end()));
        t.SetAttr("dim", axis - 3);  // negative dim
      }
      t.SetOutput("Out", "out");
      Status s = t.Run();
      ASSERT_TRUE(s.ok()) << op << ": " << s.ToString();
      DDim want{2, 3, 4};
      want[axis] = 4;
      EXPECT_EQ(t.Get("out").dims(), want) << op << " axis " << axis;
      EXPECT_EQ(t.GetData<float>("out"), GatherRef(x, axis, idx)) << op << " axis " << axis;
    }
  }
}

TEST(Gather, OutOfRangeIndexIsAnError) {
  OpTester t("gather");
  t.SetInput<float>("X", "x", {3, 2}, Iota(6));
  t.SetInput<int32_t>("Index", "i", {2}, {0, 3});
  t.SetOutput("Out", "out");
  Status s = t.Run();
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << s.ToString();
  EXPECT_NE(s.message().find("index 3 (element 1 of Index) is out of range [0, 3)"),
            std::string::npos)
      << s.message();
}

TEST(GatherNd, FullAndPartialIndexDepth) {
  const std::vector<float> x = Iota(24);  // [2, 3, 4]
  OpTester full("gather_nd");
  full.SetInput<float>("X", "x", {2, 3, 4}, x);
  full.SetInput<int64_t>("Index", "i", {2, 3}, {1, 2, 3, 0, 1, 0});
  full.SetOutput("Out", "out");
  ASSERT_TRUE(full.Run().ok());
  EXPECT_EQ(full.Get("out").dims(), (DDim{2}));
  EXPECT_EQ(full.GetData<float>("out"), (std::vector<float>{x[23], x[4]}));

  OpTester part("gather_nd");
  part.SetInput<float>("X", "x", {2, 3, 4}, x);
  part.SetInput<int32_t>("Index", "i", {3, 1, 2}, {1, 1, 0, 2, 0, 0});
  part.SetOutput("Out", "out");
  ASSERT_TRUE(part.Run().ok());
  EXPECT_EQ(part.Get("out").dims(), (DDim{3, 1, 4}));
  std::vector<float> want;
  for (int64_t row : {1 * 3 + 1, 0 * 3 + 2, 0}) {
    for (int64_t c = 0; c < 4; ++c) want.push_back(x[row * 4 + c]);
  }
  EXPECT_EQ(part.GetData<float>("out"), want);

  OpTester bad("gather_nd");
  bad.SetInput<float>("X", "x", {2, 3, 4}, x);
  bad.SetInput<int32_t>("Index", "i", {1, 2}, {0, 3});
  bad.SetOutput("Out", "out");
  Status s = bad.Run();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("index 3"), std::string::npos) << s.message();
}

TEST(Where, PicksPerElementAndChecksInputs) {
  OpTester t("where");
  t.SetInput<bool>("Condition", "c", {2, 2}, {true, false, false, true});
  t.SetInput<int64_t>("X", "x", {2, 2}, {1, 2, 3, 4});
  t.SetInput<int64_t>("Y", "y", {2, 2}, {-1, -2, -3, -4});
  t.SetOutput("Out", "out");
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.GetData<int64_t>("out"), (std::vector<int64_t>{1, -2, -3, 4}));

  OpTester dims("where");
  dims.SetInput<bool>("Condition", "c", {2}, {true, false});
  dims.SetInput<float>("X", "x", {2, 1}, {1.f, 2.f});
  dims.SetInput<float>("Y", "y", {2, 1}, {1.f, 2.f});
  dims.SetOutput("Out", "out");
  EXPECT_FALSE(dims.Run().ok());
}

}  // namespace
}  // namespace lite
