#include "lite/optimizer/pass_manager.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include <gtest/gtest.h>

#include "lite/optimizer/dot.h"
#include "lite/core/program.h"
#include "lite/optimizer/test_helpers.h"

namespace lite {
namespace mir {
namespace {

using testing::AddOp;

class NpuOnlyPass : public Pass {
 public:
  std::string name() const override { return "npu_only_test_pass"; }
  std::vector<TargetType> bound_targets() const override { return {TargetType::kNPU}; }
  StatusOr<bool> Run(SSAGraph*) override {
    Count("ran");
    return false;
  }
};
REGISTER_MIR_PASS(npu_only_test_pass, NpuOnlyPass);

cpp::ProgramDesc SmallProgram() {
  cpp::ProgramDesc prog;
  AddOp(&prog, "feed", {{"X", {"feed"}}}, {{"Out", {"x"}}});
  AddOp(&prog, "relu", {{"X", {"x"}}}, {{"Out", {"y"}}});
  AddOp(&prog, "tanh", {{"X", {"y"}}}, {{"Out", {"z"}}});
  AddOp(&prog, "fetch", {{"X", {"z"}}}, {{"Out", {"fetch"}}});
  return prog;
}

TEST(PassManager, SkipsPassesBoundToTargetsWithoutValidPlace) {
  SSAGraph g;
  Scope scope;
  ASSERT_TRUE(g.Build(SmallProgram(), 0, &scope, {Place(TargetType::kHost)}).ok());
  auto r = PassManager().Run(&g, {"npu_only_test_pass"});
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->passes[0].ran);
  EXPECT_NE(r->passes[0].skip_reason.find("npu"), std::string::npos);
  EXPECT_NE(r->ToString().find("skipped"), std::string::npos);

  SSAGraph g2;
  ASSERT_TRUE(g2.Build(SmallProgram(), 0, &scope, {Place(TargetType::kNPU)}).ok());
  auto r2 = PassManager().Run(&g2, {"npu_only_test_pass"});
  ASSERT_TRUE(r2.ok());
  EXPECT_TRUE(r2->passes[0].ran);
  EXPECT_EQ(r2->passes[0].counters.at("ran"), 1);
}

TEST(PassManager, DisabledPassesAreSkippedAndUnknownNamesAreErrors) {
  SSAGraph g;
  Scope scope;
  ASSERT_TRUE(g.Build(SmallProgram(), 0, &scope, {Place(TargetType::kHost)}).ok());
  PassManagerOptions opt;
  opt.disabled_passes = {"static_kernel_pick_pass"};
  auto r = PassManager(opt).Run(&g, {"static_kernel_pick_pass"});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->passes[0].skip_reason, "disabled by user");

  auto unknown = PassManager().Run(&g, {"static_kernel_pick_pass", "no_such_pass"});
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("unknown pass 'no_such_pass' in the pipeline"),
            std::string::npos)
      << unknown.status().message();
  opt.disabled_passes = {"no_such_pass"};
  auto unknown_disabled = PassManager(opt).Run(&g, {"static_kernel_pick_pass"});
  ASSERT_FALSE(unknown_disabled.ok());
  EXPECT_NE(unknown_disabled.status().message().find("in the disabled passes"),
            std::string::npos);
}

TEST(PassManager, EveryPassOfTheDefaultPipelineIsRegistered) {
  for (const auto& name : DefaultPipeline()) {
    EXPECT_TRUE(PassRegistry::Global().Has(name)) << name;
  }
  for (const auto& name : DefaultProgramSteps()) {
    EXPECT_TRUE(PassRegistry::Global().HasProgramStep(name)) << name;
  }
}

// A setting type only this test hands to its pass's factory.
struct RepeatSetting {
  int times = 1;
};
class RepeatCountPass : public Pass {
 public:
  explicit RepeatCountPass(int times) : times_(times) {}
  std::string name() const override { return "repeat_count_test_pass"; }
  StatusOr<bool> Run(SSAGraph*) override {
    Count("ran", times_);
    return false;
  }

 private:
  int times_;
};
REGISTER_MIR_PASS_WITH_OPTIONS(repeat_count_test_pass, [](const PassOptions& options) {
  return std::unique_ptr<Pass>(new RepeatCountPass(options.Get<RepeatSetting>().times));
});

TEST(PassManager, PassFactoriesGetTheManagersOptions) {
  SSAGraph g;
  Scope scope;
  ASSERT_TRUE(g.Build(SmallProgram(), 0, &scope, {Place(TargetType::kHost)}).ok());
  auto defaults = PassManager().Run(&g, {"repeat_count_test_pass"});
  ASSERT_TRUE(defaults.ok());
  EXPECT_EQ(defaults->passes[0].counters.at("ran"), 1);
  PassManagerOptions opt;
  opt.pass_options.Set(RepeatSetting{3});
  auto set = PassManager(opt).Run(&g, {"repeat_count_test_pass"});
  ASSERT_TRUE(set.ok());
  EXPECT_EQ(set->passes[0].counters.at("ran"), 3);
}

