#include <gtest/gtest.h>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

// Reference permutation with explicit index arithmetic.
template <typename T>
std::vector<T> TransposeRef(const std::vector<T>& x, const DDim& in,
                            const std::vector<int>& axis, DDim* out_dims) {
  const int rank = static_cast<int>(in.size());
  DDim out(rank);
  for (int i = 0; i < rank; ++i) out[i] = in[axis[i]];
  *out_dims = out;
  std::vector<int64_t> in_stride(rank, 1);
  for (int i = rank - 2; i >= 0; --i) in_stride[i] = in_stride[i + 1] * in[i + 1];
  std::vector<T> y(x.size());
  std::vector<int64_t> idx(rank, 0);
  for (size_t o = 0; o < y.size(); ++o) {
    int64_t rem = static_cast<int64_t>(o), src = 0;
    for (int i = rank - 1; i >= 0; --i) {
      idx[i] = rem % out[i];
      rem /= out[i];
    }
    for (int i = 0; i < rank; ++i) src += idx[i] * in_stride[axis[i]];
    y[o] = x[src];
  }
  return y;
}

TEST(Transpose, Transpose2FourDimsAllPermutationsSample) {
  const DDim in{2, 3, 4, 5};
  std::vector<float> x(120);
  for (int i = 0; i < 120; ++i) x[i] = static_cast<float>(i);
  const std::vector<std::vector<int>> perms = {
      {0, 2, 3, 1}, {0, 3, 1, 2}, {3, 2, 1, 0}, {1, 0, 2, 3}, {0, 1, 2, 3}, {2, 0, 3, 1}};
  for (const auto& perm : perms) {
    OpTester t("transpose2");
    t.SetInput<float>("X", "x", in, x);
    t.SetOutput("Out", "out");
    t.SetOutput("XShape", "xshape");
    t.SetAttr("axis", std::vector<int32_t>(perm.begin(), perm.end()));
    ASSERT_TRUE(t.Run().ok());
    DDim want_dims;
    auto want = TransposeRef(x, in, perm, &want_dims);
    EXPECT_EQ(t.Get("out").dims(), want_dims);
    EXPECT_EQ(t.GetData<float>("out"), want);
    EXPECT_EQ(t.Get("xshape").dims(), (DDim{0, 2, 3, 4, 5}));
  }
}

TEST(Transpose, Int64AndNegativeAxis) {
  std::vector<int64_t> x(24);
  for (int i = 0; i < 24; ++i) x[i] = (1LL << 35) + i;
  OpTester t("transpose");
  t.SetInput<int64_t>("X", "x", {2, 3, 4}, x);
  t.SetOutput("Out", "out");
  t.SetAttr("axis", std::vector<int32_t>{-1, 0, 1});
  ASSERT_TRUE(t.Run().ok());
  DDim want_dims;
  auto want = TransposeRef(x, {2, 3, 4}, {2, 0, 1}, &want_dims);
  EXPECT_EQ(t.Get("out").dims(), (DDim{4, 2, 3}));
  EXPECT_EQ(t.GetData<int64_t>("out"), want);
}

TEST(Transpose, BadAxisFails) {
  for (const auto& axis : std::vector<std::vector<int32_t>>{{0, 1}, {0, 0, 1}, {0, 1, 3}}) {
    OpTester t("transpose2");
    t.SetInput<float>("X", "x", {2, 3, 4}, std::vector<float>(24, 1.f));
    t.SetOutput("Out", "out");
    t.SetAttr("axis", axis);
    EXPECT_FALSE(t.Run().ok());
  }
}

}  // namespace
}  // namespace lite
