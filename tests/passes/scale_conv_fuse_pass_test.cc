// scale_conv_fuse_pass: scale -> unpadded conv (a 1x1 conv2d, a grouped
// 3x3 one, either bias order, with or without the conv's own bias) becomes
// the conv alone, reading the scale's input, with a scaled filter and a
// shifted bias, and computes what the two ops did. Kept: a padded conv (its
// border would read 0, not the shift), a scale output read elsewhere, a
// scale with an activation.
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/passes/fusion_test_util.h"

namespace lite {
namespace mir {
namespace fusion {
namespace testing {
namespace {

const char* kPass = "scale_conv_fuse_pass";

struct Case {
  int k = 1;       // kernel size
  int pad = 0;
  int groups = 1;
  bool bias = true;
  bool bias_after_scale = true;
};

// x [1, 8, 7, 7] -> scale(-1.3, 0.4) -> s -> conv k x k (8 -> 6 channels,
// `groups`, `pad`) -> y fetched.
TestModel ScaleConv(const Case& k) {
  TestModel m;
  m.Input("x", {1, 8, 7, 7});
  auto& scale = m.Op("scale", {{"X", {"x"}}}, {{"Out", {"s"}}});
  scale.SetAttr("scale", -1.3f);
  scale.SetAttr("bias", 0.4f);
  scale.SetAttr("bias_after_scale", k.bias_after_scale);
  m.RandomWeight("w", {6, 8 / k.groups, k.k, k.k}, -0.4f, 0.4f);
  std::map<std::string, std::vector<std::string>> in = {{"Input", {"s"}}, {"Filter", {"w"}}};
  if (k.bias) {
    m.RandomWeight("b", {6});
    in["Bias"] = {"b"};
  }
  auto& conv = m.Op("conv2d", in, {{"Output", {"y"}}});
  conv.SetAttr("strides", std::vector<int32_t>{1, 1});
  conv.SetAttr("paddings", std::vector<int32_t>{k.pad, k.pad});
  conv.SetAttr("dilations", std::vector<int32_t>{1, 1});
  conv.SetAttr("groups", k.groups);
  m.Output("y");
  return m;
}

TEST(ScaleConvFuse, TheScaleFoldsIntoTheNextConv) {
  std::vector<std::pair<std::string, Case>> cases;
  Case k;
  cases.push_back({"1x1 conv", k});
  k.bias = false;
  cases.push_back({"1x1 conv without bias", k});
  k.bias_after_scale = false;
  cases.push_back({"bias before the scale", k});
  Case g;
  g.k = 3;
  g.groups = 2;
  cases.push_back({"grouped 3x3 conv, unpadded", g});
  for (const auto& c : cases) {
    SCOPED_TRACE(c.first);
    FusionRun r = ExpectFusedMatches(ScaleConv(c.second), kPass, 1e-5);
    EXPECT_EQ(CountOps(r.op_types, "scale"), 0) << r.pass_log;
    EXPECT_EQ(r.counters["matched"], 1);
    const cpp::OpDesc* conv = FindOp(r, "conv2d");
    ASSERT_NE(conv, nullptr);
    EXPECT_EQ(conv->Input("Input"), std::vector<std::string>{"x"});
    EXPECT_TRUE(conv->HasInput("Bias"));
  }
}

TEST(ScaleConvFuse, KeptWhereTheScaleCannotFold) {
  Case padded;
  padded.k = 3;
  padded.pad = 1;
  TestModel read_elsewhere = ScaleConv(Case());
  read_elsewhere.Output("s");
  TestModel with_act = ScaleConv(Case());
  with_act.program.blocks[0].ops[1].SetAttr("fuse_activation", std::string("relu"));
  const struct {
    const char* what;
    TestModel model;
    const char* counter;  // and its expected count
    int64_t count;
  } cases[] = {{"padded conv", ScaleConv(padded), "padded", 1},
               {"scale output read elsewhere", read_elsewhere, "matched", 0},
               {"scale with an activation", with_act, "matched", 0}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.what);
    FusionRun r = ExpectFusedMatches(c.model, kPass);
    EXPECT_EQ(CountOps(r.op_types, "scale"), 1) << r.pass_log;
    EXPECT_EQ(r.counters[c.counter], c.count);
  }
}

}  // namespace
}  // namespace testing
}  // namespace fusion
}  // namespace mir
}  // namespace lite
