// identity_dropout_eliminate_pass and identity_scale_eliminate_pass: modes
// and attribute edge cases, fetched-name stability, versioned names, and
// outputs before/after through the host kernels.
#include <gtest/gtest.h>

#include "tests/passes/fusion_test_util.h"

namespace lite {
namespace mir {
namespace fusion {
namespace testing {
namespace {

const char* kDropout = "identity_dropout_eliminate_pass";
const char* kScale = "identity_scale_eliminate_pass";

std::vector<std::string> FetchNames(const cpp::ProgramDesc& prog) {
  std::vector<std::string> out;
  for (const auto& op : prog.blocks[0].ops) {
    if (op.Type() == "fetch") out.push_back(op.Input("X")[0]);
  }
  return out;
}

// x -> relu -> r -> `op` -> "save_infer_model/scale_0.tmp_0" -> fetch
TestModel ReluThen(const std::string& type) {
  TestModel m;
  m.Input("x", {2, 6});
  m.Op("relu", {{"X", {"x"}}}, {{"Out", {"r"}}});
  m.Op(type, {{"X", {"r"}}}, {{"Out", {"save_infer_model/scale_0.tmp_0"}}});
  m.Output("save_infer_model/scale_0.tmp_0");
  return m;
}
cpp::OpDesc& Second(TestModel* m) { return m->program.blocks[0].ops[2]; }

FusionRun Check(const TestModel& m, const char* pass) {
  double diff = 0;
  auto run = RunAndCompare(m, {pass}, &diff);
  EXPECT_TRUE(run.ok()) << run.status().ToString();
  if (!run.ok()) return FusionRun();
  EXPECT_LT(diff, 1e-6);
  return *run;
}

TEST(IdentityScale, RemovedAndFetchedNameKept) {
  TestModel m = ReluThen("scale");
  Second(&m).SetAttr("scale", 1.f);
  Second(&m).SetAttr("bias", 0.f);
  FusionRun r = Check(m, kScale);
  EXPECT_EQ(r.op_types, (std::vector<std::string>{"feed", "relu", "fetch"}));
  EXPECT_EQ(FetchNames(r.program),
            std::vector<std::string>{"save_infer_model/scale_0.tmp_0"});
}

TEST(IdentityScale, NonIdentityScalesAreKept) {
  for (auto attr : {std::make_pair("bias", 0.5f), std::make_pair("scale", 2.f)}) {
    TestModel m = ReluThen("scale");
    Second(&m).SetAttr(attr.first, attr.second);
    EXPECT_EQ(CountOps(Check(m, kScale).op_types, "scale"), 1) << attr.first;
  }
  TestModel act = ReluThen("scale");
  Second(&act).SetAttr("fuse_activation", std::string("relu6"));
  Second(&act).SetAttr("fuse_alpha", 6.f);
  EXPECT_EQ(CountOps(Check(act, kScale).op_types, "scale"), 1);
}

TEST(IdentityScale, FeedStraightToFetchIsKept) {
  TestModel m;
  m.Input("x", {2, 3});
  m.Op("scale", {{"X", {"x"}}}, {{"Out", {"y"}}});
  m.Output("y");
  FusionRun r = Check(m, kScale);
  EXPECT_EQ(CountOps(r.op_types, "scale"), 1);
  EXPECT_EQ(r.counters["kept"], 1);
}

TEST(IdentityScale, SharedInputRenamesConsumers) {
  TestModel m;  // x feeds the scale and a relu: consumers of y read x
  m.Input("x", {2, 3});
  m.Op("scale", {{"X", {"x"}}}, {{"Out", {"y"}}});
  m.Op("relu", {{"X", {"x"}}}, {{"Out", {"a"}}});
  m.Op("elementwise_add", {{"X", {"y"}}, {"Y", {"a"}}}, {{"Out", {"z"}}});
  m.Output("z");
  FusionRun r = Check(m, kScale);
  EXPECT_EQ(CountOps(r.op_types, "scale"), 0);
}

TEST(IdentityScale, VersionedNameIsNotReadLate) {
  TestModel m;  // b is overwritten in place after the scale read it
  m.Input("x", {2, 3});
  m.Op("relu", {{"X", {"x"}}}, {{"Out", {"b"}}});
  m.Op("scale", {{"X", {"b"}}}, {{"Out", {"c"}}});
  m.Op("sigmoid", {{"X", {"b"}}}, {{"Out", {"b"}}});
  m.Op("elementwise_add", {{"X", {"c"}}, {"Y", {"b"}}}, {{"Out", {"z"}}});
  m.Output("z");
  FusionRun r = Check(m, kScale);
  EXPECT_EQ(CountOps(r.op_types, "scale"), 1);
}

TEST(IdentityDropout, UpscaleInTrainIsRemoved) {
  TestModel m = ReluThen("dropout");
  Second(&m).SetAttr("dropout_implementation", std::string("upscale_in_train"));
  Second(&m).SetAttr("dropout_prob", 0.3f);
  FusionRun r = Check(m, kDropout);
  EXPECT_EQ(r.op_types, (std::vector<std::string>{"feed", "relu", "fetch"}));
  EXPECT_EQ(r.counters["removed"], 1);
}

TEST(IdentityDropout, DowngradeInInferBecomesScale) {
  TestModel m = ReluThen("dropout");
  Second(&m).SetAttr("dropout_prob", 0.25f);  // default mode downgrade_in_infer
  Second(&m).SetOutput("Mask", {"mask"});
  FusionRun r = Check(m, kDropout);
  EXPECT_EQ(r.op_types, (std::vector<std::string>{"feed", "relu", "scale", "fetch"}));
  EXPECT_EQ(r.program.blocks[0].ops[2].GetAttr<float>("scale"), 0.75f);
  EXPECT_EQ(r.counters["to_scale"], 1);
}

TEST(IdentityDropout, ZeroProbabilityIsRemoved) {
  TestModel m = ReluThen("dropout");
  Second(&m).SetAttr("dropout_prob", 0.f);
  EXPECT_EQ(CountOps(Check(m, kDropout).op_types, "dropout"), 0);
}

TEST(IdentityDropout, UsedMaskIsKept) {
  TestModel m = ReluThen("dropout");
  Second(&m).SetAttr("dropout_implementation", std::string("upscale_in_train"));
  Second(&m).SetOutput("Mask", {"mask"});
  m.Output("mask");
  auto r = RunWith(m, {kDropout}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(CountOps(r->op_types, "dropout"), 1);
}

TEST(IdentityDropout, ThenScaleEliminationLeavesNothing) {
  TestModel m = ReluThen("dropout");
  Second(&m).SetAttr("dropout_prob", 0.f);
  m.Op("scale", {{"X", {"save_infer_model/scale_0.tmp_0"}}}, {{"Out", {"out"}}});
  m.Output("out");
  double diff = 0;
  auto r = RunAndCompare(m, {kDropout, kScale}, &diff);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_LT(diff, 1e-6);
  EXPECT_EQ(CountOps(r->op_types, "dropout"), 0);
}

}  // namespace
}  // namespace testing
}  // namespace fusion
}  // namespace mir
}  // namespace lite
