// conv2d_transpose / depthwise_conv2d_transpose (a.k.a. deconvolution):
// Output = act(conv_transpose(Input, Filter) + Bias).
//
// Input [N, C_in, H, W] (NCHW / AnyLayout only), Filter
// [C_in, C_out / groups, kh, kw], output channels C_out = Filter[1] * groups,
// optional Bias (C_out values). Spatial size per Paddle:
//   (in - 1) * stride - pad_begin - pad_end + dilation * (k - 1) + 1
// plus output_padding, or the output_size attribute (or OutputSize input),
// which must lie in [computed, computed + stride). SAME / VALID resolve the
// paddings from the input size like conv2d. InferShape stores the effective
// paddings/dilations in the param for the kernel.
//
// int8 form (quant_dequant_fuse_pass, conv2d_transpose): the attributes of
// conv's (conv_op.h) with Filter_scales one per output channel (C_out
// values; the filter value W[ci, o, i, j] is level * Filter_scales[o'] / 127
// where o' = g * C_out / groups + o); float32 Input and Output.
#pragma once

#include <vector>

#include "lite/operators/conv_op.h"

namespace lite {
namespace operators {

struct ConvTransposeParam : ConvParam {
  std::vector<int> output_padding;  // empty or 2 values
  std::vector<int> output_size;     // empty or 2 values
  const Tensor* output_size_tensor = nullptr;  // optional OutputSize input
};

class ConvTransposeOp : public ConvOpBase {
 public:
  using ConvOpBase::ConvOpBase;
  Status InferShape() override;
  OpParam* param() override { return &param_; }
  // Every input pixel scatters into filter-sized windows of the output.
  int64_t Flops() const override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
  Status CheckDims() const override;

 private:
  Status ParseInt8Attrs(const cpp::OpDesc& desc);
  ConvTransposeParam param_;
};

}  // namespace operators
}  // namespace lite
