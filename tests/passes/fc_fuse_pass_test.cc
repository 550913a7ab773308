// fc_fuse_pass: mul / matmul / matmul_v2 + bias [+ relu] -> fc, the
// attribute edge cases that must not fuse, and outputs before/after through
// the host kernels.
#include <gtest/gtest.h>

#include "tests/passes/fusion_test_util.h"

namespace lite {
namespace mir {
namespace fusion {
namespace testing {
namespace {

const char* kPass = "fc_fuse_pass";

// x `xdims` -> `type`(Y = w [K, 5]) -> p -> elementwise_add(bias [5]) -> s [-> relu] -> y
TestModel Fc(const std::string& type, const DDim& xdims, bool relu, int axis = -1) {
  TestModel m;
  m.Input("x", xdims);
  m.RandomWeight("w", {xdims.back(), 5});
  m.RandomWeight("bias", {5});
  auto& mm = m.Op(type, {{"X", {"x"}}, {"Y", {"w"}}}, {{"Out", {"p"}}});
  if (type == "mul") mm.SetAttr("x_num_col_dims", static_cast<int>(xdims.size()) - 1);
  m.Op("elementwise_add", {{"X", {"p"}}, {"Y", {"bias"}}}, {{"Out", {"s"}}})
      .SetAttr("axis", axis);
  if (relu) m.Op("relu", {{"X", {"s"}}}, {{"Out", {"y"}}});
  m.Output(relu ? "y" : "s");
  return m;
}

cpp::OpDesc& Product(TestModel* m) { return m->program.blocks[0].ops[1]; }

void ExpectFc(const TestModel& m, const std::string& activation) {
  double diff = 0;
  auto run = RunAndCompare(m, {kPass}, &diff);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  ASSERT_EQ(CountOps(run->op_types, "fc"), 1) << run->pass_log;
  EXPECT_EQ(run->op_types.size(), 3u);  // feed, fc, fetch
  EXPECT_LT(diff, 1e-5);
  for (const auto& op : run->program.blocks[0].ops) {
    if (op.Type() == "fc") {
      EXPECT_EQ(op.GetAttr<std::string>("activation_type"), activation);
    }
  }
}

void ExpectKept(const TestModel& m) {
  auto run = RunWith(m, {kPass}, {});
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  EXPECT_EQ(CountOps(run->op_types, "fc"), 0) << run->pass_log;
}

TEST(FcFuse, MulAddRelu) { ExpectFc(Fc("mul", {3, 8}, true), "relu"); }
TEST(FcFuse, MulAdd) { ExpectFc(Fc("mul", {3, 8}, false), ""); }
TEST(FcFuse, MulWithColDims2AndAxis) { ExpectFc(Fc("mul", {2, 3, 8}, false, 2), ""); }
TEST(FcFuse, MatmulV2On3dInput) { ExpectFc(Fc("matmul_v2", {2, 3, 8}, true), "relu"); }
TEST(FcFuse, Matmul) { ExpectFc(Fc("matmul", {3, 8}, false), ""); }

TEST(FcFuse, TransposedOrScaledMatmulIsKept) {
  TestModel a = Fc("matmul", {3, 8}, false);
  Product(&a).SetAttr("transpose_Y", true);
  ExpectKept(a);
  TestModel b = Fc("matmul", {3, 8}, false);
  Product(&b).SetAttr("alpha", 2.f);
  ExpectKept(b);
  TestModel c = Fc("matmul_v2", {3, 8}, false);
  Product(&c).SetAttr("trans_x", true);
  ExpectKept(c);
}

TEST(FcFuse, MulWithYColDims2IsKept) {
  TestModel m = Fc("mul", {3, 8}, false);
  Product(&m).SetAttr("y_num_col_dims", 2);
  ExpectKept(m);
}

TEST(FcFuse, NonPersistableBiasIsKept) {
  TestModel m;
  m.Input("x", {3, 8});
  m.Input("bias", {5});
  m.RandomWeight("w", {8, 5});
  m.Op("mul", {{"X", {"x"}}, {"Y", {"w"}}}, {{"Out", {"p"}}});
  m.Op("elementwise_add", {{"X", {"p"}}, {"Y", {"bias"}}}, {{"Out", {"s"}}});
  m.Output("s");
  ExpectKept(m);
}

TEST(FcFuse, BiasOnTheWrongAxisIsKept) { ExpectKept(Fc("mul", {2, 3, 8}, false, 0)); }

TEST(FcFuse, ProductUsedTwiceIsKept) {
  TestModel m = Fc("mul", {3, 8}, false);
  m.Output("p");
  ExpectKept(m);
}

TEST(FcFuse, ReluOutputOfSharedSumFusesWithoutRelu) {
  TestModel m = Fc("mul", {3, 8}, true);
  m.Output("s");  // the sum is fetched too: fc + relu
  double diff = 0;
  auto run = RunAndCompare(m, {kPass}, &diff);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  EXPECT_EQ(CountOps(run->op_types, "fc"), 1);
  EXPECT_EQ(CountOps(run->op_types, "relu"), 1);
  EXPECT_LT(diff, 1e-5);
}

}  // namespace
}  // namespace testing
}  // namespace fusion
}  // namespace mir
}  // namespace lite
