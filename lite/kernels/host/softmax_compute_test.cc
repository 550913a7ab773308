#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

// Straightforward softmax along `axis` of a tensor with dims d, in double.
std::vector<double> RefSoftmax(const std::vector<float>& x, const DDim& d, int axis,
                               bool log) {
  const int rank = static_cast<int>(d.size());
  if (axis < 0) axis += rank;
  int64_t outer = 1, inner = 1;
  for (int i = 0; i < axis; ++i) outer *= d[i];
  for (int i = axis + 1; i < rank; ++i) inner *= d[i];
  const int64_t n = d[axis];
  std::vector<double> y(x.size());
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t k = 0; k < inner; ++k) {
      double sum = 0;
      for (int64_t j = 0; j < n; ++j) sum += std::exp(double(x[(o * n + j) * inner + k]));
      for (int64_t j = 0; j < n; ++j) {
        const int64_t i = (o * n + j) * inner + k;
        y[i] = log ? x[i] - std::log(sum) : std::exp(double(x[i])) / sum;
      }
    }
  }
  return y;
}

void ExpectSoftmax(const std::string& op, const DDim& d, int axis, bool set_axis,
                   float shift = 0.f) {
  std::vector<float> x(Product(d));
  for (size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.7f * i) * 3.f + shift;
  OpTester t(op);
  t.SetInput<float>("X", "x", d, x);
  t.SetOutput("Out", "out");
  if (set_axis) t.SetAttr("axis", axis);
  ASSERT_TRUE(t.Run().ok()) << op << " axis " << axis;
  EXPECT_EQ(t.Get("out").dims(), d);
  std::vector<float> xs = x;
  for (auto& v : xs) v -= shift;  // softmax is shift invariant
  auto ref = RefSoftmax(xs, d, axis, op == "log_softmax");
  if (op == "log_softmax") {
    auto r2 = RefSoftmax(x, d, axis, true);  // exact log-softmax of unshifted x
    if (shift == 0.f) ref = r2;
  }
  auto out = t.GetData<float>("out");
  for (size_t i = 0; i < out.size(); ++i) {
    ASSERT_FALSE(std::isnan(out[i])) << op << " axis " << axis << " i " << i;
    EXPECT_NEAR(out[i], ref[i], 1e-5 * std::max(1.0, std::fabs(ref[i])))
        << op << " axis " << axis << " i " << i;
  }
}

TEST(Softmax, EveryAxisOf3D) {
  for (int axis : {0, 1, 2, -1, -2, -3}) ExpectSoftmax("softmax", {3, 4, 5}, axis, true);
}

TEST(Softmax, DefaultAxisIsLast) { ExpectSoftmax("softmax", {2, 3, 4}, -1, false); }

TEST(Softmax, NumericallyStableForLargeInputs) {
  ExpectSoftmax("softmax", {2, 7}, -1, true, 1000.f);
  ExpectSoftmax("softmax", {2, 7, 3}, 1, true, 1000.f);
}

TEST(Softmax, FourDAndSumsToOne) {
  ExpectSoftmax("softmax", {2, 3, 4, 5}, 1, true);
  OpTester t("softmax");
  t.SetInput<float>("X", "x", {2, 3}, {1, 2, 3, -1, 0, 50});
  t.SetOutput("Out", "out");
  ASSERT_TRUE(t.Run().ok());
  auto out = t.GetData<float>("out");
  EXPECT_NEAR(out[0] + out[1] + out[2], 1.f, 1e-6);
  EXPECT_NEAR(out[3] + out[4] + out[5], 1.f, 1e-6);
}

TEST(LogSoftmax, EveryAxis) {
  for (int axis : {0, 1, -1}) ExpectSoftmax("log_softmax", {3, 4, 5}, axis, true);
  ExpectSoftmax("log_softmax", {3, 4}, -1, false);
}

TEST(Softmax, AxisOutOfRangeFails) {
  for (int axis : {3, -4}) {
    OpTester t("softmax");
    t.SetInput<float>("X", "x", {2, 3, 4}, std::vector<float>(24, 1.f));
    t.SetOutput("Out", "out");
    t.SetAttr("axis", axis);
    EXPECT_FALSE(t.Run().ok()) << axis;
  }
}

}  // namespace
}  // namespace lite
