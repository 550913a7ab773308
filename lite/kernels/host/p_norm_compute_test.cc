// p_norm against a per-line reference for p = 2, 1, 3, 0, inf, -inf, along
// each axis and as a vector, with and without keepdim.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

double NormRef(const std::vector<double>& v, double p) {
  double acc = std::isinf(p) && p < 0 ? INFINITY : 0;
  for (double a : v) {
    a = std::fabs(a);
    if (std::isinf(p)) acc = p > 0 ? std::max(acc, a) : std::min(acc, a);
    else if (p == 0) acc += a != 0;
    else acc += std::pow(a, p);
  }
  return std::isinf(p) || p == 0 ? acc : std::pow(acc, 1 / p);
}

TEST(PNorm, OrdersAxesKeepdim) {
  std::vector<float> x = RandomFloats(24, 5, -2.f, 2.f);  // [2, 3, 4]
  x[3] = 0.f;
  const float inf = std::numeric_limits<float>::infinity();
  for (float p : {2.f, 1.f, 3.f, 0.f, inf, -inf}) {
    for (int axis : {0, 1, -1}) {
      for (bool keep : {false, true}) {
        OpTester t("p_norm");
        t.SetInput<float>("X", "x", {2, 3, 4}, x);
        t.SetOutput("Out", "out");
        t.SetAttr("porder", p);
        t.SetAttr("axis", axis);
        t.SetAttr("keepdim", keep);
        ASSERT_TRUE(t.Run().ok());
        const int a = axis < 0 ? axis + 3 : axis;
        DDim od{2, 3, 4};
        if (keep) od[a] = 1; else od.erase(od.begin() + a);
        ASSERT_EQ(t.Get("out").dims(), od);
        const auto out = t.GetData<float>("out");
        const int64_t d[3] = {2, 3, 4};
        int at = 0;
        for (int64_t i = 0; i < (a == 0 ? 1 : 2); ++i) {
          for (int64_t j = 0; j < (a == 1 ? 1 : 3); ++j) {
            for (int64_t k = 0; k < (a == 2 ? 1 : 4); ++k, ++at) {
              std::vector<double> line;
              for (int64_t r = 0; r < d[a]; ++r) {
                int64_t pos[3] = {i, j, k};
                pos[a] = r;
                line.push_back(x[(pos[0] * 3 + pos[1]) * 4 + pos[2]]);
              }
              EXPECT_NEAR(out[at], NormRef(line, p), 1e-5) << "p " << p << " axis " << axis;
            }
          }
        }
      }
    }
  }
}

TEST(PNorm, AsVector) {
  OpTester t("p_norm");
  t.SetInput<float>("X", "x", {2, 2}, {3.f, 0.f, -4.f, 0.f});
  t.SetOutput("Out", "out");
  t.SetAttr("asvector", true);
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dims(), (DDim{1}));
  EXPECT_FLOAT_EQ(t.GetData<float>("out")[0], 5.f);
}

}  // namespace
}  // namespace lite
