// Reshape family, transpose, concat, split, slice, pad and interpolation
// bridges against the host kernels, and their rejections.
#include <gtest/gtest.h>

#include "lite/kernels/npu/bridges/bridge_tester.h"

namespace lite {
namespace npu {
namespace {

TEST(ShapeBridges, MatchHost) {
  BridgeTester("reshape2").Input("X", {2, 3, 4}).Output("Out")
      .Attr("shape", std::vector<int>{4, -1}).ExpectMatchesHost(0);
  BridgeTester("flatten_contiguous_range").Input("X", {2, 3, 1, 1}).Output("Out")
      .Attr("start_axis", 1).Attr("stop_axis", -1).Driver("xnnpack").ExpectMatchesHost(0);
  BridgeTester("transpose2").Input("X", {2, 3, 4}).Output("Out")
      .Attr("axis", std::vector<int>{2, 0, 1}).ExpectMatchesHost(0);
  BridgeTester("squeeze2").Input("X", {2, 1, 4}).Output("Out").Attr("axes", std::vector<int>{1})
      .ExpectMatchesHost(0);
  // xnnpack stores 4-D tensors NHWC: these reshapes reorder (its own kernel).
  BridgeTester("reshape2").Driver("xnnpack").Input("X", {1, 4, 2, 3}).Output("Out")
      .Attr("shape", std::vector<int>{1, 24}).ExpectMatchesHost(0);
  BridgeTester("reshape2").Driver("xnnpack").Input("X", {1, 4, 2, 3}).Output("Out")
      .Attr("shape", std::vector<int>{1, 2, 4, 3}).ExpectMatchesHost(0);
  BridgeTester("flatten_contiguous_range").Driver("xnnpack").Input("X", {2, 3, 2, 5})
      .Output("Out").Attr("start_axis", 2).Attr("stop_axis", 3).ExpectMatchesHost(0);
  BridgeTester("squeeze2").Driver("xnnpack").Input("X", {2, 3, 1, 4}).Output("Out")
      .Attr("axes", std::vector<int>{2}).ExpectMatchesHost(0);
}

TEST(ShapeBridges, Rejections) {
  BridgeTester t("reshape2");
  t.Input("X", {2, 6}).Input("ShapeTensor", {2}, "shape_var").Output("Out");
  t.ExpectRejected("'shape_var' is computed at run time");
  BridgeTester("transpose2").Driver("xnnpack").Input("X", {2, 3}).Output("Out")
      .Attr("axis", std::vector<int>{1, 0}).ExpectRejected("transpose has no XNNPACK node");
}

TEST(TensorBridges, ConcatSplitSlicePadMatchHost) {
  for (const char* d : {"reference", "xnnpack"}) {
    SCOPED_TRACE(d);
    BridgeTester("concat").Driver(d).Input("X", {1, 2, 3, 3}, "a").Input("X", {1, 5, 3, 3}, "b")
        .Output("Out").Attr("axis", 1).ExpectMatchesHost(0);
    BridgeTester("concat").Driver(d).Input("X", {2, 3}, "a").Input("X", {2, 4}, "b")
        .Output("Out").Attr("axis", -1).ExpectMatchesHost(0);
    BridgeTester("pad2d").Driver(d).Input("X", {1, 2, 4, 5}).Output("Out")
        .Attr("paddings", std::vector<int>{1, 0, 2, 1}).Attr("pad_value", 0.5f).ExpectMatchesHost(0);
    BridgeTester("nearest_interp_v2").Driver(d).Input("X", {1, 3, 4, 5}).Output("Out")
        .Attr("scale", std::vector<float>{2.f, 2.f}).Attr("interp_method", std::string("nearest"))
        .Attr("align_corners", false).ExpectMatchesHost(0);
    BridgeTester("bilinear_interp_v2").Driver(d).Input("X", {1, 2, 4, 4}).Output("Out")
        .Attr("out_h", 8).Attr("out_w", 6).Attr("interp_method", std::string("bilinear"))
        .Attr("align_corners", false).Attr("align_mode", 0).ExpectMatchesHost(1e-5);
  }
  BridgeTester("split").Input("X", {2, 6, 3}).Output("Out", "o1").Output("Out", "o2")
      .Attr("axis", 1).Attr("num", 2).ExpectMatchesHost(0);
  BridgeTester("slice").Input("Input", {3, 4, 5}).Output("Out")
      .Attr("axes", std::vector<int>{0, 2}).Attr("starts", std::vector<int>{1, 1})
      .Attr("ends", std::vector<int>{2, 4}).Attr("decrease_axis", std::vector<int>{0})
      .ExpectMatchesHost(0);
  for (const char* mode : {"reflect", "edge"}) {
    BridgeTester("pad2d").Input("X", {1, 2, 4, 5}).Output("Out").Attr("mode", std::string(mode))
        .Attr("paddings", std::vector<int>{1, 2, 2, 1}).ExpectMatchesHost(0);
  }
  BridgeTester("bilinear_interp").Input("X", {1, 2, 4, 4}).Output("Out").Attr("out_h", 7)
      .Attr("out_w", 7).Attr("interp_method", std::string("bilinear")).Attr("align_corners", true)
      .ExpectMatchesHost(1e-5);
}

TEST(TensorBridges, Rejections) {
  BridgeTester("pad2d").Driver("xnnpack").Input("X", {1, 2, 4, 5}).Output("Out")
      .Attr("mode", std::string("reflect")).Attr("paddings", std::vector<int>{1, 1, 1, 1})
      .ExpectRejected("reflect/edge mode");
  BridgeTester t("nearest_interp_v2");
  t.Input("X", {1, 3, 4, 5}).Input("SizeTensor", {1}, "h").Output("Out")
      .Attr("interp_method", std::string("nearest"));
  t.ExpectRejected("'h' is computed at run time");
}

}  // namespace
}  // namespace npu
}  // namespace lite
