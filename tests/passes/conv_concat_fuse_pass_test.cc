// conv_concat_fuse_pass: a channel concat of conv2d outputs read by nothing
// else becomes one conv2d_concat op when the x86 kernel takes it, and its
// output matches the separate ops' on the host kernels, whichever x86 conv
// implementation writes each slice (oneDNN direct, oneDNN's Winograd, our
// NHWC Winograd); every other case stays as it was, each decline counted.
#include <gtest/gtest.h>

#include "tests/passes/fusion_test_util.h"

namespace lite {
namespace mir {
namespace fusion {
namespace testing {
namespace {

const char* kPass = "conv_concat_fuse_pass";

struct Branch {
  int64_t oc;
  int k;  // kernel size (padding k / 2)
  std::string act;  // fuse_activation ("" for none)
  bool bias = true;
  int input = 0;  // reads x<input>
};

struct Net {
  DDim x{1, 16, 15, 13};
  int inputs = 1;
  std::vector<Branch> branches{{24, 1, "relu"}, {40, 3, "relu"}};
  int axis = 1;
  bool branch_fetched = false;  // branch 0's output is also a model output
  bool branch_relu_op = false;  // branch 1 ends in a separate relu op
};

// x0 [, x1] -> conv2d per branch -> y<i> -> concat -> out
TestModel Make(const Net& n) {
  TestModel m;
  for (int i = 0; i < n.inputs; ++i) m.Input("x" + std::to_string(i), n.x);
  std::vector<std::string> ys;
  for (size_t i = 0; i < n.branches.size(); ++i) {
    const Branch& b = n.branches[i];
    const std::string s = std::to_string(i);
    m.RandomWeight("w" + s, {b.oc, n.x[1], b.k, b.k});
    std::map<std::string, std::vector<std::string>> in{{"Input", {"x" + std::to_string(b.input)}},
                                                       {"Filter", {"w" + s}}};
    if (b.bias) {
      m.RandomWeight("b" + s, {b.oc});
      in["Bias"] = {"b" + s};
    }
    auto& conv = m.Op("conv2d", in, {{"Output", {"y" + s}}});
    conv.SetAttr("strides", std::vector<int>{1, 1});
    conv.SetAttr("paddings", std::vector<int>{b.k / 2, b.k / 2});
    if (!b.act.empty()) conv.SetAttr("fuse_activation", b.act);
    ys.push_back("y" + s);
  }
  if (n.branch_relu_op) {
    m.Op("relu", {{"X", {ys[1]}}}, {{"Out", {"r1"}}});
    ys[1] = "r1";
  }
  m.Op("concat", {{"X", ys}}, {{"Out", {"out"}}}).SetAttr("axis", n.axis);
  m.Output("out");
  if (n.branch_fetched) m.Output("y0");
  return m;
}

// Runs `n` unfused on host and with the pass for x86; expects `fused` and
// equal outputs.
FusionRun ExpectX86(const Net& n, bool fused) {
  const FusionRun x86 = ExpectFusedMatches(Make(n), kPass, 2e-4, kX86Float);
  EXPECT_EQ(CountOps(x86.op_types, "conv2d_concat"), fused ? 1 : 0) << x86.pass_log;
  EXPECT_EQ(CountOps(x86.op_types, "concat"), fused ? 0 : 1) << x86.pass_log;
  return x86;
}

TEST(ConvConcatFuse, FusesForTheX86KernelAndMatches) {
  FusionRun r = ExpectX86(Net(), true);  // 1x1 + 3x3, oneDNN direct
  EXPECT_EQ(r.counters["matched"], 1);
  Net batch;  // batch 2, three branches, no activation on one, two inputs
  batch.x = {2, 16, 9, 11};
  batch.inputs = 2;
  batch.branches = {{8, 1, ""}, {17, 3, "relu6", true, 1}, {5, 3, "relu"}};
  ExpectX86(batch, true);
  Net own_winograd;  // 3x3 on 34 x 34 >= 32 x 32 pixels: our NHWC Winograd
  own_winograd.x = {1, 16, 34, 34};
  own_winograd.branches = {{16, 1, "relu"}, {32, 3, "relu"}};
  ExpectX86(own_winograd, true);
  Net dnnl_winograd;  // 3x3 on 13 x 13, 32 -> 64: oneDNN's Winograd, blocked
  dnnl_winograd.x = {1, 32, 13, 13};
  dnnl_winograd.branches = {{64, 1, "relu"}, {64, 3, "relu"}};
  ExpectX86(dnnl_winograd, true);
  Net no_bias;
  no_bias.branches = {{8, 1, "relu", false}, {8, 3, "", false}};
  ExpectX86(no_bias, true);
}

TEST(ConvConcatFuse, DeclinesWithoutAKernelForTheFusedOp) {
  FusionRun host = ExpectFusedMatches(Make(Net()), kPass, 1e-6);  // host only
  EXPECT_EQ(CountOps(host.op_types, "conv2d_concat"), 0);
  EXPECT_EQ(host.counters["declined_no_kernel"], 1);
}

TEST(ConvConcatFuse, LeavesOtherConcatsAndSharedOutputs) {
  Net fetched;
  fetched.branch_fetched = true;
  EXPECT_EQ(ExpectX86(fetched, false).counters["declined_input"], 1);
  Net relu_op;  // the concat reads a relu's output, not a conv's
  relu_op.branch_relu_op = true;
  EXPECT_EQ(ExpectX86(relu_op, false).counters["declined_input"], 1);
  Net rows;  // concat on H
  rows.axis = 2;
  rows.branches = {{8, 3, "relu"}, {8, 3, "relu"}};
  EXPECT_EQ(ExpectX86(rows, false).counters["declined_concat"], 1);
  Net mixed_bias;
  mixed_bias.branches = {{8, 1, "relu", true}, {8, 3, "relu", false}};
  EXPECT_EQ(ExpectX86(mixed_bias, false).counters["declined_conv"], 1);
}

}  // namespace
}  // namespace testing
}  // namespace fusion
}  // namespace mir
}  // namespace lite
