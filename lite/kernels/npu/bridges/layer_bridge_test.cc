// pool2d, fc/mul/matmul, elementwise, activation, softmax and batch_norm
// bridges against the host kernels on both drivers, and their rejections.
#include <gtest/gtest.h>

#include "lite/kernels/npu/bridges/bridge_tester.h"

namespace lite {
namespace npu {
namespace {

const char* const kDrivers[] = {"reference", "xnnpack"};

BridgeTester Pool(const std::string& d, const std::string& type, DDim x, std::vector<int> k) {
  BridgeTester t("pool2d");
  t.Driver(d).Input("X", x).Output("Out").Attr("pooling_type", type).Attr("ksize", k);
  return t;
}

TEST(PoolBridge, WindowsMatchHost) {
  for (const char* d : kDrivers) {
    SCOPED_TRACE(d);
    Pool(d, "max", {1, 3, 9, 9}, {3, 3}).Attr("strides", std::vector<int>{2, 2})
        .Attr("paddings", std::vector<int>{1, 1}).Attr("ceil_mode", true).ExpectMatchesHost(0);
    Pool(d, "avg", {2, 4, 8, 8}, {2, 2}).Attr("strides", std::vector<int>{2, 2}).ExpectMatchesHost(1e-6);
    Pool(d, "avg", {1, 4, 9, 9}, {3, 3}).Attr("strides", std::vector<int>{2, 2})
        .Attr("paddings", std::vector<int>{1, 1}).Attr("exclusive", true).ExpectMatchesHost(1e-5);
    Pool(d, "avg", {1, 6, 7, 5}, {1, 1}).Attr("global_pooling", true).ExpectMatchesHost(1e-5);
    Pool(d, "avg", {1, 6, 7, 5}, {1, 1}).Attr("adaptive", true).ExpectMatchesHost(1e-5);
  }
  Pool("reference", "avg", {1, 4, 9, 9}, {3, 3}).Attr("paddings", std::vector<int>{1, 1})
      .Attr("exclusive", false).ExpectMatchesHost(1e-5);
}

TEST(PoolBridge, Rejections) {
  Pool("reference", "avg", {1, 4, 8, 8}, {2, 2}).Attr("adaptive", true)
      .ExpectRejected("adaptive average pooling to 2x");
  Pool("xnnpack", "avg", {1, 4, 9, 9}, {3, 3}).Attr("paddings", std::vector<int>{1, 1})
      .Attr("exclusive", false).ExpectRejected("exclusive=false");
}

TEST(FcBridge, FcMulMatmulMatchHost) {
  for (const char* d : kDrivers) {
    SCOPED_TRACE(d);
    BridgeTester("fc").Driver(d).Input("Input", {2, 3, 4}).Weight("W", {12, 5})
        .Weight("Bias", {5}).Output("Out").Attr("in_num_col_dims", 1).ExpectMatchesHost(1e-5);
    BridgeTester("mul").Driver(d).Input("X", {3, 8}).Weight("Y", {8, 4}).Output("Out")
        .ExpectMatchesHost(1e-5);
    BridgeTester("matmul_v2").Driver(d).Input("X", {2, 3, 6}).Weight("Y", {4, 6}).Output("Out")
        .Attr("trans_y", true).ExpectMatchesHost(1e-5);
    BridgeTester("matmul").Driver(d).Input("X", {3, 6}).Weight("Y", {6, 2}).Output("Out")
        .Attr("alpha", 0.5f).ExpectMatchesHost(1e-5);
  }
  BridgeTester t("matmul_v2");
  t.Input("X", {3, 6}).Input("Y", {6, 2}).Output("Out");
  t.ExpectRejected("Y 'Y' is not a constant");
}

TEST(ElementwiseBridge, PaddleAxisBroadcastingMatchesHost) {
  for (const char* d : kDrivers) {
    SCOPED_TRACE(d);
    for (const char* type : {"elementwise_add", "elementwise_sub", "elementwise_mul",
                             "elementwise_div", "elementwise_max", "elementwise_min"}) {
      SCOPED_TRACE(type);
      BridgeTester(type).Driver(d).Input("X", {2, 3, 4, 5}).Weight("Y", {3}).Output("Out")
          .Attr("axis", 1).ExpectMatchesHost(1e-5);
    }
    BridgeTester("elementwise_mul").Driver(d).Input("X", {1, 8, 6, 6}).Input("Y", {1, 8, 1, 1})
        .Output("Out").Attr("y_activation", std::string("hard_sigmoid")).ExpectMatchesHost(1e-5);
    BridgeTester("elementwise_add").Driver(d).Input("X", {1, 4, 3, 3}).Input("Y", {1, 4, 3, 3})
        .Output("Out").Attr("fuse_activation", std::string("relu")).ExpectMatchesHost(1e-6);
  }
  BridgeTester("elementwise_pow").Input("X", {2, 3}).Input("Y", {2, 3}).Output("Out")
      .ExpectRejected("no npu bridge for op type elementwise_pow");
}

TEST(ActivationBridge, EveryActivationMatchesHost) {
  for (const char* d : kDrivers) {
    SCOPED_TRACE(d);
    for (const char* type : {"relu", "relu6", "leaky_relu", "sigmoid", "swish", "hard_swish",
                             "hard_sigmoid", "abs"}) {
      SCOPED_TRACE(type);
      BridgeTester(type).Driver(d).Input("X", {1, 3, 4, 5}).Output("Out").ExpectMatchesHost(1e-5);
    }
    BridgeTester("scale").Driver(d).Input("X", {2, 7}).Output("Out").Attr("scale", 2.5f)
        .Attr("bias", 0.5f).Attr("bias_after_scale", false).ExpectMatchesHost(1e-5);
    BridgeTester("clip").Driver(d).Input("X", {2, 7}).Output("Out").Attr("min", -0.3f)
        .Attr("max", 0.4f).ExpectMatchesHost(0);
    BridgeTester("prelu").Driver(d).Input("X", {1, 3, 4, 4}).Weight("Alpha", {3}).Output("Out")
        .Attr("mode", std::string("channel")).ExpectMatchesHost(1e-6);
    BridgeTester("softmax").Driver(d).Input("X", {3, 10}).Output("Out").ExpectMatchesHost(1e-6);
    BridgeTester("softmax").Driver(d).Input("X", {1, 5, 3, 3}).Output("Out").Attr("axis", 1)
        .ExpectMatchesHost(1e-6);
    BridgeTester("batch_norm").Driver(d).Input("X", {2, 3, 4, 4}).Weight("Scale", {3})
        .Weight("Bias", {3}).Weight("Mean", {3}).Weight("Variance", {3}, "", {0.5f, 1.f, 2.f})
        .Output("Y").ExpectMatchesHost(1e-5);
  }
  BridgeTester("tanh").Input("X", {2, 3}).Output("Out").ExpectMatchesHost(1e-6);
  BridgeTester("tanh").Driver("xnnpack").Input("X", {2, 3}).Output("Out").ExpectMatchesHost(1e-6);
  BridgeTester("exp").Input("X", {2, 3}).Output("Out").ExpectMatchesHost(1e-6);
  BridgeTester("exp").Driver("xnnpack").Input("X", {2, 3}).Output("Out")
      .ExpectRejected("exp has no XNNPACK node");
  BridgeTester("log_softmax").Input("X", {2, 3}).Output("Out").ExpectRejected("no npu bridge for op type log_softmax");
  BridgeTester("gelu").Input("X", {2, 3}).Output("Out").ExpectRejected("no npu bridge for op type gelu");
  BridgeTester("softmax").Driver("xnnpack").Input("X", {2, 3, 4}).Output("Out").Attr("axis", 1)
      .ExpectRejected("softmax along axis 1");
}

}  // namespace
}  // namespace npu
}  // namespace lite
