// conv_resize_add_fuse_pass: resize(p) + conv(x) * mean(conv(x)), the
// gated lateral branch of a pyramid's top-down add with an int8 1x1 conv,
// becomes one conv2d_resize_add on the x86 int8 kernel, and the global
// pool of the conv's output moves before the conv (x's int8 levels from one
// quantize_linear, which a second int8 conv of x shares, their mean, a
// float 1x1 conv). The fused program matches the exact float simulation of
// the quant ops on host within float rounding, for batch 1 and 2 (a scale
// per sample), the kernel's pair mode (8 channels), its 16-channel vectors
// and wider outputs, float output and int8 levels read by another int8
// conv. Kept: a conv with an activation, a conv output with another
// reader, an align_corners resize, a conv no x86 kernel of the op takes,
// host-only places, and everything on a build or CPU without AVX512-VNNI.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "lite/backends/x86/pointwise_int8.h"
#include "tests/passes/fusion_test_util.h"

namespace lite {
namespace mir {
namespace fusion {
namespace testing {
namespace {

// The x86 kernel of conv2d_resize_add (the own 1x1 kernel) needs
// AVX512-VNNI in the build and the CPU; without it the pass declines
// (declined_no_kernel) and the ops stay as they are.
bool KernelOnThisCpu() { return lite::x86::PointwiseInt8::Available(); }

// Without the kernel: nothing fused, every op kept, the result the
// simulation's. Returns true when it checked that.
bool CheckedDeclinedWithoutKernel(const FusionRun& sim, const FusionRun& fused) {
  if (KernelOnThisCpu()) return false;
  EXPECT_EQ(fused.counters.count("fused") ? fused.counters.at("fused") : 0, 0) << fused.pass_log;
  EXPECT_GE(fused.counters.count("declined_no_kernel") ? fused.counters.at("declined_no_kernel")
                                                       : 0,
            1)
      << fused.pass_log;
  EXPECT_EQ(CountOps(fused.op_types, "conv2d_resize_add"), 0);
  ExpectNearSimulation(sim, fused);
  return true;
}
const std::vector<Place> kX86 = {Place(TargetType::kX86), Place(TargetType::kHost)};

struct Lateral {
  int64_t batch = 1;
  int64_t oc = 16;
  bool into_conv = false;       // the sum is read by an int8 conv, else fetched
  std::string conv_act;         // an activation on the lateral conv
  bool fetch_conv = false;      // the conv's output is fetched too
  bool align_corners = false;   // on the resize
  bool same_padding = false;    // padding_algorithm SAME on the conv
  bool second_reader = false;   // another int8 conv (24 -> 8) reads x's levels too
  // Spatial dims declared -1 (a dynamic input); the resize then upscales by
  // its scale attribute (this value) instead of out_h / out_w.
  float dynamic_scale = 0.f;
};

// x [n, 24, 4f, 4f] -> [qdq] int8 conv 1x1 (24 -> oc) -> c; m = pool(c)
// (global avg); a = c * m; up = nearest x f of p [n, oc, 4, 4] (f = 2, or
// the dynamic scale); sum = a + up.
TestModel LateralBranch(const Lateral& l) {
  TestModel m;
  const int64_t n = l.batch, oc = l.oc;
  const int64_t f = l.dynamic_scale > 0.f ? static_cast<int64_t>(l.dynamic_scale) : 2;
  const int64_t hw = 4 * f;  // p is 4 x 4, upscaled f times
  m.Input("x", {n, 24, hw, hw});
  m.Input("p", {n, oc, 4, 4});
  AddQuantConv(&m, "x", 1.1f, "conv2d", 1, "c", 24, oc);
  auto& conv = m.program.blocks[0].ops.back();
  if (!l.conv_act.empty()) conv.SetAttr("fuse_activation", l.conv_act);
  if (l.same_padding) conv.SetAttr("padding_algorithm", std::string("SAME"));
  m.program.blocks[0].FindVar("c")->dims = {n, oc, hw, hw};
  auto& pool = m.Op("pool2d", {{"X", {"c"}}}, {{"Out", {"mean"}}});
  pool.SetAttr("pooling_type", std::string("avg"));
  pool.SetAttr("global_pooling", true);
  pool.SetAttr("ksize", std::vector<int32_t>{1, 1});
  m.program.blocks[0].FindVar("mean")->dims = {n, oc, 1, 1};
  m.Op("elementwise_mul", {{"X", {"c"}}, {"Y", {"mean"}}}, {{"Out", {"a"}}}).SetAttr("axis", -1);
  m.program.blocks[0].FindVar("a")->dims = {n, oc, hw, hw};
  auto& up = m.Op("nearest_interp_v2", {{"X", {"p"}}}, {{"Out", {"up"}}});
  if (l.dynamic_scale > 0.f) {
    up.SetAttr("scale", std::vector<float>{l.dynamic_scale, l.dynamic_scale});
  } else {
    up.SetAttr("out_h", static_cast<int32_t>(hw));
    up.SetAttr("out_w", static_cast<int32_t>(hw));
  }
  up.SetAttr("align_corners", l.align_corners);
  m.program.blocks[0].FindVar("up")->dims = {n, oc, hw, hw};
  m.Op("elementwise_add", {{"X", {"a"}}, {"Y", {"up"}}}, {{"Out", {"sum"}}}).SetAttr("axis", -1);
  m.program.blocks[0].FindVar("sum")->dims = {n, oc, hw, hw};
  if (l.into_conv) {
    AddQuantConv(&m, "sum", 2.3f, "conv2d", 1, "y", oc, 8);
    m.Output("y");
  } else {
    m.Output("sum");
  }
  if (l.fetch_conv) m.Output("c");
  if (l.dynamic_scale > 0.f) {
    for (const char* v : {"x", "p", "c", "a", "up", "sum"}) {
      cpp::VarDesc* d = m.program.blocks[0].FindVar(v);
      d->dims[2] = d->dims[3] = -1;
    }
  }
  if (l.second_reader) {
    // A second 1x1 conv of the same quantized x (the fake op's output).
    m.RandomWeight("o.w", {8, 24, 1, 1}, -0.4f, 0.4f);
    auto& wq = m.Op("fake_channel_wise_quantize_dequantize_abs_max", {{"X", {"o.w"}}},
                    {{"Out", {"o.wq"}}, {"OutScale", {"o.ws"}}});
    wq.SetAttr("bit_length", 8);
    wq.SetAttr("quant_axis", 0);
    auto& conv2 = m.Op("conv2d", {{"Input", {"x.qdq"}}, {"Filter", {"o.wq"}}},
                       {{"Output", {"other"}}});
    conv2.SetAttr("strides", std::vector<int32_t>{1, 1});
    conv2.SetAttr("paddings", std::vector<int32_t>{0, 0});
    conv2.SetAttr("dilations", std::vector<int32_t>{1, 1});
    conv2.SetAttr("groups", 1);
    m.Output("other");
  }
  return m;
}

TEST(ConvResizeAddFuse, OneOpMatchesTheSimulation) {
  // 8 output channels: the 1x1 kernel's pair mode; 16: one vector; 40: a
  // partial vector; 96: more than one panel of 64.
  for (int64_t oc : {8, 16, 40, 96}) {
    for (int64_t batch : {1, 2}) {
      for (bool into_conv : {false, true}) {
        Lateral l;
        l.oc = oc;
        l.batch = batch;
        l.into_conv = into_conv;
        l.second_reader = into_conv;
        SCOPED_TRACE(std::to_string(oc) + " channels, batch " + std::to_string(batch) +
                     (into_conv ? ", read by an int8 conv, x read by a second one" : ", fetched"));
        const TestModel m = LateralBranch(l);
        const FusionRun sim = RunOrFail(m, {}, {Place(TargetType::kHost)});
        FusionRun fused = RunOrFail(m, AllFusionPasses(), kX86);
        ASSERT_FALSE(fused.outputs.empty());
        if (CheckedDeclinedWithoutKernel(sim, fused)) continue;
        EXPECT_EQ(fused.counters.at("fused"), 1) << fused.pass_log;
        EXPECT_EQ(fused.counters.at("pools_moved"), 1) << fused.pass_log;
        EXPECT_EQ(CountOps(fused.op_types, "conv2d_resize_add"), 1);
        EXPECT_EQ(CountOps(fused.op_types, "nearest_interp_v2"), 0);
        EXPECT_EQ(CountOps(fused.op_types, "elementwise_mul"), 0);
        const cpp::OpDesc* op = FindOp(fused, "conv2d_resize_add");
        ASSERT_NE(op, nullptr);
        EXPECT_TRUE(op->GetAttr<bool>("enable_int8", false));
        EXPECT_EQ(VarType(fused, "sum"), into_conv ? "int8" : "float32");
        // x is quantized once, by a quantize_linear writing int8 levels that
        // the fused op, the pool and (when there) the second conv read.
        EXPECT_EQ(CountOps(fused.op_types, "quantize_linear"), 1);
        const cpp::OpDesc* q = FindOp(fused, "quantize_linear");
        ASSERT_NE(q, nullptr);
        const std::string levels = q->Output("Y")[0];
        EXPECT_EQ(VarType(fused, levels), "int8");
        EXPECT_EQ(op->Input("Input"), std::vector<std::string>{levels});
        EXPECT_EQ(op->GetAttr<std::string>("Input_dtype", ""), "int8");
        const cpp::OpDesc* pool = FindOp(fused, "pool2d");
        ASSERT_NE(pool, nullptr);
        EXPECT_EQ(pool->Input("X"), std::vector<std::string>{levels});
        EXPECT_EQ(fused.counters["levels_shared"], into_conv ? 1 : 0) << fused.pass_log;
        if (into_conv) {
          int readers = 0;
          for (const cpp::OpDesc& o : fused.program.blocks[0].ops) {
            readers += o.Type() == "conv2d" && o.Input("Input") == std::vector<std::string>{levels};
          }
          EXPECT_EQ(readers, 1);
        }
        ExpectNearSimulation(sim, fused);
      }
    }
  }
}

TEST(ConvResizeAddFuse, Declines) {
  struct Case {
    const char* what;
    Lateral l;
    const char* counter;
    std::vector<Place> places;
  };
  std::vector<Case> cases;
  Lateral act;
  act.conv_act = "relu";
  cases.push_back({"conv with an activation", act, "declined_conv", kX86});
  Lateral fetched;
  fetched.fetch_conv = true;
  cases.push_back({"conv output fetched", fetched, "declined_readers", kX86});
  Lateral corners;
  corners.align_corners = true;
  cases.push_back({"align_corners resize", corners, "declined_resize", kX86});
  // The x86 kernel takes no SAME padding (for a 1x1 conv it pads nothing).
  Lateral same;
  same.same_padding = true;
  cases.push_back({"SAME padding", same, "declined_no_kernel", kX86});
  // Sizes unknown at optimization: a scale of 2 fuses (see the test below),
  // one that is not a power of two does not (the index rule is not exact
  // at every size).
  Lateral dynamic3;
  dynamic3.dynamic_scale = 3.f;
  cases.push_back({"dynamic sizes, scale 3", dynamic3, "declined_resize", kX86});
  // Host only: no int8 conv is made at all.
  cases.push_back({"host only", Lateral(), "declined_conv", {Place(TargetType::kHost)}});
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    const TestModel m = LateralBranch(c.l);
    FusionRun r = RunOrFail(m, AllFusionPasses(), c.places);
    ASSERT_FALSE(r.outputs.empty());
    EXPECT_EQ(CountOps(r.op_types, "conv2d_resize_add"), 0);
    EXPECT_EQ(r.counters[c.counter], 1) << r.pass_log;
    EXPECT_EQ(r.counters["fused"], 0) << r.pass_log;
    const FusionRun sim = RunOrFail(m, {}, {Place(TargetType::kHost)});
    ExpectNearSimulation(sim, r);
  }
}

// Spatial dims declared -1 (PP-OCR det's dynamic input) with a resize
// scale of 2: fused, and the run at the real sizes matches the simulation.
TEST(ConvResizeAddFuse, DynamicSizesWithAScaleOfTwoFuse) {
  Lateral l;
  l.dynamic_scale = 2.f;
  const TestModel m = LateralBranch(l);
  const FusionRun sim = RunOrFail(m, {}, {Place(TargetType::kHost)});
  FusionRun fused = RunOrFail(m, AllFusionPasses(), kX86);
  ASSERT_FALSE(fused.outputs.empty());
  if (CheckedDeclinedWithoutKernel(sim, fused)) return;
  EXPECT_EQ(fused.counters["fused"], 1) << fused.pass_log;
  EXPECT_EQ(CountOps(fused.op_types, "conv2d_resize_add"), 1);
  ExpectNearSimulation(sim, fused);
}

// A conv2d_resize_add as a saved model holds it, with a malformed Addend or
// ConvScale or a fused activation: creation fails naming the op and input.
TEST(ConvResizeAddFuse, MalformedOpFailsAtCreation) {
  struct Case {
    const char* what;
    DDim addend;
    DDim scale;
    std::string act;
  };
  const std::vector<Case> cases = {
      {"Addend", {1, 8, 3, 3}, {1, 8, 1, 1}, ""},    // 8 is no multiple of 3
      {"Addend", {1, 4, 4, 4}, {1, 8, 1, 1}, ""},    // other channels
      {"ConvScale", {1, 8, 4, 4}, {1, 5, 1, 1}, ""},  // neither C nor N * C values
      {"fused activation", {1, 8, 4, 4}, {1, 8, 1, 1}, "relu"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    TestModel m;
    m.Input("x", {1, 16, 8, 8});
    m.Input("a", c.addend);
    m.Input("s", c.scale);
    m.Int8Weight("w", {8, 16, 1, 1}, std::vector<int8_t>(8 * 16, 3));
    auto& op = m.Op("conv2d_resize_add",
                    {{"Input", {"x"}}, {"Filter", {"w"}}, {"Addend", {"a"}}, {"ConvScale", {"s"}}},
                    {{"Output", {"sum"}}});
    op.SetAttr("strides", std::vector<int32_t>{1, 1});
    op.SetAttr("paddings", std::vector<int32_t>{0, 0});
    op.SetAttr("dilations", std::vector<int32_t>{1, 1});
    op.SetAttr("groups", 1);
    op.SetAttr("enable_int8", true);
    op.SetAttr("Input_scale", 1.f);
    op.SetAttr("Filter_scales", std::vector<float>(8, 0.5f));
    if (!c.act.empty()) op.SetAttr("fuse_activation", c.act);
    m.Output("sum");
    // Without the kernel no place takes the op: that error, naming it.
    ExpectCreationFailsNaming(m, kX86, "conv2d_resize_add",
                              KernelOnThisCpu() ? c.what : "no kernel");
  }
}

}  // namespace
}  // namespace testing
}  // namespace fusion
}  // namespace mir
}  // namespace lite
