// layer_norm_fuse_pass: LayerNorm over the last axis written as
// reduce_mean / sub / (pow | elementwise_pow | square | d * d) / reduce_mean /
// + eps (elementwise_add or scale) / sqrt / div, with and without a trailing
// * w + b, becomes one layer_norm op (begin_norm_axis = rank - 1, epsilon,
// Scale / Bias) whose output matches the unfused ops on host; on x86 too.
// Over the channels of a rank-4 NCHW tensor (NAFNet's LayerNorm2d, weights
// [1, C, 1, 1] multiplied from the left) it becomes channel_layer_norm,
// also on x86 (NHWC). Kept: a mean over a middle dim of a rank-3 tensor,
// an exponent other than 2; affine weights that do not run along the
// normalized axis stay outside (the normalization alone is fused). The x86
// parts skip on the aarch64 build, which has no x86 target.
#include <gtest/gtest.h>

#include "lite/api/build_targets.h"
#include "tests/passes/fusion_test_util.h"

namespace lite {
namespace mir {
namespace fusion {
namespace testing {
namespace {

const char* kPass = "layer_norm_fuse_pass";
enum Square { kPow, kElementwisePow, kSquareOp, kMulSelf };

struct Form {
  Square square = kPow;
  bool scale_eps = false;
  bool affine = true;
  int axis = -1;        // the reduce_means' dim
  float exponent = 2.f;
  DDim x_dims = {2, 5, 24};
  DDim w_dims = {24};
  int w_axis = -1;       // the affine ops' axis attribute
  bool w_first = false;  // w and b as X of the mul and the add
};

// x normalized over f.axis as f says; writes y.
TestModel LayerNormOps(const Form& f) {
  TestModel m;
  const DDim x_dims = f.x_dims;
  const size_t kept = f.axis < 0 ? x_dims.size() - 1 : f.axis;
  m.Input("x", x_dims);
  auto mean = [&m, &f](const std::string& in, const std::string& out) {
    cpp::OpDesc& op = m.Op("reduce_mean", {{"X", {in}}}, {{"Out", {out}}});
    op.SetAttr("dim", std::vector<int64_t>{f.axis});
    op.SetAttr("keep_dim", true);
  };
  mean("x", "mu");
  m.Op("elementwise_sub", {{"X", {"x"}}, {"Y", {"mu"}}}, {{"Out", {"d"}}});
  switch (f.square) {
    case kPow:
      m.Op("pow", {{"X", {"d"}}}, {{"Out", {"sq"}}}).SetAttr("factor", f.exponent);
      break;
    case kElementwisePow:
      m.Weight("two", {1}, {f.exponent});
      m.Op("elementwise_pow", {{"X", {"d"}}, {"Y", {"two"}}}, {{"Out", {"sq"}}});
      break;
    case kSquareOp:
      m.Op("square", {{"X", {"d"}}}, {{"Out", {"sq"}}});
      break;
    case kMulSelf:
      m.Op("elementwise_mul", {{"X", {"d"}}, {"Y", {"d"}}}, {{"Out", {"sq"}}});
      break;
  }
  mean("sq", "var");
  if (f.scale_eps) {
    cpp::OpDesc& s = m.Op("scale", {{"X", {"var"}}}, {{"Out", {"ve"}}});
    s.SetAttr("scale", 1.f);
    s.SetAttr("bias", 1e-6f);
    s.SetAttr("bias_after_scale", true);
  } else {
    m.Weight("eps", {1}, {1e-6f});
    m.Op("elementwise_add", {{"X", {"var"}}, {"Y", {"eps"}}}, {{"Out", {"ve"}}});
  }
  m.Op("sqrt", {{"X", {"ve"}}}, {{"Out", {"sd"}}});
  if (!f.affine) {
    m.Op("elementwise_div", {{"X", {"d"}}, {"Y", {"sd"}}}, {{"Out", {"y"}}});
  } else {
    m.Op("elementwise_div", {{"X", {"d"}}, {"Y", {"sd"}}}, {{"Out", {"n"}}});
    m.RandomWeight("w", f.w_dims, 0.5f, 2.f);
    m.RandomWeight("b", f.w_dims);
    const std::string mx = f.w_first ? "w" : "n", my = f.w_first ? "n" : "w";
    const std::string ax = f.w_first ? "b" : "s", ay = f.w_first ? "s" : "b";
    m.Op("elementwise_mul", {{"X", {mx}}, {"Y", {my}}}, {{"Out", {"s"}}}).SetAttr("axis", f.w_axis);
    m.Op("elementwise_add", {{"X", {ax}}, {"Y", {ay}}}, {{"Out", {"y"}}}).SetAttr("axis", f.w_axis);
  }
  m.Output("y");
  for (auto& v : m.program.blocks[0].vars) {
    if (v.name == "mu" || v.name == "var" || v.name == "ve" || v.name == "sd") {
      v.dims = x_dims;
      v.dims[kept] = 1;
    } else if (!v.persistable && v.name != "feed" && v.name != "fetch") {
      v.dims = x_dims;
    }
  }
  return m;
}

TEST(LayerNormFuse, EveryFormBecomesOneLayerNorm) {
  for (Square sq : {kPow, kElementwisePow, kSquareOp, kMulSelf}) {
    for (bool scale_eps : {false, true}) {
      for (bool affine : {true, false}) {
        Form f;
        f.square = sq;
        f.scale_eps = scale_eps;
        f.affine = affine;
        SCOPED_TRACE("square form " + std::to_string(sq) + (scale_eps ? " scale eps" : " add eps") +
                     (affine ? " affine" : ""));
        FusionRun r = ExpectFusedMatches(LayerNormOps(f), kPass, 1e-5);
        ASSERT_EQ(r.op_types, (std::vector<std::string>{"feed", "layer_norm", "fetch"}));
        const cpp::OpDesc& ln = r.program.blocks[0].ops[1];
        EXPECT_EQ(ln.Input("X"), std::vector<std::string>{"x"});
        EXPECT_EQ(ln.Output("Y"), std::vector<std::string>{"y"});
        EXPECT_EQ(ln.GetAttr<int32_t>("begin_norm_axis", 0), 2);
        EXPECT_EQ(ln.GetAttr<float>("epsilon", 0.f), 1e-6f);
        EXPECT_EQ(ln.HasInput("Scale"), affine);
        EXPECT_EQ(ln.HasInput("Bias"), affine);
        EXPECT_EQ(r.counters["matched"], 1);
      }
    }
  }
}

TEST(LayerNormFuse, X86RunsTheLayerNormAndMatchesTheOps) {
  if (!TargetInBuild(TargetType::kX86)) GTEST_SKIP() << "no x86 target in this build";
  const TestModel m = LayerNormOps(Form());
  const std::vector<Place> x86 = {Place(TargetType::kX86), Place(TargetType::kHost)};
  const FusionRun ops = RunOrFail(m, {}, x86);
  const FusionRun one = RunOrFail(m, AllFusionPasses(), x86);
  ASSERT_EQ(CountOps(one.op_types, "layer_norm"), 1) << one.pass_log;
  EXPECT_EQ(CountOps(one.op_types, "reduce_mean"), 0);
  EXPECT_LE(MaxAbsDiff(ops.outputs, one.outputs), 1e-5);
}

// NAFNet's LayerNorm2d: over dim 1 of NCHW, then weight * y + bias with
// [1, C, 1, 1] weights (also [C] at axis 1, weights as Y).
TEST(LayerNormFuse, ChannelsOfNchwBecomeChannelLayerNorm) {
  for (bool nafnet : {true, false}) {
    Form f;
    f.axis = 1;
    f.x_dims = {2, 6, 3, 4};
    f.w_dims = nafnet ? DDim{1, 6, 1, 1} : DDim{6};
    f.w_axis = nafnet ? -1 : 1;
    f.w_first = nafnet;
    f.square = nafnet ? kPow : kMulSelf;
    SCOPED_TRACE(nafnet ? "w * y + b, [1, C, 1, 1]" : "y * w + b, [C] at axis 1");
    const TestModel m = LayerNormOps(f);
    FusionRun r = ExpectFusedMatches(m, kPass, 1e-5);
    ASSERT_EQ(r.op_types, (std::vector<std::string>{"feed", "channel_layer_norm", "fetch"}));
    const cpp::OpDesc& ln = r.program.blocks[0].ops[1];
    EXPECT_EQ(ln.Input("Scale"), std::vector<std::string>{"w"});
    EXPECT_EQ(ln.Input("Bias"), std::vector<std::string>{"b"});
    EXPECT_EQ(ln.GetAttr<float>("epsilon", 0.f), 1e-6f);
    if (!TargetInBuild(TargetType::kX86)) continue;
    const std::vector<Place> x86 = {Place(TargetType::kX86), Place(TargetType::kHost)};
    const FusionRun ops = RunOrFail(m, {}, x86);
    const FusionRun one = RunOrFail(m, AllFusionPasses(), x86);
    EXPECT_EQ(CountOps(one.op_types, "channel_layer_norm"), 1) << one.pass_log;
    EXPECT_LE(MaxAbsDiff(ops.outputs, one.outputs), 1e-5);
  }
}

TEST(LayerNormFuse, AMiddleAxisAndOtherExponentsAreKept) {
  Form middle;
  middle.axis = 1;
  middle.affine = false;
  FusionRun r = ExpectFusedMatches(LayerNormOps(middle), kPass);
  EXPECT_EQ(CountOps(r.op_types, "reduce_mean"), 2);
  EXPECT_GE(r.counters["declined_axis"], 1);
  for (Square sq : {kPow, kElementwisePow}) {
    Form cube;
    cube.square = sq;
    cube.exponent = 4.f;  // even: the variance stays >= 0
    r = ExpectFusedMatches(LayerNormOps(cube), kPass);
    EXPECT_EQ(CountOps(r.op_types, "layer_norm"), 0) << sq;
    EXPECT_GE(r.counters["declined_constants"], 1) << sq;
  }
}

TEST(LayerNormFuse, WeightsNotAlongTheLastAxisStayOutside) {
  Form f;
  f.w_dims = {5, 1};  // broadcast along dim 1 of [2, 5, 24]
  FusionRun r = ExpectFusedMatches(LayerNormOps(f), kPass, 1e-5);
  EXPECT_EQ(CountOps(r.op_types, "layer_norm"), 1);
  EXPECT_EQ(CountOps(r.op_types, "elementwise_mul"), 1);
  EXPECT_EQ(CountOps(r.op_types, "elementwise_add"), 1);
  EXPECT_FALSE(FindOp(r, "layer_norm")->HasInput("Scale"));
  EXPECT_GE(r.counters["declined_affine"], 1);
}

}  // namespace
}  // namespace testing
}  // namespace fusion
}  // namespace mir
}  // namespace lite
