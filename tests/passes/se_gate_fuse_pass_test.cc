// se_gate_fuse_pass: the squeeze-excitation gate on Y (and on X when the
// swap is safe), non-matches, and outputs before/after through the host
// kernels.
#include <gtest/gtest.h>

#include "tests/passes/fusion_test_util.h"

namespace lite {
namespace mir {
namespace fusion {
namespace testing {
namespace {

const char* kPass = "se_gate_fuse_pass";

// f [1, 4, 3, 3], g [1, 4, 1, 1] -> `gate`(g) -> h; mul(X, Y) with h as `side`
TestModel Se(const std::string& gate, const std::string& side, const DDim& gdims = {1, 4, 1, 1}) {
  TestModel m;
  m.Input("f", {1, 4, 3, 3});
  m.Input("g", gdims);
  auto& a = m.Op(gate, {{"X", {"g"}}}, {{"Out", {"h"}}});
  if (gate == "hard_sigmoid") {
    a.SetAttr("slope", 0.3f);
    a.SetAttr("offset", 0.4f);
  }
  std::map<std::string, std::vector<std::string>> in = {{"X", {"f"}}, {"Y", {"h"}}};
  if (side == "X") in = {{"X", {"h"}}, {"Y", {"f"}}};
  m.Op("elementwise_mul", in, {{"Out", {"y"}}});
  m.Output("y");
  m.program.blocks[0].FindVar("h")->dims = gdims;  // ranks decide the X-side swap
  return m;
}

FusionRun Fused(const TestModel& m) { return ExpectFusedMatches(m, kPass); }

TEST(SeGateFuse, HardSigmoidOnY) {
  FusionRun r = Fused(Se("hard_sigmoid", "Y"));
  EXPECT_EQ(r.op_types, (std::vector<std::string>{"feed", "feed", "elementwise_mul", "fetch"}));
  const cpp::OpDesc& mul = r.program.blocks[0].ops[2];
  EXPECT_EQ(mul.GetAttr<std::string>("y_activation"), "hard_sigmoid");
  EXPECT_EQ(mul.GetAttr<float>("y_alpha"), 0.3f);
  EXPECT_EQ(mul.GetAttr<float>("y_beta"), 0.4f);
  EXPECT_EQ(mul.Input("Y"), std::vector<std::string>{"g"});
}

TEST(SeGateFuse, SigmoidOnY) { EXPECT_EQ(CountOps(Fused(Se("sigmoid", "Y")).op_types, "sigmoid"), 0); }

TEST(SeGateFuse, GateOnXIsSwappedForEqualRanks) {
  FusionRun r = Fused(Se("hard_sigmoid", "X"));
  EXPECT_EQ(CountOps(r.op_types, "hard_sigmoid"), 0);
  EXPECT_EQ(r.counters["swapped"], 1);
}

TEST(SeGateFuse, GateOnXWithBroadcastAxisIsKept) {
  TestModel m = Se("hard_sigmoid", "X", {4});
  m.program.blocks[0].ops[3].SetAttr("axis", 1);
  FusionRun r = Fused(m);
  EXPECT_EQ(CountOps(r.op_types, "hard_sigmoid"), 1);
}

TEST(SeGateFuse, GateWithAnotherConsumerIsKept) {
  TestModel m = Se("hard_sigmoid", "Y");
  m.Output("h");
  EXPECT_EQ(CountOps(Fused(m).op_types, "hard_sigmoid"), 1);
}

TEST(SeGateFuse, MulWithYActivationIsKept) {
  TestModel m = Se("sigmoid", "Y");
  m.program.blocks[0].ops[3].SetAttr("y_activation", std::string("relu"));
  EXPECT_EQ(CountOps(Fused(m).op_types, "sigmoid"), 1);
}

TEST(SeGateFuse, OtherGateTypesAreKept) {
  EXPECT_EQ(CountOps(Fused(Se("relu", "Y")).op_types, "relu"), 1);
}

}  // namespace
}  // namespace testing
}  // namespace fusion
}  // namespace mir
}  // namespace lite
