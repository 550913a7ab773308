// conv_transpose_pair_fuse_pass: two non-overlapping conv2d_transposes in a
// row (a DB head: 2x2 stride 2 with bias and relu, then 2x2 stride 2 to one
// channel with sigmoid) become one conv2d_transpose_pair on x86, whose
// banded kernel matches the two ops on host; batch 2 and band tails too.
// Kept: on host only (no device kernel), overlapping windows (3x3 stride
// 2), an intermediate read elsewhere, a second output block too wide for
// the narrow kernel, and everything without AVX-512 (build or CPU).
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "lite/backends/x86/narrow_deconv.h"
#include "lite/backends/x86/pointwise_conv.h"
#include "tests/passes/fusion_test_util.h"

namespace lite {
namespace mir {
namespace fusion {
namespace testing {
namespace {

const char* kPass = "conv_transpose_pair_fuse_pass";
const std::vector<Place> kX86 = {Place(TargetType::kX86), Place(TargetType::kHost)};

// The x86 kernel of the pair runs on the AVX-512 GEMM and narrow kernels
// (build and CPU); without them the pass declines.
bool PairKernelHere() {
  return lite::x86::PointwiseConv::Available() && lite::x86::NarrowDeconv::Available();
}

struct Head {
  int64_t n = 1, c = 24, h = 13, w = 10;  // input; h: band tails (13 rows)
  int k1 = 2;                             // the first's kernel (stride 2)
  int64_t mid = 24, out = 1;              // channels after each
};

// x [n, c, h, w] -> transpose (k1, stride 2, bias, relu) -> m ->
// transpose (2x2 stride 2, bias, sigmoid) -> y.
TestModel DbHead(const Head& k) {
  TestModel m;
  m.Input("x", {k.n, k.c, k.h, k.w});
  m.RandomWeight("w0", {k.c, k.mid, k.k1, k.k1}, -0.3f, 0.3f);
  m.RandomWeight("b0", {k.mid});
  m.RandomWeight("w1", {k.mid, k.out, 2, 2}, -0.3f, 0.3f);
  m.RandomWeight("b1", {k.out});
  m.Op("conv2d_transpose", {{"Input", {"x"}}, {"Filter", {"w0"}}, {"Bias", {"b0"}}},
       {{"Output", {"m"}}})
      .SetAttr("fuse_activation", std::string("relu"));
  m.Op("conv2d_transpose", {{"Input", {"m"}}, {"Filter", {"w1"}}, {"Bias", {"b1"}}},
       {{"Output", {"y"}}})
      .SetAttr("fuse_activation", std::string("sigmoid"));
  for (cpp::OpDesc& t : m.program.blocks[0].ops) {
    if (t.Type() != "conv2d_transpose") continue;
    t.SetAttr("strides", std::vector<int32_t>{2, 2});
    t.SetAttr("paddings", std::vector<int32_t>{0, 0});
    t.SetAttr("dilations", std::vector<int32_t>{1, 1});
    t.SetAttr("groups", 1);
  }
  const int64_t mh = (k.h - 1) * 2 + k.k1, mw = (k.w - 1) * 2 + k.k1;
  m.program.blocks[0].FindVar("m")->dims = {k.n, k.mid, mh, mw};
  m.Output("y");
  return m;
}

TEST(ConvTransposePairFuse, ADbHeadBecomesOneOpAndMatchesTheTwo) {
  for (int64_t n : {1, 2}) {
    SCOPED_TRACE("batch " + std::to_string(n));
    Head k;
    k.n = n;
    const TestModel m = DbHead(k);
    const FusionRun host = RunOrFail(m, {}, {Place(TargetType::kHost)});
    FusionRun fused = RunOrFail(m, {kPass}, kX86);
    ASSERT_FALSE(fused.outputs.empty());
    EXPECT_LE(MaxAbsDiff(host.outputs, fused.outputs), 1e-5);
    if (!PairKernelHere()) {
      // No x86 kernel takes the pair: both transposes stay.
      EXPECT_EQ(fused.counters["declined_no_kernel"], 1) << fused.pass_log;
      EXPECT_EQ(CountOps(fused.op_types, "conv2d_transpose"), 2);
      continue;
    }
    EXPECT_EQ(fused.counters["matched"], 1) << fused.pass_log;
    EXPECT_EQ(CountOps(fused.op_types, "conv2d_transpose_pair"), 1);
    EXPECT_EQ(CountOps(fused.op_types, "conv2d_transpose"), 0);
    // And the two x86 transposes (the same GEMM and narrow kernel, unbanded).
    const FusionRun unfused_x86 = RunOrFail(m, {}, kX86);
    EXPECT_LE(MaxAbsDiff(unfused_x86.outputs, fused.outputs), 1e-6);
  }
}

TEST(ConvTransposePairFuse, KeptWhereTheBandedKernelDoesNotApply) {
  {
    SCOPED_TRACE("host only");
    const FusionRun r = RunOrFail(DbHead(Head()), {kPass}, {Place(TargetType::kHost)});
    EXPECT_EQ(CountOps(r.op_types, "conv2d_transpose"), 2);
    EXPECT_EQ(r.counters.at("declined_no_kernel"), 1) << r.pass_log;
  }
  {
    SCOPED_TRACE("overlapping windows");
    Head k;
    k.k1 = 3;
    const FusionRun r = RunOrFail(DbHead(k), {kPass}, kX86);
    EXPECT_EQ(CountOps(r.op_types, "conv2d_transpose"), 2);
    EXPECT_EQ(r.counters.at("declined_no_kernel"), 1) << r.pass_log;
  }
  {
    SCOPED_TRACE("a second output block of 4 x 8 values");
    Head k;
    k.out = 8;
    const FusionRun r = RunOrFail(DbHead(k), {kPass}, kX86);
    EXPECT_EQ(CountOps(r.op_types, "conv2d_transpose"), 2);
    EXPECT_EQ(r.counters.at("declined_no_kernel"), 1) << r.pass_log;
  }
  {
    SCOPED_TRACE("the intermediate is fetched");
    TestModel m = DbHead(Head());
    m.Output("m");
    const FusionRun r = RunOrFail(m, {kPass}, kX86);
    EXPECT_EQ(CountOps(r.op_types, "conv2d_transpose"), 2);
    EXPECT_EQ(r.counters.count("matched"), 0u);
  }
}

}  // namespace
}  // namespace testing
}  // namespace fusion
}  // namespace mir
}  // namespace lite
