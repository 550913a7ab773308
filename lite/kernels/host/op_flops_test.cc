// OpLite::Flops, what the profile's GFLOP/s column divides by: each op counts
// its own arithmetic from its bound tensors (2 per multiply-add), fused convs
// the sum of their parts, and ops that do not count report 0.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

// A 3x3 pad-1 conv of x [1, 3, 8, 8] with `oc` filters: 2 * (oc * 64) * 27.
void SetConv(OpTester* t, const std::string& prefix, const std::string& filter, int64_t oc) {
  t->SetInput<float>("Filter", filter, {oc, 3, 3, 3}, RandomFloats(oc * 27, 2));
  t->SetAttr(prefix + "strides", std::vector<int>{1, 1});
  t->SetAttr(prefix + "paddings", std::vector<int>{1, 1});
}

int64_t Flops(OpTester* t) {
  Status s = t->Run();
  EXPECT_TRUE(s.ok()) << s.ToString();
  return t->op() ? t->op()->Flops() : -1;
}

TEST(OpFlops, Conv2dCountsItsMultiplyAdds) {
  OpTester t("conv2d");
  t.SetInput<float>("Input", "x", {1, 3, 8, 8}, RandomFloats(192, 1));
  SetConv(&t, "", "f", 4);
  t.SetOutput("Output", "y");
  EXPECT_EQ(Flops(&t), 2 * (4 * 64) * 27);
}

TEST(OpFlops, ConvConcatIsTheSumOfItsConvs) {
  OpTester t("conv2d_concat");
  t.SetInput<float>("Input", "x", {1, 3, 8, 8}, RandomFloats(192, 1));
  SetConv(&t, "conv0_", "f0", 4);
  t.SetInput<float>("Input", "x", {1, 3, 8, 8}, RandomFloats(192, 1));
  SetConv(&t, "conv1_", "f1", 6);
  t.SetOutput("Out", "out");
  t.SetAttr("axis", 1);
  t.SetAttr("conv_count", 2);
  EXPECT_EQ(Flops(&t), 2 * (4 * 64) * 27 + 2 * (6 * 64) * 27);
}

TEST(OpFlops, FcAndMatmulCountRowsTimesDepth) {
  OpTester fc("fc");
  fc.SetInput<float>("Input", "x", {2, 5}, RandomFloats(10, 1));
  fc.SetInput<float>("W", "w", {5, 3}, RandomFloats(15, 2));
  fc.SetOutput("Out", "y");
  EXPECT_EQ(Flops(&fc), 2 * (2 * 3) * 5);

  OpTester mm("matmul_v2");
  mm.SetInput<float>("X", "a", {4, 7}, RandomFloats(28, 1));
  mm.SetInput<float>("Y", "b", {7, 2}, RandomFloats(14, 2));
  mm.SetOutput("Out", "c");
  EXPECT_EQ(Flops(&mm), 2 * (4 * 2) * 7);

  OpTester mul("mul");
  mul.SetInput<float>("X", "a", {3, 2, 4}, RandomFloats(24, 1));
  mul.SetInput<float>("Y", "b", {8, 5}, RandomFloats(40, 2));
  mul.SetOutput("Out", "c");
  EXPECT_EQ(Flops(&mul), 2 * (3 * 5) * 8);
}

TEST(OpFlops, OpsThatDoNotCountReportZero) {
  OpTester relu("relu");
  relu.SetInput<float>("X", "x", {1, 16}, RandomFloats(16, 1));
  relu.SetOutput("Out", "y");
  EXPECT_EQ(Flops(&relu), 0);
}

}  // namespace
}  // namespace lite
