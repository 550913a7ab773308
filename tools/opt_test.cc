// The library side of tools/opt: target parsing, the op/kernel tables, the
// summary, and the single error listing every op no valid target supports.
#include <gtest/gtest.h>

#include "lite/api/build_targets.h"
#include "lite/api/optimizer.h"
#include "tools/default_model.h"
#include "tools/opt_report.h"
#include "tools/tool_util.h"

namespace lite {
namespace tools {
namespace {

TEST(ParseValidTargets, AppendsHostAndRejectsUnknown) {
  auto p = ParseValidTargets("npu");
  ASSERT_TRUE(p.ok());
  ASSERT_EQ(p->size(), 2u);
  EXPECT_EQ((*p)[0], Place(TargetType::kNPU, PrecisionType::kFloat, DataLayoutType::kNCHW));
  EXPECT_EQ((*p)[1].target, TargetType::kHost);
  EXPECT_EQ(TargetsText(*p), "npu,host");
  p = ParseValidTargets(" x86 , host,npu,host");
  if (TargetInBuild(TargetType::kX86)) {
    ASSERT_TRUE(p.ok());
    EXPECT_EQ(TargetsText(*p), "x86,host,npu");
  } else {  // the aarch64 build
    EXPECT_EQ(p.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(p.status().message().find("x86 is not available in this build"), std::string::npos)
        << p.status().ToString();
  }
  p = ParseValidTargets(" arm , host,npu,host");
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(TargetsText(*p), "arm,host,npu");
  p = ParseValidTargets("gpu");
  EXPECT_EQ(p.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(p.status().message().find("'gpu'"), std::string::npos);
}

TEST(OneLine, JoinsLines) {
  EXPECT_EQ(OneLine(InvalidArgument("a\nb\n")), "a; b");
  EXPECT_EQ(SplitList("a,,b , c"), (std::vector<std::string>{"a", "b", "c"}));
}

TEST(OptReport, TablesNameRegisteredOpsAndKernels) {
  const std::string all = AllOpsTable();
  EXPECT_NE(all.find("conv2d "), std::string::npos);
  EXPECT_NE(all.find("host  x86   arm   npu"), std::string::npos);
  EXPECT_NE(KernelsText().find("conv2d/def/host/float/NCHW"), std::string::npos);
  EXPECT_TRUE(HasKernelFor("conv2d", TargetType::kHost));
  EXPECT_TRUE(SupportedBy("conv2d", {Place(TargetType::kNPU)}));  // host fallback
  EXPECT_FALSE(SupportedBy("no_such_op", {Place(TargetType::kHost)}));
  EXPECT_EQ(AllOpsTable(), all);  // deterministic
}

TEST(OptReport, ModelOpsAndSummary) {
  DefaultModel m = MakeDefaultModel();
  const std::string table = ModelOpsTable(m.program, {Place(TargetType::kHost)});
  EXPECT_NE(table.find("pool2d"), std::string::npos);
  EXPECT_NE(table.find("14 ops"), std::string::npos) << table;
  EXPECT_NE(table.find("all supported"), std::string::npos) << table;

  OptimizeOptions options;
  auto result = OptimizeProgram(m.program, m.scope.get(), options);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  const std::string summary = SummaryText(m.program, result->program);
  EXPECT_NE(summary.find("summary: ops 14 -> "), std::string::npos) << summary;
  EXPECT_NE(summary.find("subgraph ops: 0"), std::string::npos) << summary;
  EXPECT_NE(summary.find("kernels per target: host="), std::string::npos) << summary;
}

TEST(OptReport, UnsupportedModelOpsCountedWithTheClosestSupportedOp) {
  DefaultModel m = MakeDefaultModel();
  auto& ops = m.program.blocks[0].ops;
  int convs = 0;
  for (auto& op : ops) {
    if (op.Type() == "conv2d") op.SetType("conv2dd"), ++convs;
    if (op.Type() == "softmax") op.SetType("sofmax");
  }
  ASSERT_GE(convs, 2);
  const std::vector<Place> host{Place(TargetType::kHost)};
  const auto unsupported = UnsupportedModelOps(m.program, host);
  ASSERT_EQ(unsupported.size(), 2u);
  EXPECT_EQ(unsupported[0].type, "conv2dd");
  EXPECT_EQ(unsupported[0].count, convs);
  EXPECT_EQ(unsupported[0].closest, "conv2d");
  EXPECT_EQ(unsupported[1].type, "sofmax");
  EXPECT_EQ(unsupported[1].closest, "softmax");
  const std::string text = UnsupportedOpsText(unsupported);
  EXPECT_EQ(text, "conv2dd x" + std::to_string(convs) +
                      " (closest supported: conv2d), sofmax x1 (closest supported: softmax)");
  EXPECT_NE(ModelOpsTable(m.program, host).find("unsupported: " + text), std::string::npos);
  EXPECT_EQ(ClosestSupportedOp("relu", host), "relu");
}

TEST(OptReport, UnsupportedOpsFailWithOneMessageListingAll) {
  DefaultModel m = MakeDefaultModel();
  auto& ops = m.program.blocks[0].ops;
  // Two ops become types with no kernel anywhere (registered or not).
  ops[3].SetType("no_kernel_op_a");
  ops[7].SetType("no_kernel_op_b");
  OptimizeOptions options;
  options.valid_places = *ParseValidTargets("npu");
  auto result = OptimizeProgram(m.program, m.scope.get(), options);
  ASSERT_FALSE(result.ok());
  const std::string line = OneLine(result.status());
  EXPECT_EQ(line.find('\n'), std::string::npos);
  EXPECT_NE(line.find("no_kernel_op_a"), std::string::npos) << line;
  EXPECT_NE(line.find("no_kernel_op_b"), std::string::npos) << line;
  EXPECT_NE(line.find("npu"), std::string::npos) << line;
  EXPECT_NE(line.find("host"), std::string::npos) << line;
}

}  // namespace
}  // namespace tools
}  // namespace lite
