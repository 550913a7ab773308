// concat_upscale_fuse_pass: exact integer nearest upsamplings read only by
// a channel concat are absorbed as its input_upscale factors (v2 scale and
// out_h/out_w forms); other resizes stay. Outputs before and after through
// the host kernels.
#include <gtest/gtest.h>

#include "tests/passes/fusion_test_util.h"

namespace lite {
namespace mir {
namespace fusion {
namespace testing {
namespace {

const char* kPass = "concat_upscale_fuse_pass";

// a [1, 2, 2, 3] x4 (scale), b [1, 3, 4, 6] x2 (out_h/out_w), c [1, 1, 8, 12]:
// y = concat(up4(a), up2(b), c) on axis 1.
TestModel UpConcat(bool align_corners = false) {
  const float a_scale = 4.f;
  TestModel m;
  m.Input("a", {1, 2, 2, 3});
  m.Input("b", {1, 3, 4, 6});
  m.Input("c", {1, 1, 8, 12});
  auto& ua = m.Op("nearest_interp_v2", {{"X", {"a"}}}, {{"Out", {"ua"}}});
  ua.SetAttr("scale", std::vector<float>{a_scale, a_scale});
  ua.SetAttr("align_corners", align_corners);
  auto& ub = m.Op("nearest_interp_v2", {{"X", {"b"}}}, {{"Out", {"ub"}}});
  ub.SetAttr("out_h", 8);
  ub.SetAttr("out_w", 12);
  ub.SetAttr("align_corners", false);
  auto& cat = m.Op("concat", {{"X", {"ua", "ub", "c"}}}, {{"Out", {"y"}}});
  cat.SetAttr("axis", 1);
  m.Output("y");
  m.program.blocks[0].FindVar("ua")->dims = {1, 2, 2 * static_cast<int64_t>(a_scale),
                                             3 * static_cast<int64_t>(a_scale)};
  m.program.blocks[0].FindVar("ub")->dims = {1, 3, 8, 12};
  return m;
}

FusionRun Fused(const TestModel& m) { return ExpectFusedMatches(m, kPass); }

TEST(ConcatUpscaleFuse, UpsamplingsBecomeFactors) {
  FusionRun r = Fused(UpConcat());
  ASSERT_EQ(r.op_types, (std::vector<std::string>{"feed", "feed", "feed", "concat", "fetch"}));
  const cpp::OpDesc& cat = r.program.blocks[0].ops[3];
  EXPECT_EQ(cat.Input("X"), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(cat.GetAttr<std::vector<int>>("input_upscale"), (std::vector<int>{4, 2, 1}));
  EXPECT_EQ(r.counters["upsamplings_fused"], 2);
}

TEST(ConcatUpscaleFuse, AlignCornersUpsamplingStays) {
  FusionRun r = Fused(UpConcat(/*align_corners=*/true));
  EXPECT_EQ(CountOps(r.op_types, "nearest_interp_v2"), 1);  // b's is still fused
  EXPECT_GE(r.counters["declined_upsampling"], 1);
  EXPECT_EQ(r.counters["upsamplings_fused"], 1);
}

TEST(ConcatUpscaleFuse, UpsamplingWithAnotherReaderStays) {
  TestModel m = UpConcat();
  m.Output("ua");
  FusionRun r = Fused(m);
  EXPECT_EQ(CountOps(r.op_types, "nearest_interp_v2"), 1);
}

}  // namespace
}  // namespace testing
}  // namespace fusion
}  // namespace mir
}  // namespace lite
