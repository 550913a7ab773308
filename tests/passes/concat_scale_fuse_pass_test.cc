// concat_scale_fuse_pass: a channel concat whose inputs are all x_i * s_i
// (per-channel or per sample and channel scales, one input upsampled into
// the concat) reads the x_i with InputScale s_i; host and x86 match the
// unfused program, float output and (read by an int8 conv) int8 levels
// against the simulation. Kept: a concat with an unscaled input, a product
// read elsewhere. A malformed InputScale fails at creation naming the op.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/passes/fusion_test_util.h"

namespace lite {
namespace mir {
namespace fusion {
namespace testing {
namespace {

const char* kPass = "concat_scale_fuse_pass";
const std::vector<Place> kX86 = {Place(TargetType::kX86), Place(TargetType::kHost)};

// a [n, 8, 6, 6] * sa [n, 8, 1, 1] (an SE gate: per sample and channel),
// b [n, 5, 3, 3] * sb [5] (axis 1) upsampled x2, c [n, 3, 6, 6] (times sc
// [1, 3, 1, 1] unless `unscaled`) -> concat on channels -> out (fetched, or
// with `into_conv` read only by a quantized 1x1 conv -> y).
TestModel ScaledConcat(int64_t n, bool unscaled, bool into_conv) {
  TestModel m;
  m.Input("a", {n, 8, 6, 6});
  m.Input("sa", {n, 8, 1, 1});
  m.Input("b", {n, 5, 3, 3});
  m.Input("c", {n, 3, 6, 6});
  m.RandomWeight("sb", {5}, 0.5f, 1.5f);
  m.RandomWeight("sc", {1, 3, 1, 1}, -1.5f, 1.5f);
  m.Op("elementwise_mul", {{"X", {"a"}}, {"Y", {"sa"}}}, {{"Out", {"pa"}}}).SetAttr("axis", -1);
  m.Op("elementwise_mul", {{"X", {"b"}}, {"Y", {"sb"}}}, {{"Out", {"pb"}}}).SetAttr("axis", 1);
  auto& up = m.Op("nearest_interp_v2", {{"X", {"pb"}}}, {{"Out", {"ub"}}});
  up.SetAttr("scale", std::vector<float>{2.f, 2.f});
  up.SetAttr("align_corners", false);
  up.SetAttr("interp_method", std::string("nearest"));
  std::string c = "c";
  if (!unscaled) {
    m.Op("elementwise_mul", {{"X", {"c"}}, {"Y", {"sc"}}}, {{"Out", {"pc"}}}).SetAttr("axis", -1);
    c = "pc";
  }
  m.Op("concat", {{"X", {"pa", "ub", c}}}, {{"Out", {"out"}}}).SetAttr("axis", 1);
  cpp::BlockDesc& b = m.program.blocks[0];
  b.FindVar("pa")->dims = {n, 8, 6, 6};
  b.FindVar("pb")->dims = {n, 5, 3, 3};
  b.FindVar("ub")->dims = {n, 5, 6, 6};
  if (!unscaled) b.FindVar("pc")->dims = {n, 3, 6, 6};
  if (into_conv) {
    AddQuantConv(&m, "out", 1.3f, "conv2d", 1, "y", 16, 4);
    m.Output("y");
  } else {
    m.Output("out");
  }
  return m;
}

TEST(ConcatScaleFuse, ScaledInputsFoldIntoTheConcat) {
  for (int64_t n : {1, 2}) {
    SCOPED_TRACE("batch " + std::to_string(n));
    const TestModel m = ScaledConcat(n, false, false);
    const std::vector<std::string> passes = {"concat_upscale_fuse_pass", kPass};
    const FusionRun plain = RunOrFail(m, {}, {Place(TargetType::kHost)});
    for (const auto& places : {std::vector<Place>{Place(TargetType::kHost)}, kX86}) {
      FusionRun r = RunOrFail(m, passes, places);
      ASSERT_FALSE(r.outputs.empty());
      EXPECT_EQ(r.counters["matched"], 2) << r.pass_log;  // the upscale fusion's and this one's
      EXPECT_EQ(CountOps(r.op_types, "elementwise_mul"), 0);
      const cpp::OpDesc* concat = FindOp(r, "concat");
      ASSERT_NE(concat, nullptr);
      std::vector<std::string> scales;  // without layout_cast_pass's "/nhwc" suffix
      for (const std::string& v : concat->Input("InputScale")) {
        scales.push_back(v.substr(0, v.find('/')));
      }
      EXPECT_EQ(scales, (std::vector<std::string>{"sa", "sb", "sc"}));
      EXPECT_LE(MaxAbsDiff(plain.outputs, r.outputs), 1e-6);
    }
  }
}

TEST(ConcatScaleFuse, Int8LevelsOfTheScaledInputsMatchTheSimulation) {
  const TestModel m = ScaledConcat(1, false, true);
  const FusionRun sim = RunOrFail(m, {}, {Place(TargetType::kHost)});
  const FusionRun int8 = RunOrFail(m, AllFusionPasses(), kX86);
  ASSERT_FALSE(int8.outputs.empty());
  EXPECT_EQ(CountOps(int8.op_types, "elementwise_mul"), 0) << int8.pass_log;
  const cpp::VarDesc* out = int8.program.blocks[0].FindVar("out");
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(out->dtype, DataType::kInt8);  // the concat wrote the conv's levels
  ExpectNearSimulation(sim, int8);
}

TEST(ConcatScaleFuse, KeptWithAnUnscaledInputOrAProductReadElsewhere) {
  FusionRun r = ExpectFusedMatches(ScaledConcat(1, true, false), kPass);
  EXPECT_EQ(CountOps(r.op_types, "elementwise_mul"), 2);
  EXPECT_EQ(r.counters["declined_partial"], 1);
  TestModel m = ScaledConcat(1, false, false);
  m.Output("pa");
  r = ExpectFusedMatches(m, kPass);
  EXPECT_EQ(CountOps(r.op_types, "elementwise_mul"), 3);
  EXPECT_EQ(r.counters["declined_input"], 1);
}

TEST(ConcatScaleFuse, AMalformedInputScaleFailsAtCreation) {
  TestModel m;
  m.Input("a", {1, 8, 6, 6});
  m.Input("b", {1, 4, 6, 6});
  m.RandomWeight("sa", {8});
  m.RandomWeight("sb", {1, 5, 1, 1});  // 5 values for 4 channels
  m.Op("concat", {{"X", {"a", "b"}}, {"InputScale", {"sa", "sb"}}}, {{"Out", {"out"}}})
      .SetAttr("axis", 1);
  m.Output("out");
  ExpectCreationFailsNaming(m, {Place(TargetType::kHost)}, "concat", "InputScale 1");
}

}  // namespace
}  // namespace testing
}  // namespace fusion
}  // namespace mir
}  // namespace lite