TEST(PassManager, LowersTheGraphThenRunsProgramSteps) {
  SSAGraph g;
  Scope scope;
  ASSERT_TRUE(g.Build(SmallProgram(), 0, &scope, {Place(TargetType::kHost)}).ok());
  PassManager manager;
  // Without picked kernels the graph cannot be lowered.
  PassReport unpicked;
  auto failed = manager.Lower(g, &unpicked);
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.status().message().find("has no picked kernel"), std::string::npos)
      << failed.status().message();

  auto report = manager.Run(&g, {"static_kernel_pick_pass"});
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  auto program = manager.Lower(g, &*report);
  ASSERT_TRUE(program.ok()) << program.status().ToString();
  ASSERT_EQ(program->blocks[0].ops.size(), 4u);
  EXPECT_TRUE(program->blocks[0].ops[1].HasAttr(kKernelKeyAttr));
  ASSERT_TRUE(manager.RunProgramSteps(&*program, 0, DefaultProgramSteps(), &*report).ok());
  ASSERT_EQ(report->passes.size(), 3u);
  EXPECT_EQ(report->passes[1].name, "generate_program");
  EXPECT_EQ(report->passes[1].kind, StepKind::kLowering);
  EXPECT_EQ(report->passes[2].name, "memory_optimize_pass");
  EXPECT_EQ(report->passes[2].index, 3);
  // x, y, z and fetch (the helper declares every var a plain tensor).
  EXPECT_EQ(report->passes[2].counters.at("vars_planned"), 4);
  EXPECT_TRUE(program->blocks[0].ops[2].HasAttr(kReleaseAfterAttr));  // y dies at tanh
  EXPECT_NE(report->ToString().find("lowered"), std::string::npos);

  // A graph pass is not a program step, and a disabled step is skipped.
  EXPECT_FALSE(manager.RunProgramSteps(&*program, 0, {"static_kernel_pick_pass"}, &*report).ok());
  PassManagerOptions opt;
  opt.disabled_passes = {"memory_optimize_pass"};
  PassReport skipped;
  ASSERT_TRUE(PassManager(opt).RunProgramSteps(&*program, 0, DefaultProgramSteps(), &skipped).ok());
  EXPECT_EQ(skipped.passes[0].skip_reason, "disabled by user");
}

std::string FullPipelineDot(const cpp::ProgramDesc& prog) {
  SSAGraph g;
  Scope scope;
  EXPECT_TRUE(g.Build(prog, 0, &scope, {Place(TargetType::kHost)}).ok());
  PassManagerOptions opt;
  opt.dot_mode = DotDumpMode::kNamedPass;
  opt.dot_pass = "type_target_cast_pass";  // kernels picked and placed
  auto r = PassManager(opt).Run(&g, DefaultPipeline());
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  if (!r.ok()) return "";
  for (const auto& rec : r->passes) {
    if (rec.name == "type_target_cast_pass") return rec.dot_after;
  }
  return "";
}

TEST(PassManager, TwoBuildsGiveIdenticalDotBytes) {
  std::string a = FullPipelineDot(SmallProgram());
  std::string b = FullPipelineDot(SmallProgram());
  ASSERT_FALSE(a.empty());
  EXPECT_EQ(a, b);
  EXPECT_NE(a.find("shape=box"), std::string::npos);
  EXPECT_NE(a.find("shape=ellipse"), std::string::npos);
  EXPECT_NE(a.find("host/float/NCHW"), std::string::npos);  // picked place
  EXPECT_NE(a.find("label=\"X\""), std::string::npos);      // argument name
}

TEST(PassManager, DotRendersWithGraphviz) {
  if (std::system("command -v dot > /dev/null 2>&1") != 0) {
    GTEST_SKIP() << "graphviz 'dot' not installed";
  }
  std::string dot = FullPipelineDot(SmallProgram());
  const char* tmp = std::getenv("TEST_TMPDIR");
  std::string dir = tmp ? tmp : "/tmp";
  std::string in = dir + "/g.dot", out = dir + "/g.svg";
  std::ofstream(in) << dot;
  ASSERT_EQ(std::system(("dot -Tsvg " + in + " -o " + out).c_str()), 0);
  std::ifstream svg(out);
  std::string head((std::istreambuf_iterator<char>(svg)), std::istreambuf_iterator<char>());
  EXPECT_NE(head.find("<svg"), std::string::npos);
}

TEST(PassManager, ASnapshotAfterAStepOutsideThePipelineIsAnError) {
  SSAGraph g;
  Scope scope;
  ASSERT_TRUE(g.Build(SmallProgram(), 0, &scope, {Place(TargetType::kHost)}).ok());
  PassManagerOptions opt;
  opt.dot_mode = DotDumpMode::kNamedPass;
  opt.dot_pass = "memory_optimize_pass";  // a program step: no graph to draw
  auto r = PassManager(opt).Run(&g, DefaultPipeline());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("not a graph pass of the pipeline"), std::string::npos);
}

TEST(PassManager, ChangedOnlySnapshotsSkipUnchangedPasses) {
  SSAGraph g;
  Scope scope;
  ASSERT_TRUE(g.Build(SmallProgram(), 0, &scope, {Place(TargetType::kHost)}).ok());
  PassManagerOptions opt;
  opt.dot_mode = DotDumpMode::kChangedPasses;
  auto r = PassManager(opt).Run(&g, DefaultPipeline());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  for (const auto& p : r->passes) {
    EXPECT_EQ(!p.dot_after.empty(), p.changed) << p.name;
  }
}

}  // namespace
}  // namespace mir
}  // namespace lite
