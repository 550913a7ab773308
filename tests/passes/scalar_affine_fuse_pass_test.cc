// scalar_affine_fuse_pass: x * a + b with one-value weights a, b becomes one
// scale op (a under either input name of the mul); kept when a weight holds
// more values or more dims, when the product has another reader, or when the
// mul has a fused activation; the add's fused activation moves to the scale. Outputs before and after through the host
// kernels; on x86 the scale op runs its x86 kernel and matches too (skipped
// on the aarch64 build, which has no x86 target).
#include <gtest/gtest.h>

#include "lite/api/build_targets.h"
#include "tests/passes/fusion_test_util.h"

namespace lite {
namespace mir {
namespace fusion {
namespace testing {
namespace {

const char* kPass = "scalar_affine_fuse_pass";

// x [1, 4, 3, 3]; p = a * x (x * a when `swapped`); y = p + b.
TestModel Affine(bool swapped = false, const DDim& a_dims = {1}) {
  TestModel m;
  m.Input("x", {1, 4, 3, 3});
  std::vector<float> a_values(Product(a_dims), 1.7f);
  m.Weight("a", a_dims, a_values);
  m.Weight("b", {1}, {-0.3f});
  if (swapped) {
    m.Op("elementwise_mul", {{"X", {"x"}}, {"Y", {"a"}}}, {{"Out", {"p"}}});
  } else {
    m.Op("elementwise_mul", {{"X", {"a"}}, {"Y", {"x"}}}, {{"Out", {"p"}}});
  }
  m.Op("elementwise_add", {{"X", {"p"}}, {"Y", {"b"}}}, {{"Out", {"y"}}});
  m.Output("y");
  m.program.blocks[0].FindVar("p")->dims = {1, 4, 3, 3};
  return m;
}

TEST(ScalarAffineFuse, MulAndAddBecomeOneScale) {
  for (bool swapped : {false, true}) {
    SCOPED_TRACE(swapped ? "x * a" : "a * x");
    FusionRun r = ExpectFusedMatches(Affine(swapped), kPass);
    ASSERT_EQ(r.op_types, (std::vector<std::string>{"feed", "scale", "fetch"}));
    const cpp::OpDesc& scale = r.program.blocks[0].ops[1];
    EXPECT_EQ(scale.Input("X"), std::vector<std::string>{"x"});
    EXPECT_EQ(scale.Output("Out"), std::vector<std::string>{"y"});
    EXPECT_EQ(scale.GetAttr<float>("scale", 0.f), 1.7f);
    EXPECT_EQ(scale.GetAttr<float>("bias", 0.f), -0.3f);
    EXPECT_TRUE(scale.GetAttr<bool>("bias_after_scale", false));
    EXPECT_EQ(r.counters["matched"], 1);
  }
}

TEST(ScalarAffineFuse, X86RunsTheScaleAndMatchesTheTwoOps) {
  if (!TargetInBuild(TargetType::kX86)) GTEST_SKIP() << "no x86 target in this build";
  const TestModel m = Affine();
  const std::vector<Place> x86 = {Place(TargetType::kX86), Place(TargetType::kHost)};
  const FusionRun two = RunOrFail(m, {}, x86);
  const FusionRun one = RunOrFail(m, AllFusionPasses(), x86);
  EXPECT_EQ(CountOps(one.op_types, "scale"), 1) << one.pass_log;
  EXPECT_EQ(CountOps(one.op_types, "elementwise_mul"), 0);
  EXPECT_LE(MaxAbsDiff(two.outputs, one.outputs), 1e-6);
}

TEST(ScalarAffineFuse, WeightsOfMoreValuesOrDimsAreKept) {
  for (const DDim& dims : {DDim{4, 1, 1}, DDim{1, 1, 1, 1}}) {
    TestModel m = Affine(false, dims);
    FusionRun r = ExpectFusedMatches(m, kPass);
    EXPECT_EQ(CountOps(r.op_types, "elementwise_mul"), 1) << DimsToString(dims);
    // Once per run: the pipeline runs the pass before and after the device
    // cut.
    EXPECT_EQ(r.counters["declined_not_scalar"], 2) << DimsToString(dims);
  }
}

TEST(ScalarAffineFuse, ProductWithAnotherReaderIsKept) {
  TestModel m = Affine();
  m.Output("p");
  FusionRun r = ExpectFusedMatches(m, kPass);
  EXPECT_EQ(CountOps(r.op_types, "elementwise_mul"), 1);
  EXPECT_EQ(r.counters["matched"], 0);
}

TEST(ScalarAffineFuse, TheAddsActivationMovesToTheScaleAndAMulWithOneIsKept) {
  TestModel m = Affine();
  m.program.blocks[0].ops[2].SetAttr("fuse_activation", std::string("relu6"));
  m.program.blocks[0].ops[2].SetAttr("fuse_alpha", 2.f);
  FusionRun r = ExpectFusedMatches(m, kPass);
  ASSERT_EQ(CountOps(r.op_types, "scale"), 1);
  EXPECT_EQ(r.program.blocks[0].ops[1].GetAttr<std::string>("fuse_activation", ""), "relu6");
  m = Affine();
  m.program.blocks[0].ops[1].SetAttr("fuse_activation", std::string("relu"));
  r = ExpectFusedMatches(m, kPass);
  EXPECT_EQ(CountOps(r.op_types, "scale"), 0);
  EXPECT_EQ(r.counters["matched"], 0);
}

}  // namespace
}  // namespace testing
}  // namespace fusion
}  // namespace mir
}  // namespace lite
