// interp_residual_fuse_pass: a + resize(x) -> resize(x) with ResidualData a,
// either operand order, nearest and bilinear; kept when shapes differ, when
// the resized map has another reader, or when the add has an activation.
// Outputs before and after through the host kernels.
#include <gtest/gtest.h>

#include "tests/passes/fusion_test_util.h"

namespace lite {
namespace mir {
namespace fusion {
namespace testing {
namespace {

const char* kPass = "interp_residual_fuse_pass";

// x [1, 3, 2, 3] -> `type` x2 -> u [1, 3, 4, 6]; y = a + u (or u + a).
TestModel UpAdd(const std::string& type = "nearest_interp_v2", bool swapped = false,
                const DDim& adims = {1, 3, 4, 6}) {
  TestModel m;
  m.Input("x", {1, 3, 2, 3});
  m.Input("a", adims);
  auto& up = m.Op(type, {{"X", {"x"}}}, {{"Out", {"u"}}});
  up.SetAttr("out_h", 4);
  up.SetAttr("out_w", 6);
  up.SetAttr("align_corners", false);
  up.SetAttr("align_mode", 1);
  if (swapped) {
    m.Op("elementwise_add", {{"X", {"u"}}, {"Y", {"a"}}}, {{"Out", {"y"}}});
  } else {
    m.Op("elementwise_add", {{"X", {"a"}}, {"Y", {"u"}}}, {{"Out", {"y"}}});
  }
  m.Output("y");
  m.program.blocks[0].FindVar("u")->dims = {1, 3, 4, 6};
  return m;
}

FusionRun Fused(const TestModel& m) { return ExpectFusedMatches(m, kPass); }

TEST(InterpResidualFuse, AddIntoTheResize) {
  for (const std::string type : {"nearest_interp_v2", "bilinear_interp_v2", "nearest_interp"}) {
    for (bool swapped : {false, true}) {
      FusionRun r = Fused(UpAdd(type, swapped));
      ASSERT_EQ(r.op_types, (std::vector<std::string>{"feed", "feed", type, "fetch"}))
          << type << " swapped " << swapped;
      const cpp::OpDesc& up = r.program.blocks[0].ops[2];
      EXPECT_EQ(up.Input("ResidualData"), std::vector<std::string>{"a"});
      EXPECT_EQ(up.Output("Out"), std::vector<std::string>{"y"});
    }
  }
}

// a = x * s with s one value per channel, read only by the add: the resize
// reads x and s, the mul goes.
TEST(InterpResidualFuse, ChannelScaledResidualFoldsTheMul) {
  for (bool other_reader : {false, true}) {
    TestModel m;
    m.Input("u0", {1, 3, 2, 3});
    m.Input("x", {1, 3, 4, 6});
    m.Input("s", {1, 3, 1, 1});
    auto& up = m.Op("nearest_interp_v2", {{"X", {"u0"}}}, {{"Out", {"u"}}});
    up.SetAttr("out_h", 4);
    up.SetAttr("out_w", 6);
    up.SetAttr("align_corners", false);
    m.Op("elementwise_mul", {{"X", {"x"}}, {"Y", {"s"}}}, {{"Out", {"a"}}});
    m.Op("elementwise_add", {{"X", {"a"}}, {"Y", {"u"}}}, {{"Out", {"y"}}});
    m.Output("y");
    if (other_reader) m.Output("a");
    m.program.blocks[0].FindVar("u")->dims = {1, 3, 4, 6};
    m.program.blocks[0].FindVar("a")->dims = {1, 3, 4, 6};
    FusionRun r = Fused(m);
    EXPECT_EQ(CountOps(r.op_types, "elementwise_add"), 0);
    EXPECT_EQ(CountOps(r.op_types, "elementwise_mul"), other_reader ? 1 : 0);
    EXPECT_EQ(r.counters["scale_folded"], other_reader ? 0 : 1);
  }
}

TEST(InterpResidualFuse, BroadcastAddIsKept) {
  FusionRun r = Fused(UpAdd("nearest_interp_v2", false, {1, 3, 1, 6}));
  EXPECT_EQ(CountOps(r.op_types, "elementwise_add"), 1);
  EXPECT_EQ(r.counters["declined_shapes"], 1);
}

TEST(InterpResidualFuse, ResizedMapWithAnotherReaderIsKept) {
  TestModel m = UpAdd();
  m.Output("u");
  EXPECT_EQ(CountOps(Fused(m).op_types, "elementwise_add"), 1);
}

TEST(InterpResidualFuse, AddWithActivationIsKept) {
  TestModel m = UpAdd();
  m.program.blocks[0].ops[3].SetAttr("fuse_activation", std::string("relu"));
  EXPECT_EQ(CountOps(Fused(m).op_types, "elementwise_add"), 1);
}

}  // namespace
}  // namespace testing
}  // namespace fusion
}  // namespace mir
}  // namespace lite
