// conv_max_pool_fuse_pass: conv2d -> max pool2d becomes one conv2d_max_pool
// op when a non-host kernel takes it (the x86 kernel for 1-4 input
// channels), and its output matches the two ops' on the host kernels; every
// other case stays two ops, each decline counted.
#include <gtest/gtest.h>

#include "lite/backends/x86/nchw_input_conv.h"
#include "tests/passes/fusion_test_util.h"

namespace lite {
namespace mir {
namespace fusion {
namespace testing {
namespace {

const char* kPass = "conv_max_pool_fuse_pass";

struct Net {
  DDim x{1, 3, 31, 29};
  int64_t oc = 16;
  std::string pool_type = "max";
  bool global = false;
  bool conv_out_fetched = false;
  std::vector<int> pool_pads{0, 0};
  bool ceil_mode = false;
};

// x -> conv2d(3x3 s2 p1, relu) -> c -> pool2d(3x3 s2) -> y
TestModel Make(const Net& n) {
  TestModel m;
  m.Input("x", n.x);
  m.RandomWeight("w", {n.oc, n.x[1], 3, 3});
  m.RandomWeight("b", {n.oc});
  auto& conv = m.Op("conv2d", {{"Input", {"x"}}, {"Filter", {"w"}}, {"Bias", {"b"}}},
                    {{"Output", {"c"}}});
  conv.SetAttr("strides", std::vector<int>{2, 2});
  conv.SetAttr("paddings", std::vector<int>{1, 1});
  conv.SetAttr("fuse_activation", std::string("relu"));
  auto& pool = m.Op("pool2d", {{"X", {"c"}}}, {{"Out", {"y"}}});
  pool.SetAttr("pooling_type", n.pool_type);
  pool.SetAttr("ksize", std::vector<int>{3, 3});
  pool.SetAttr("strides", std::vector<int>{2, 2});
  pool.SetAttr("paddings", n.pool_pads);
  pool.SetAttr("ceil_mode", n.ceil_mode);
  if (n.global) pool.SetAttr("global_pooling", true);
  m.Output("y");
  if (n.conv_out_fetched) m.Output("c");
  return m;
}

// Runs `n` unfused on host and with the pass for x86; expects `fused` and
// equal outputs.
FusionRun ExpectX86(const Net& n, bool fused) {
  const FusionRun x86 = ExpectFusedMatches(Make(n), kPass, 1e-5, kX86Float);
  EXPECT_EQ(CountOps(x86.op_types, "conv2d_max_pool"), fused ? 1 : 0) << x86.pass_log;
  return x86;
}

TEST(ConvMaxPoolFuse, FusesForTheX86KernelAndMatches) {
  if (!x86::NchwInputConv::Available()) GTEST_SKIP() << "no AVX-512: the x86 kernel declines";
  for (int64_t c : {1, 3, 4}) {
    Net n;
    n.x = {2, c, 31, 29};
    FusionRun r = ExpectX86(n, true);
    EXPECT_EQ(r.counters["matched"], 1);
  }
  Net padded;  // pool padding and ceil mode: windows clipped at both ends
  padded.pool_pads = {1, 1};
  padded.ceil_mode = true;
  padded.oc = 8;
  ExpectX86(padded, true);
}

TEST(ConvMaxPoolFuse, DeclinesWithoutAKernelForTheFusedOp) {
  Net n;
  FusionRun host = ExpectFusedMatches(Make(n), kPass, 1e-6);  // host only
  EXPECT_EQ(CountOps(host.op_types, "conv2d_max_pool"), 0);
  EXPECT_EQ(host.counters["declined_no_kernel"], 1);
  Net wide;  // 8 input channels: the x86 fused kernel declines
  wide.x = {1, 8, 15, 15};
  FusionRun r = ExpectX86(wide, false);
  EXPECT_EQ(r.counters["declined_no_kernel"], 1);
}

TEST(ConvMaxPoolFuse, LeavesOtherPoolsAndSharedConvOutputs) {
  Net avg;
  avg.pool_type = "avg";
  EXPECT_EQ(ExpectX86(avg, false).counters["declined_pool"], 1);
  Net global;
  global.global = true;
  EXPECT_EQ(ExpectX86(global, false).counters["declined_pool"], 1);
  Net fetched;  // the conv output is also a model output: no match
  fetched.conv_out_fetched = true;
  EXPECT_EQ(ExpectX86(fetched, false).counters["matched"], 0);
}

}  // namespace
}  // namespace testing
}  // namespace fusion
}  // namespace mir
}  // namespace lite
