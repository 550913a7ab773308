// dot, addmm (every Input broadcast form) and norm against reference loops.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

TEST(Dot, OneAndTwoDims) {
  const std::vector<float> x = RandomFloats(6, 11), y = RandomFloats(6, 12);
  OpTester v("dot");
  v.SetInput<float>("X", "x", {6}, x);
  v.SetInput<float>("Y", "y", {6}, y);
  v.SetOutput("Out", "out");
  ASSERT_TRUE(v.Run().ok());
  EXPECT_EQ(v.Get("out").dims(), DDim{});
  float s = 0.f;
  for (int i = 0; i < 6; ++i) s += x[i] * y[i];
  EXPECT_FLOAT_EQ(v.GetData<float>("out")[0], s);

  OpTester m("dot");
  m.SetInput<float>("X", "x", {2, 3}, x);
  m.SetInput<float>("Y", "y", {2, 3}, y);
  m.SetOutput("Out", "out");
  ASSERT_TRUE(m.Run().ok());
  EXPECT_EQ(m.Get("out").dims(), (DDim{2}));
  for (int r = 0; r < 2; ++r) {
    float want = 0.f;
    for (int i = 0; i < 3; ++i) want += x[r * 3 + i] * y[r * 3 + i];
    EXPECT_FLOAT_EQ(m.GetData<float>("out")[r], want) << "row " << r;
  }

  OpTester bad("dot");
  bad.SetInput<float>("X", "x", {6}, x);
  bad.SetInput<float>("Y", "y", {2, 3}, y);
  bad.SetOutput("Out", "out");
  EXPECT_FALSE(bad.Run().ok());
}

TEST(Addmm, EveryInputBroadcastForm) {
  const int64_t M = 3, K = 4, N = 5;
  const std::vector<float> x = RandomFloats(M * K, 13), y = RandomFloats(K * N, 14);
  const std::vector<DDim> forms = {{M, N}, {N}, {1, N}, {M, 1}, {1, 1}};
  for (const DDim& id : forms) {
    const std::vector<float> input = RandomFloats(Product(id), 15);
    OpTester t("addmm");
    t.SetInput<float>("Input", "in", id, input);
    t.SetInput<float>("X", "x", {M, K}, x);
    t.SetInput<float>("Y", "y", {K, N}, y);
    t.SetAttr("Alpha", 0.5f);
    t.SetAttr("Beta", -2.f);
    t.SetOutput("Out", "out");
    Status s = t.Run();
    ASSERT_TRUE(s.ok()) << s.ToString();
    const std::vector<float> got = t.GetData<float>("out");
    for (int64_t i = 0; i < M; ++i) {
      for (int64_t j = 0; j < N; ++j) {
        float acc = 0.f;
        for (int64_t k = 0; k < K; ++k) acc += x[i * K + k] * y[k * N + j];
        const int64_t r = id.size() == 2 && id[0] == M ? i : 0;
        const int64_t c = id.back() == N ? j : 0;
        const float want = -2.f * input[r * id.back() + c] + 0.5f * acc;
        EXPECT_NEAR(got[i * N + j], want, 1e-5f) << DimsToString(id) << " at " << i << "," << j;
      }
    }
  }
  OpTester bad("addmm");
  bad.SetInput<float>("Input", "in", {2, N}, RandomFloats(2 * N, 1));
  bad.SetInput<float>("X", "x", {M, K}, x);
  bad.SetInput<float>("Y", "y", {K, N}, y);
  bad.SetOutput("Out", "out");
  Status s = bad.Run();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("Input [2, 5] does not broadcast to [3, 5]"), std::string::npos)
      << s.message();
}

TEST(Norm, L2AlongEachAxisWithNormOutput) {
  const std::vector<float> x = RandomFloats(24, 16);  // [2, 3, 4]
  const int64_t d[3] = {2, 3, 4}, stride[3] = {12, 4, 1};
  for (int axis = 0; axis < 3; ++axis) {
    OpTester t("norm");
    t.SetInput<float>("X", "x", {2, 3, 4}, x);
    t.SetAttr("axis", axis - 3);
    t.SetAttr("epsilon", 1e-6f);
    t.SetOutput("Out", "out");
    t.SetOutput("Norm", "n");
    ASSERT_TRUE(t.Run().ok());
    DDim nd{2, 3, 4};
    nd[axis] = 1;
    EXPECT_EQ(t.Get("n").dims(), nd);
    const std::vector<float> out = t.GetData<float>("out");
    for (int64_t flat = 0; flat < 24; ++flat) {
      const int64_t c = flat / stride[axis] % d[axis];
      const int64_t first = flat - c * stride[axis];
      double s = 0;
      for (int64_t k = 0; k < d[axis]; ++k) s += x[first + k * stride[axis]] * x[first + k * stride[axis]];
      EXPECT_NEAR(out[flat], x[flat] / std::sqrt(s + 1e-6), 1e-5) << "axis " << axis;
    }
  }
}

}  // namespace
}  // namespace lite
