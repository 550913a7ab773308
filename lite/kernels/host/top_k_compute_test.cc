// top_k / top_k_v2 against a reference that sorts each line completely.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

// X [3, 5, 2] with ties; reference per line along `axis` (0..2).
void Check(const std::string& op, int axis, int k, bool largest) {
  const DDim xd{3, 5, 2};
  std::vector<float> x(30);
  for (int i = 0; i < 30; ++i) x[i] = static_cast<float>((i * 7) % 5);
  OpTester t(op);
  t.SetInput<float>("X", "x", xd, x);
  t.SetOutput("Out", "out");
  t.SetOutput("Indices", "idx");
  t.SetAttr("k", k);
  if (op == "top_k_v2") {
    t.SetAttr("axis", axis);
    t.SetAttr("largest", largest);
  }
  Status s = t.Run();
  ASSERT_TRUE(s.ok()) << s.ToString();
  DDim od = xd;
  od[axis] = k;
  ASSERT_EQ(t.Get("out").dims(), od);
  const auto out = t.GetData<float>("out");
  const auto idx = t.GetData<int64_t>("idx");
  int64_t stride[3] = {10, 2, 1}, ostride[3] = {od[1] * od[2], od[2], 1};
  for (int64_t a = 0; a < od[0]; ++a) {
    for (int64_t b = 0; b < od[1]; ++b) {
      for (int64_t c = 0; c < od[2]; ++c) {
        int64_t pos[3] = {a, b, c};
        const int64_t j = pos[axis];
        pos[axis] = 0;
        std::vector<std::pair<float, int64_t>> line;
        for (int64_t i = 0; i < xd[axis]; ++i) {
          line.push_back({x[pos[0] * stride[0] + pos[1] * stride[1] + pos[2] * stride[2] +
                            i * stride[axis]], i});
        }
        std::stable_sort(line.begin(), line.end(), [&](const auto& l, const auto& r) {
          return largest ? l.first > r.first : l.first < r.first;
        });
        const int64_t at = a * ostride[0] + b * ostride[1] + c * ostride[2];
        EXPECT_EQ(out[at], line[j].first) << op << " axis " << axis << " at " << at;
        EXPECT_EQ(idx[at], line[j].second) << op << " axis " << axis << " at " << at;
      }
    }
  }
}

TEST(TopK, AxesLargestSmallestAndV1) {
  for (int axis = 0; axis < 3; ++axis) {
    for (bool largest : {true, false}) Check("top_k_v2", axis, axis == 1 ? 3 : 2, largest);
  }
  Check("top_k", 2, 1, true);
}

TEST(TopK, KTooLarge) {
  OpTester t("top_k_v2");
  t.SetInput<float>("X", "x", {2, 3}, std::vector<float>(6, 0.f));
  t.SetOutput("Out", "out");
  t.SetOutput("Indices", "idx");
  t.SetAttr("k", 4);
  Status s = t.Run();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("k = 4 exceeds"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace lite
