// se_residual_fuse_pass: a + a * s -> a * (s + 1), with the add's operands
// either way round; kept when s would broadcast a, when the product has
// another reader, or when an op has a fused activation. Outputs before and
// after through the host kernels.
#include <gtest/gtest.h>

#include "tests/passes/fusion_test_util.h"

namespace lite {
namespace mir {
namespace fusion {
namespace testing {
namespace {

const char* kPass = "se_residual_fuse_pass";

// a [1, 4, 3, 3], s `sdims`: p = a * s; y = a + p (or p + a when swapped).
TestModel SeResidual(bool swapped = false, const DDim& sdims = {1, 4, 1, 1}) {
  TestModel m;
  m.Input("a", {1, 4, 3, 3});
  m.Input("s", sdims);
  m.Op("elementwise_mul", {{"X", {"a"}}, {"Y", {"s"}}}, {{"Out", {"p"}}});
  if (swapped) {
    m.Op("elementwise_add", {{"X", {"p"}}, {"Y", {"a"}}}, {{"Out", {"y"}}});
  } else {
    m.Op("elementwise_add", {{"X", {"a"}}, {"Y", {"p"}}}, {{"Out", {"y"}}});
  }
  m.Output("y");
  DDim out_dims{1, 4, 3, 3};
  for (size_t i = 0; i < sdims.size(); ++i) {
    int64_t& d = out_dims[out_dims.size() - sdims.size() + i];
    d = std::max(d, sdims[i]);
  }
  m.program.blocks[0].FindVar("p")->dims = out_dims;
  return m;
}

FusionRun Fused(const TestModel& m) { return ExpectFusedMatches(m, kPass); }

TEST(SeResidualFuse, ShortcutAddBecomesMulBySPlusOne) {
  for (bool swapped : {false, true}) {
    FusionRun r = Fused(SeResidual(swapped));
    ASSERT_EQ(r.op_types, (std::vector<std::string>{"feed", "feed", "elementwise_add",
                                                    "elementwise_mul", "fetch"}))
        << "swapped " << swapped;
    const cpp::OpDesc& plus = r.program.blocks[0].ops[2];
    const cpp::OpDesc& mul = r.program.blocks[0].ops[3];
    EXPECT_EQ(plus.Input("X"), std::vector<std::string>{"s"});
    EXPECT_EQ(mul.Input("X"), std::vector<std::string>{"a"});
    EXPECT_EQ(mul.Input("Y"), plus.Output("Out"));
    EXPECT_EQ(mul.Output("Out"), std::vector<std::string>{"y"});
    EXPECT_EQ(r.counters["matched"], 1);
  }
}

TEST(SeResidualFuse, GateThatWouldBroadcastAIsKept) {
  // s [1, 4, 3, 3] broadcasts a [1, 4, 1, 3]: a * (s + 1) would too.
  TestModel m;
  m.Input("a", {1, 4, 1, 3});
  m.Input("s", {1, 4, 3, 3});
  m.Op("elementwise_mul", {{"X", {"a"}}, {"Y", {"s"}}}, {{"Out", {"p"}}});
  m.Op("elementwise_add", {{"X", {"a"}}, {"Y", {"p"}}}, {{"Out", {"y"}}});
  m.Output("y");
  m.program.blocks[0].FindVar("p")->dims = {1, 4, 3, 3};
  FusionRun r = Fused(m);
  EXPECT_EQ(CountOps(r.op_types, "elementwise_add"), 1);
  EXPECT_EQ(r.counters["declined_shapes"], 1);
}

TEST(SeResidualFuse, ProductWithAnotherReaderIsKept) {
  TestModel m = SeResidual();
  m.Output("p");
  FusionRun r = Fused(m);
  EXPECT_EQ(CountOps(r.op_types, "elementwise_add"), 1);
  EXPECT_EQ(CountOps(r.op_types, "elementwise_mul"), 1);
}

TEST(SeResidualFuse, OpsWithFusedActivationsAreKept) {
  for (int op : {2, 3}) {  // the mul, then the add
    TestModel m = SeResidual();
    m.program.blocks[0].ops[op].SetAttr("fuse_activation", std::string("relu"));
    FusionRun r = Fused(m);
    EXPECT_EQ(CountOps(r.op_types, "elementwise_add"), 1) << op;
    EXPECT_EQ(r.counters["matched"], 0) << op;
  }
}

TEST(SeResidualFuse, AddOfTwoDifferentTensorsIsKept) {
  TestModel m;
  m.Input("a", {1, 4, 3, 3});
  m.Input("b", {1, 4, 3, 3});
  m.Input("s", {1, 4, 1, 1});
  m.Op("elementwise_mul", {{"X", {"a"}}, {"Y", {"s"}}}, {{"Out", {"p"}}});
  m.Op("elementwise_add", {{"X", {"b"}}, {"Y", {"p"}}}, {{"Out", {"y"}}});
  m.Output("y");
  m.program.blocks[0].FindVar("p")->dims = {1, 4, 3, 3};
  FusionRun r = Fused(m);
  EXPECT_EQ(r.counters["matched"], 0);
}

}  // namespace
}  // namespace testing
}  // namespace fusion
}  // namespace mir
}  // namespace lite
