// argsort on every axis, both directions, against a reference that sorts
// (value, index) pairs of each line.
#include <gtest/gtest.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

TEST(Argsort, EveryAxisBothDirectionsWithTies) {
  // X [2, 3, 4] of small integers so ties occur.
  std::vector<float> x;
  for (float v : RandomFloats(24, 9, 0.f, 3.f)) x.push_back(static_cast<float>(static_cast<int>(v)));
  const int64_t d[3] = {2, 3, 4};
  for (int axis = -3; axis < 3; ++axis) {
    for (bool descending : {false, true}) {
      OpTester t("argsort");
      t.SetInput<float>("X", "x", {2, 3, 4}, x);
      t.SetAttr("axis", axis);
      t.SetAttr("descending", descending);
      t.SetOutput("Out", "out");
      t.SetOutput("Indices", "idx");
      ASSERT_TRUE(t.Run().ok());
      const int a = axis < 0 ? axis + 3 : axis;
      std::vector<float> want_v(24);
      std::vector<int64_t> want_i(24);
      int64_t stride[3] = {12, 4, 1};
      for (int64_t flat = 0; flat < 24; ++flat) {
        int64_t c[3] = {flat / 12, flat / 4 % 3, flat % 4};
        if (c[a] != 0) continue;  // one line per start position
        std::vector<std::pair<float, int64_t>> line;
        for (int64_t k = 0; k < d[a]; ++k) line.push_back({x[flat + k * stride[a]], k});
        // Ties keep index order: sort by value, then by index.
        std::sort(line.begin(), line.end(), [&](const auto& l, const auto& r) {
          if (l.first != r.first) return descending ? l.first > r.first : l.first < r.first;
          return l.second < r.second;
        });
        for (int64_t k = 0; k < d[a]; ++k) {
          want_v[flat + k * stride[a]] = line[k].first;
          want_i[flat + k * stride[a]] = line[k].second;
        }
      }
      EXPECT_EQ(t.GetData<float>("out"), want_v) << "axis " << axis << " desc " << descending;
      EXPECT_EQ(t.GetData<int64_t>("idx"), want_i) << "axis " << axis << " desc " << descending;
    }
  }
}

TEST(Argsort, Int64AndBadAxis) {
  OpTester t("argsort");
  t.SetInput<int64_t>("X", "x", {4}, {5, -2, 9, 0});
  t.SetOutput("Out", "out");
  t.SetOutput("Indices", "idx");
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.GetData<int64_t>("out"), (std::vector<int64_t>{-2, 0, 5, 9}));
  EXPECT_EQ(t.GetData<int64_t>("idx"), (std::vector<int64_t>{1, 3, 0, 2}));

  OpTester bad("argsort");
  bad.SetInput<float>("X", "x", {4}, RandomFloats(4, 1));
  bad.SetAttr("axis", 1);
  bad.SetOutput("Out", "out");
  bad.SetOutput("Indices", "idx");
  EXPECT_FALSE(bad.Run().ok());
}

}  // namespace
}  // namespace lite
