// x86 int8 conv2d / depthwise_conv2d (the int8 form of conv_op.h, made by
// quant_dequant_fuse_pass) and conv2d_resize_add, as an ordered list of
// strategies (strategy_list.h, conv_int8_strategy.h): our own kernels for
// the shapes where they are the faster ones, then oneDNN's int8
// convolution for the rest.
//
// The float32 NHWC input is quantized to int8 levels with Input_scale, by
// the same rule the fake quant op computes (lite/base/quant_math.h);
// between int8 convs (int8_requantize_pass) the input is already levels
// (s8, or u8 after a non-negative activation) and the output may be levels
// too (Output_dtype). The kernel plans per input shape: it asks its
// strategies in order, the first that accepts runs, and impl_info() (what
// the profile shows) names it: "lite:dw_int8_nhwc", "lite:conv_int8_smalln",
// "lite:pointwise_int8", "lite:nchw_input_int8" or oneDNN's primitive.
#pragma once

#include <string>

#include "lite/kernels/x86/conv_int8_strategy.h"
#include "lite/kernels/x86/dnnl_kernel.h"

namespace lite {
namespace kernels {
namespace x86 {

class ConvInt8Compute : public DnnlKernel {
 public:
  ConvInt8Compute();
  const std::string& impl_info() const override { return strategies_.impl_info(); }
  // The strategies, with the last plan's winner and the reasons of those
  // that declined before it.
  const StrategyList<ConvInt8Context>& strategies() const { return strategies_; }

 protected:
  Status InitDnnl() override;
  Status RunDnnl() override;

  bool nchw_input_ = false;  // Input is bound in NCHW (ConvInt8NchwInputCompute)

 private:
  Status Plan();

  StrategyList<ConvInt8Context> strategies_;
  DDim planned_dims_;
};

// A model's first int8 conv (1-4 input channels, float input): Input is
// bound in NCHW, so no layout op runs before it; the kernel quantizes and
// reorders the fed image in one pass.
class ConvInt8NchwInputCompute : public ConvInt8Compute {
 public:
  ConvInt8NchwInputCompute() { nchw_input_ = true; }
};

// The int8 conv reads float input of 1-4 channels: ConvInt8NchwInputCompute
// takes it, the NHWC bindings decline.
bool Int8NchwInputFits(const cpp::OpDesc& desc, const VarDimsFn& dims);

}  // namespace x86
}  // namespace kernels
}  // namespace lite
