// layout_cast_pass on a chain of x86 ops from the face-detector and
// portrait-segmentation families: conv2d -> slice (channels) -> pad
// (channel padding) -> conv2d -> bilinear_interp_v2 (OutSize computed at run
// time by shape + slice + scale on host) -> softmax (channels), and the second
// conv's output transposed to [N, H, W, C] by transpose2. Every float op
// gets an x86 kernel, the chain never leaves NHWC (no layout op between
// them), the transposed output is written row-major and fetched with no
// cast; the outputs match the host kernels'.
#include <gtest/gtest.h>

#include "lite/core/program.h"
#include "tests/passes/fusion_test_util.h"

namespace lite {
namespace mir {
namespace fusion {
namespace testing {
namespace {

TestModel Chain() {
  TestModel m;
  m.Input("x", {1, 3, 13, 11});
  auto conv = [&m](const std::string& in, const std::string& w, int64_t ic, int64_t oc,
                   const std::string& out) {
    m.RandomWeight(w, {oc, ic, 3, 3});
    auto& op = m.Op("conv2d", {{"Input", {in}}, {"Filter", {w}}}, {{"Output", {out}}});
    op.SetAttr("strides", std::vector<int>{1, 1});
    op.SetAttr("paddings", std::vector<int>{1, 1});
    op.SetAttr("fuse_activation", std::string("relu"));
  };
  conv("x", "w1", 3, 12, "c1");
  auto& slice = m.Op("slice", {{"Input", {"c1"}}}, {{"Out", {"s"}}});
  slice.SetAttr("axes", std::vector<int64_t>{1});
  slice.SetAttr("starts", std::vector<int64_t>{2});
  slice.SetAttr("ends", std::vector<int64_t>{10});
  auto& pad = m.Op("pad", {{"X", {"s"}}}, {{"Out", {"p"}}});
  pad.SetAttr("paddings", std::vector<int>{0, 0, 0, 8, 0, 0, 0, 0});
  pad.SetAttr("pad_value", 0.f);
  conv("p", "w2", 16, 2, "c2");
  // OutSize = 2 x the H, W of c1, computed at run time (shape reads only
  // the dims of the NHWC c1: no cast).
  m.Op("shape", {{"Input", {"c1"}}}, {{"Out", {"xs"}}});
  auto& hw = m.Op("slice", {{"Input", {"xs"}}}, {{"Out", {"hw"}}});
  hw.SetAttr("axes", std::vector<int64_t>{0});
  hw.SetAttr("starts", std::vector<int64_t>{2});
  hw.SetAttr("ends", std::vector<int64_t>{4});
  auto& twice = m.Op("scale", {{"X", {"hw"}}}, {{"Out", {"size"}}});
  twice.SetAttr("scale", 2.f);
  for (auto& v : m.program.blocks[0].vars) {
    if (v.name == "xs" || v.name == "hw" || v.name == "size") v.dtype = DataType::kInt32;
  }
  auto& up = m.Op("bilinear_interp_v2", {{"X", {"c2"}}, {"OutSize", {"size"}}}, {{"Out", {"u"}}});
  up.SetAttr("interp_method", std::string("bilinear"));
  up.SetAttr("align_corners", false);
  up.SetAttr("align_mode", 0);
  m.Op("softmax", {{"X", {"u"}}}, {{"Out", {"prob"}}}).SetAttr("axis", 1);
  auto& t = m.Op("transpose2", {{"X", {"c2"}}}, {{"Out", {"t"}}, {"XShape", {"t.shape"}}});
  t.SetAttr("axis", std::vector<int>{0, 2, 3, 1});
  m.Output("prob");
  m.Output("t");
  return m;
}

TEST(X86NhwcChain, NoLayoutCastsBetweenX86Ops) {
  const TestModel m = Chain();
  const std::vector<Tensor> inputs = m.RandomInputs();
  auto host = RunWith(m, {}, inputs);
  auto x86 = RunWith(m, AllFusionPasses(), inputs, kX86Float);
  ASSERT_TRUE(host.ok()) << host.status().ToString();
  ASSERT_TRUE(x86.ok()) << x86.status().ToString();
  for (const cpp::OpDesc& op : x86->program.blocks[0].ops) {
    const std::string key = op.GetAttr<std::string>(kKernelKeyAttr, "");
    const std::string type = op.Type();
    const bool integer = op.HasOutput("Out") && (op.Output("Out")[0] == "hw" ||
                                                 op.Output("Out")[0] == "size");
    if (type == "feed" || type == "fetch" || type == "shape" || integer) continue;
    EXPECT_NE(key.find("/x86/"), std::string::npos) << type << " got " << key;
  }
  // The only cast: softmax's NHWC output to the NCHW the fetch reads.
  EXPECT_EQ(CountOps(x86->op_types, "layout"), 1) << x86->pass_log;
  ASSERT_EQ(host->output_dims, x86->output_dims);
  EXPECT_EQ(host->output_dims[0], (DDim{1, 2, 26, 22}));
  EXPECT_EQ(host->output_dims[1], (DDim{1, 13, 11, 2}));
  EXPECT_LT(MaxAbsDiff(host->outputs, x86->outputs), 1e-4);
}

}  // namespace
}  // namespace testing
}  // namespace fusion
}  // namespace mir
}  // namespace lite
