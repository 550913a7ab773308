// conv2d / depthwise_conv2d / conv2d_transpose bridges against the host
// kernels, on the reference and xnnpack drivers, and their rejections.
#include <gtest/gtest.h>

#include "lite/kernels/npu/bridges/bridge_tester.h"

namespace lite {
namespace npu {
namespace {

const char* const kDrivers[] = {"reference", "xnnpack"};

BridgeTester Conv(const std::string& driver, const std::string& type, DDim x, DDim w) {
  BridgeTester t(type);
  t.Driver(driver).Input("Input", x).Weight("Filter", w).Output("Output");
  return t;
}

TEST(ConvBridge, StridesPaddingsGroupsDilationsMatchHost) {
  for (const char* d : kDrivers) {
    SCOPED_TRACE(d);
    Conv(d, "conv2d", {1, 3, 9, 9}, {4, 3, 3, 3})
        .Attr("strides", std::vector<int>{2, 2})
        .Attr("paddings", std::vector<int>{1, 1})
        .ExpectMatchesHost(1e-4);
    Conv(d, "conv2d", {2, 4, 7, 8}, {6, 2, 3, 3})  // groups 2, asymmetric padding, batch 2
        .Attr("groups", 2)
        .Attr("paddings", std::vector<int>{0, 1, 2, 1})
        .ExpectMatchesHost(1e-4);
    Conv(d, "conv2d", {1, 3, 11, 11}, {5, 3, 3, 3})
        .Attr("dilations", std::vector<int>{2, 2})
        .Attr("padding_algorithm", std::string("SAME"))
        .ExpectMatchesHost(1e-4);
    Conv(d, "depthwise_conv2d", {1, 8, 10, 10}, {8, 1, 3, 3})
        .Attr("groups", 8)
        .Attr("paddings", std::vector<int>{1, 1})
        .Attr("fuse_activation", std::string("relu6"))
        .Attr("fuse_alpha", 6.f)
        .ExpectMatchesHost(1e-4);
    Conv(d, "conv2d", {1, 1, 5, 5}, {3, 1, 1, 1})  // one input channel, hard_swish fused
        .Weight("Bias", {3})
        .Attr("fuse_activation", std::string("hard_swish"))
        .Attr("fuse_alpha", 6.f)
        .Attr("fuse_beta", 6.f)
        .Attr("fuse_gamma", 3.f)
        .ExpectMatchesHost(1e-4);
    Conv(d, "conv2d_transpose", {1, 4, 5, 5}, {4, 3, 2, 2})
        .Attr("strides", std::vector<int>{2, 2})
        .ExpectMatchesHost(1e-4);
  }
}

TEST(ConvBridge, Rejections) {
  Conv("reference", "conv2d", {1, 3, 8, 8}, {4, 3, 3, 3})
      .Attr("data_format", std::string("NHWC"))
      .ExpectRejected("data_format 'NHWC' is not supported");
  BridgeTester t("conv2d");
  t.Input("Input", {1, 3, 8, 8}).Input("Filter", {4, 3, 3, 3}).Output("Output");
  t.ExpectRejected("Filter 'Filter' is not a constant");
  Conv("xnnpack", "conv2d_transpose", {1, 4, 5, 5}, {4, 1, 2, 2})
      .Attr("groups", 4)
      .ExpectRejected("conv2d_transpose with groups 4");
}

}  // namespace
}  // namespace npu
}  // namespace lite
