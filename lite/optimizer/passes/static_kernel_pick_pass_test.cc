#include <gtest/gtest.h>

#include "lite/optimizer/pass_manager.h"
#include "lite/optimizer/test_helpers.h"

namespace lite {
namespace mir {
namespace {

using testing::AddOp;
using testing::RegisterToyKernel;

const Place kHostF(TargetType::kHost, PrecisionType::kFloat, DataLayoutType::kNCHW);
const Place kNpuF(TargetType::kNPU, PrecisionType::kFloat, DataLayoutType::kNCHW);
const Place kX86F(TargetType::kX86, PrecisionType::kFloat, DataLayoutType::kNCHW);

StatusOr<const KernelDef*> PickFor(const std::string& op, std::vector<Place> places) {
  cpp::ProgramDesc prog;
  AddOp(&prog, op, {{"X", {"x"}}}, {{"Out", {"y"}}});
  SSAGraph g;
  Scope scope;
  RETURN_IF_ERROR(g.Build(prog, 0, &scope, places));
  PassManager pm;
  auto r = pm.Run(&g, {"static_kernel_pick_pass"});
  if (!r.ok()) return r.status();
  return g.StmtNodes()[0]->stmt().picked;
}

TEST(StaticKernelPick, PrefersTheFirstValidPlace) {
  RegisterToyKernel("toy_two_targets", kHostF);
  RegisterToyKernel("toy_two_targets", kNpuF);
  auto npu_first = PickFor("toy_two_targets", {kNpuF, kHostF});
  ASSERT_TRUE(npu_first.ok());
  EXPECT_EQ((*npu_first)->place.target, TargetType::kNPU);
  auto host_first = PickFor("toy_two_targets", {kHostF, kNpuF});
  ASSERT_TRUE(host_first.ok());
  EXPECT_EQ((*host_first)->place.target, TargetType::kHost);
}

TEST(StaticKernelPick, HostIsTheFallbackForAnyTarget) {
  RegisterToyKernel("toy_host_only", kHostF);
  auto pick = PickFor("toy_host_only", {kX86F});
  ASSERT_TRUE(pick.ok());
  EXPECT_EQ((*pick)->place.target, TargetType::kHost);
}

// SetAcceptsDims sees the declared dims of the op's vars: the x86 kernel
// takes only a weight w of at most 4 columns.
TEST(StaticKernelPick, AKernelCanJudgeDeclaredDims) {
  RegisterToyKernel("toy_dims", kHostF);
  auto* x86 = const_cast<KernelDef*>(RegisterToyKernel("toy_dims", kX86F));
  x86->SetAcceptsDims([](const cpp::OpDesc& d, const VarDimsFn& dims) {
    const std::vector<int64_t> w = dims(d.Input("W")[0]);
    return w.size() == 2 && w[1] <= 4;
  });
  for (int64_t cols : {3, 5}) {
    cpp::ProgramDesc prog;
    AddOp(&prog, "toy_dims", {{"X", {"x"}}, {"W", {"w"}}}, {{"Out", {"y"}}});
    for (auto& v : prog.blocks[0].vars) {
      if (v.name == "w") v.dims = {7, cols};
    }
    SSAGraph g;
    Scope scope;
    ASSERT_TRUE(g.Build(prog, 0, &scope, {kX86F, kHostF}).ok());
    ASSERT_TRUE(PassManager().Run(&g, {"static_kernel_pick_pass"}).ok());
    EXPECT_EQ(g.StmtNodes()[0]->stmt().picked->place.target,
              cols <= 4 ? TargetType::kX86 : TargetType::kHost)
        << cols << " columns";
  }
}

TEST(StaticKernelPick, ADecliningKernelFallsBackToHost) {
  RegisterToyKernel("toy_declines", kHostF);
  auto* x86 = const_cast<KernelDef*>(RegisterToyKernel("toy_declines", kX86F));
  x86->SetAccepts([](const cpp::OpDesc& d) { return !d.HasAttr("unsupported"); });
  auto pick = PickFor("toy_declines", {kX86F, kHostF});
  ASSERT_TRUE(pick.ok());
  EXPECT_EQ((*pick)->place.target, TargetType::kX86);
  cpp::ProgramDesc prog;
  AddOp(&prog, "toy_declines", {{"X", {"x"}}}, {{"Out", {"y"}}}).SetAttr("unsupported", true);
  SSAGraph g;
  Scope scope;
  ASSERT_TRUE(g.Build(prog, 0, &scope, {kX86F, kHostF}).ok());
  ASSERT_TRUE(PassManager().Run(&g, {"static_kernel_pick_pass"}).ok());
  EXPECT_EQ(g.StmtNodes()[0]->stmt().picked->place.target, TargetType::kHost);
}

TEST(StaticKernelPick, PrecisionBreaksTiesWithinATarget) {
  RegisterToyKernel("toy_precisions", Place(TargetType::kHost, PrecisionType::kInt8));
  RegisterToyKernel("toy_precisions", kHostF);
  auto pick = PickFor("toy_precisions", {kHostF});
  ASSERT_TRUE(pick.ok());
  EXPECT_EQ((*pick)->place.precision, PrecisionType::kFloat);
}

TEST(StaticKernelPick, NonHostKernelOutsideValidPlacesIsNotPicked) {
  RegisterToyKernel("toy_npu_only", kNpuF);
  auto pick = PickFor("toy_npu_only", {kHostF});
  ASSERT_FALSE(pick.ok());
  EXPECT_EQ(pick.status().code(), StatusCode::kNotFound);
  EXPECT_NE(pick.status().message().find("toy_npu_only (output y)"), std::string::npos)
      << pick.status().message();
  EXPECT_NE(pick.status().message().find("host/float/NCHW"), std::string::npos);
}

TEST(StaticKernelPick, ListsEveryUnsupportedOp) {
  cpp::ProgramDesc prog;
  AddOp(&prog, "toy_missing_a", {{"X", {"x"}}}, {{"Out", {"y"}}});
  AddOp(&prog, "toy_missing_b", {{"X", {"y"}}}, {{"Out", {"z"}}});
  SSAGraph g;
  Scope scope;
  ASSERT_TRUE(g.Build(prog, 0, &scope, {kHostF}).ok());
  auto r = PassManager().Run(&g, {"static_kernel_pick_pass"});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("2 op(s)"), std::string::npos);
  EXPECT_NE(r.status().message().find("toy_missing_a"), std::string::npos);
  EXPECT_NE(r.status().message().find("toy_missing_b"), std::string::npos);
}

}  // namespace
}  // namespace mir
}  // namespace lite
