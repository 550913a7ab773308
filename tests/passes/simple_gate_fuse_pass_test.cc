// simple_gate_fuse_pass: split in two halves + elementwise_mul of the halves
// becomes one simple_gate op when a non-host kernel takes it (x86), and the
// output matches the two ops' on the host kernels; every other case stays
// as it was, each decline counted.
#include <gtest/gtest.h>

#include "tests/passes/fusion_test_util.h"

namespace lite {
namespace mir {
namespace fusion {
namespace testing {
namespace {

const char* kPass = "simple_gate_fuse_pass";

struct Net {
  DDim x{2, 12, 5, 7};
  int axis = 1;
  std::vector<int64_t> sections;  // empty: num parts
  int num = 2;
  bool swap = false;              // mul(b, a)
  bool half_fetched = false;
  std::string mul_activation;
};

// x -> split -> a, b -> elementwise_mul -> y
TestModel Make(const Net& n) {
  TestModel m;
  m.Input("x", n.x);
  std::vector<std::string> parts = {"a", "b"};
  if (n.num == 3) parts.push_back("c");
  auto& split = m.Op("split", {{"X", {"x"}}}, {{"Out", parts}});
  split.SetAttr("axis", n.axis);
  if (n.sections.empty()) split.SetAttr("num", n.num);
  else split.SetAttr("sections", n.sections);
  auto& mul = m.Op("elementwise_mul", {{"X", {n.swap ? "b" : "a"}}, {"Y", {n.swap ? "a" : "b"}}},
                   {{"Out", {"y"}}});
  mul.SetAttr("axis", -1);
  if (!n.mul_activation.empty()) mul.SetAttr("fuse_activation", n.mul_activation);
  m.Output("y");
  if (n.half_fetched) m.Output("a");
  return m;
}

// Runs `n` unfused on host and with the pass for x86; expects `fused` and
// equal outputs.
FusionRun ExpectX86(const Net& n, bool fused) {
  const FusionRun x86 = ExpectFusedMatches(Make(n), kPass, 1e-6, kX86Float);
  EXPECT_EQ(CountOps(x86.op_types, "simple_gate"), fused ? 1 : 0) << x86.pass_log;
  EXPECT_EQ(CountOps(x86.op_types, "split"), fused ? 0 : 1) << x86.pass_log;
  return x86;
}

TEST(SimpleGateFuse, FusesChannelAndOtherAxesForX86AndMatches) {
  EXPECT_EQ(ExpectX86(Net(), true).counters["matched"], 1);
  Net swapped;
  swapped.swap = true;
  ExpectX86(swapped, true);
  Net sections;
  sections.sections = {6, 6};
  ExpectX86(sections, true);
  Net width;
  width.axis = -1;
  width.x = {1, 3, 4, 10};
  ExpectX86(width, true);
}

TEST(SimpleGateFuse, DeclinesWithoutAKernelForTheFusedOp) {
  FusionRun host = ExpectFusedMatches(Make(Net()), kPass, 1e-6);  // host only
  EXPECT_EQ(CountOps(host.op_types, "simple_gate"), 0);
  EXPECT_EQ(host.counters["declined_no_kernel"], 1);
}

TEST(SimpleGateFuse, LeavesOtherSplitsActivationsAndSharedHalves) {
  Net thirds;  // num 3, the third part unused: a * b is no gate of halves
  thirds.num = 3;
  EXPECT_EQ(ExpectX86(thirds, false).counters["declined_split"], 1);
  Net act;
  act.mul_activation = "relu";
  EXPECT_EQ(ExpectX86(act, false).counters["declined_mul"], 1);
  Net fetched;  // a half is also a model output: no match
  fetched.half_fetched = true;
  EXPECT_EQ(ExpectX86(fetched, false).counters["matched"], 0);
}

}  // namespace
}  // namespace testing
}  // namespace fusion
}  // namespace mir
}  // namespace lite
