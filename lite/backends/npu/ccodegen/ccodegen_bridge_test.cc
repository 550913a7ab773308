// Every op bridge whose operations ccodegen generates, one op at a time
// through the bridge tester on the ccodegen driver against the host kernels
// (the same cases the bridge tests run on reference and xnnpack), and the
// ops ccodegen refuses with its reason.
#include <gtest/gtest.h>

#include "lite/kernels/npu/bridges/bridge_tester.h"

namespace lite {
namespace npu {
namespace {

BridgeTester On(const std::string& op_type) {
  BridgeTester t(op_type);
  t.Driver("ccodegen");
  return t;
}

TEST(CcodegenBridges, ConvolutionsMatchHost) {
  On("conv2d").Input("Input", {1, 3, 9, 9}).Weight("Filter", {4, 3, 3, 3}).Output("Output")
      .Attr("strides", std::vector<int>{2, 2}).Attr("paddings", std::vector<int>{1, 1})
      .ExpectMatchesHost(1e-4);
  On("conv2d").Input("Input", {2, 4, 7, 8}).Weight("Filter", {6, 2, 3, 3}).Output("Output")
      .Attr("groups", 2).Attr("paddings", std::vector<int>{0, 1, 2, 1}).ExpectMatchesHost(1e-4);
  On("conv2d").Input("Input", {1, 3, 11, 11}).Weight("Filter", {5, 3, 3, 3}).Output("Output")
      .Attr("dilations", std::vector<int>{2, 2}).Attr("padding_algorithm", std::string("SAME"))
      .ExpectMatchesHost(1e-4);
  On("depthwise_conv2d").Input("Input", {1, 8, 10, 10}).Weight("Filter", {8, 1, 3, 3})
      .Output("Output").Attr("groups", 8).Attr("paddings", std::vector<int>{1, 1})
      .Attr("fuse_activation", std::string("relu6")).Attr("fuse_alpha", 6.f).ExpectMatchesHost(1e-4);
  On("conv2d").Input("Input", {1, 1, 5, 5}).Weight("Filter", {3, 1, 1, 1}).Weight("Bias", {3})
      .Output("Output").Attr("fuse_activation", std::string("hard_swish")).Attr("fuse_alpha", 6.f)
      .Attr("fuse_beta", 6.f).Attr("fuse_gamma", 3.f).ExpectMatchesHost(1e-4);
}

TEST(CcodegenBridges, PoolingAndFullyConnectedMatchHost) {
  auto pool = [](const std::string& type, DDim x, std::vector<int> k) {
    BridgeTester t = On("pool2d");
    t.Input("X", x).Output("Out").Attr("pooling_type", type).Attr("ksize", k);
    return t;
  };
  pool("max", {1, 3, 9, 9}, {3, 3}).Attr("strides", std::vector<int>{2, 2})
      .Attr("paddings", std::vector<int>{1, 1}).Attr("ceil_mode", true).ExpectMatchesHost(0);
  pool("avg", {2, 4, 8, 8}, {2, 2}).Attr("strides", std::vector<int>{2, 2}).ExpectMatchesHost(1e-6);
  pool("avg", {1, 4, 9, 9}, {3, 3}).Attr("strides", std::vector<int>{2, 2})
      .Attr("paddings", std::vector<int>{1, 1}).Attr("exclusive", true).ExpectMatchesHost(1e-5);
  pool("avg", {1, 4, 9, 9}, {3, 3}).Attr("paddings", std::vector<int>{1, 1})
      .Attr("exclusive", false).ExpectMatchesHost(1e-5);
  pool("avg", {1, 6, 7, 5}, {1, 1}).Attr("global_pooling", true).ExpectMatchesHost(1e-5);
  pool("avg", {1, 6, 7, 5}, {1, 1}).Attr("adaptive", true).ExpectMatchesHost(1e-5);
  On("fc").Input("Input", {2, 3, 4}).Weight("W", {12, 5}).Weight("Bias", {5}).Output("Out")
      .Attr("in_num_col_dims", 1).ExpectMatchesHost(1e-5);
  On("mul").Input("X", {3, 8}).Weight("Y", {8, 4}).Output("Out").ExpectMatchesHost(1e-5);
  On("matmul_v2").Input("X", {2, 3, 6}).Weight("Y", {4, 6}).Output("Out").Attr("trans_y", true)
      .ExpectMatchesHost(1e-5);
  On("matmul").Input("X", {3, 6}).Weight("Y", {6, 2}).Output("Out").Attr("alpha", 0.5f)
      .ExpectMatchesHost(1e-5);
}

TEST(CcodegenBridges, ElementwiseWithBroadcastingMatchesHost) {
  for (const char* type : {"elementwise_add", "elementwise_sub", "elementwise_mul",
                           "elementwise_div", "elementwise_max", "elementwise_min"}) {
    SCOPED_TRACE(type);
    On(type).Input("X", {2, 3, 4, 5}).Weight("Y", {3}).Output("Out").Attr("axis", 1)
        .ExpectMatchesHost(1e-5);
    On(type).Input("X", {2, 3, 4, 5}).Input("Y", {4, 5}).Output("Out").ExpectMatchesHost(1e-5);
    On(type).Input("X", {2, 1, 4, 1}).Input("Y", {2, 3, 1, 5}).Output("Out").ExpectMatchesHost(1e-5);
  }
  On("elementwise_mul").Input("X", {1, 8, 6, 6}).Input("Y", {1, 8, 1, 1}).Output("Out")
      .Attr("y_activation", std::string("hard_sigmoid")).ExpectMatchesHost(1e-5);
  On("elementwise_add").Input("X", {1, 4, 3, 3}).Input("Y", {1, 4, 3, 3}).Output("Out")
      .Attr("fuse_activation", std::string("relu")).ExpectMatchesHost(1e-6);
}

TEST(CcodegenBridges, ActivationsSoftmaxBatchNormMatchHost) {
  for (const char* type : {"relu", "relu6", "leaky_relu", "sigmoid", "swish", "hard_swish",
                           "hard_sigmoid", "abs", "tanh", "exp"}) {
    SCOPED_TRACE(type);
    On(type).Input("X", {1, 3, 4, 5}).Output("Out").ExpectMatchesHost(1e-5);
  }
  On("scale").Input("X", {2, 7}).Output("Out").Attr("scale", 2.5f).Attr("bias", 0.5f)
      .Attr("bias_after_scale", false).ExpectMatchesHost(1e-5);
  On("clip").Input("X", {2, 7}).Output("Out").Attr("min", -0.3f).Attr("max", 0.4f)
      .ExpectMatchesHost(0);
  On("prelu").Input("X", {1, 3, 4, 4}).Weight("Alpha", {3}).Output("Out")
      .Attr("mode", std::string("channel")).ExpectMatchesHost(1e-6);
  On("softmax").Input("X", {3, 10}).Output("Out").ExpectMatchesHost(1e-6);
  On("softmax").Input("X", {2, 3, 4}).Output("Out").Attr("axis", 1).ExpectMatchesHost(1e-6);
  On("batch_norm").Input("X", {2, 3, 4, 4}).Weight("Scale", {3}).Weight("Bias", {3})
      .Weight("Mean", {3}).Weight("Variance", {3}, "", {0.5f, 1.f, 2.f}).Output("Y")
      .ExpectMatchesHost(1e-5);
}

TEST(CcodegenBridges, ShapesAndDataMovementMatchHost) {
  On("reshape2").Input("X", {1, 4, 2, 3}).Output("Out").Attr("shape", std::vector<int>{1, 24})
      .ExpectMatchesHost(0);
  On("flatten_contiguous_range").Input("X", {2, 3, 1, 1}).Output("Out").Attr("start_axis", 1)
      .Attr("stop_axis", -1).ExpectMatchesHost(0);
  On("transpose2").Input("X", {2, 3, 4}).Output("Out").Attr("axis", std::vector<int>{2, 0, 1})
      .ExpectMatchesHost(0);
  On("squeeze2").Input("X", {2, 1, 4}).Output("Out").Attr("axes", std::vector<int>{1})
      .ExpectMatchesHost(0);
  On("concat").Input("X", {1, 2, 3, 3}, "a").Input("X", {1, 5, 3, 3}, "b").Output("Out")
      .Attr("axis", 1).ExpectMatchesHost(0);
  On("concat").Input("X", {2, 3}, "a").Input("X", {2, 4}, "b").Output("Out").Attr("axis", -1)
      .ExpectMatchesHost(0);
  On("split").Input("X", {2, 6, 3}).Output("Out", "o1").Output("Out", "o2").Attr("axis", 1)
      .Attr("num", 2).ExpectMatchesHost(0);
  On("slice").Input("Input", {3, 4, 5}).Output("Out").Attr("axes", std::vector<int>{0, 2})
      .Attr("starts", std::vector<int>{1, 1}).Attr("ends", std::vector<int>{2, 4})
      .Attr("decrease_axis", std::vector<int>{0}).ExpectMatchesHost(0);
  On("pad2d").Input("X", {1, 2, 4, 5}).Output("Out").Attr("paddings", std::vector<int>{1, 0, 2, 1})
      .Attr("pad_value", 0.5f).ExpectMatchesHost(0);
  for (const char* mode : {"reflect", "edge"}) {
    On("pad2d").Input("X", {1, 2, 4, 5}).Output("Out").Attr("mode", std::string(mode))
        .Attr("paddings", std::vector<int>{1, 2, 2, 1}).ExpectMatchesHost(0);
  }
}

TEST(CcodegenBridges, TransposedConvolutionAndInterpolationMatchHost) {
  On("conv2d_transpose").Input("Input", {1, 4, 5, 5}).Weight("Filter", {4, 3, 2, 2})
      .Output("Output").Attr("strides", std::vector<int>{2, 2}).ExpectMatchesHost(1e-4);
  On("conv2d_transpose").Input("Input", {1, 4, 5, 5}).Weight("Filter", {4, 1, 2, 2})
      .Output("Output").Attr("groups", 4).Attr("strides", std::vector<int>{2, 2})
      .ExpectMatchesHost(1e-4);
  On("nearest_interp_v2").Input("X", {1, 3, 4, 5}).Output("Out")
      .Attr("scale", std::vector<float>{2.f, 2.f}).Attr("interp_method", std::string("nearest"))
      .Attr("align_corners", false).ExpectMatchesHost(0);
  On("bilinear_interp_v2").Input("X", {1, 2, 4, 4}).Output("Out").Attr("out_h", 8).Attr("out_w", 6)
      .Attr("interp_method", std::string("bilinear")).Attr("align_corners", false)
      .Attr("align_mode", 0).ExpectMatchesHost(1e-5);
  On("bilinear_interp").Input("X", {1, 2, 4, 4}).Output("Out").Attr("out_h", 7).Attr("out_w", 7)
      .Attr("interp_method", std::string("bilinear")).Attr("align_corners", true)
      .ExpectMatchesHost(1e-5);
}

TEST(CcodegenBridges, Rejections) {
  On("relu").Input("X", {1, 1, 1, 1, 1, 2, 3}).Output("Out")
      .ExpectRejected("relu on a tensor of rank > 6");
}

}  // namespace
}  // namespace npu
}  // namespace lite
