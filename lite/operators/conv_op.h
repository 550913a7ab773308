// conv2d and depthwise_conv2d: Output = act(conv(Input, Filter) + Bias
// + ResidualData) [* fuse_post_scale + fuse_post_bias].
//
// Input [N, C_in, H, W] (NCHW / AnyLayout only), Filter
// [C_out, C_in / groups, kh, kw], optional Bias (C_out values, added per
// output channel; set by fusion passes), optional ResidualData (float32 of
// Output's dims, added before the activation: a residual add folded in by
// conv_residual_fuse_pass, as Paddle's fused conv names it), and after the
// activation an optional affine map fuse_post_scale * x + fuse_post_bias (a
// scale op folded in by conv_scale_fuse_pass; ours, not Paddle's).
// Attributes follow Paddle: strides,
// paddings (2 or 4 values), dilations, groups, padding_algorithm
// (EXPLICIT / SAME / VALID) and the fuse_* activation attributes. InferShape
// resolves the effective 4-value paddings and dilations for the current input
// size (SAME depends on it) into the param for the kernel.
//
// int8 form (set by quant_dequant_fuse_pass, conv2d / depthwise_conv2d only):
// `enable_int8` true, Filter int8 levels, `Filter_scales` (one per output
// channel: the weight's value is level * scale / 127), `Input_scale` (float
// Input is quantized to levels with it, by `quant_round_type`'s rule: see
// lite/base/quant_math.h). Output = act(sum(level_x * level_w) *
// Input_scale / 127 * Filter_scales[c] / 127 + Bias), float32.
// Between two int8 convs (int8_requantize_pass) activations stay levels:
// `Input_dtype` "int8" / "uint8" says Input already holds Input_scale's
// levels (the producer wrote them), and `Output_dtype` "int8" / "uint8" with
// `Output_scale` (the readers' Input_scale) and `Output_round_type` says
// Output is written as those levels instead of float32 ("uint8" only after a
// non-negative activation). Both default to "float32".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lite/core/op_lite.h"
#include "lite/base/fused_activation.h"

namespace lite {
namespace operators {

// A conv with filter `f` (4-D) writing `out`, as direct arithmetic; 0 when
// either is unknown.
int64_t ConvFlops(const Tensor* f, const Tensor* out);

struct ConvParam : OpParam {
  const Tensor* input = nullptr;
  const Tensor* filter = nullptr;
  const Tensor* bias = nullptr;  // optional
  const Tensor* residual = nullptr;  // optional ResidualData (conv2d / depthwise_conv2d)
  Tensor* output = nullptr;
  // conv2d_resize_add only (conv_resize_add_op.h): Addend, its integer
  // upscale factors (set by InferShape) and the optional ConvScale.
  const Tensor* addend = nullptr;
  const Tensor* conv_scale = nullptr;
  int64_t addend_factor_h = 1, addend_factor_w = 1;

  std::vector<int> strides{1, 1};
  std::vector<int> paddings{0, 0, 0, 0};  // attribute, expanded to 4 values
  std::vector<int> dilations{1, 1};
  int groups = 1;
  std::string padding_algorithm = "EXPLICIT";
  std::string data_format = "NCHW";
  FusedActivation act;
  // fuse_post_scale / fuse_post_bias (conv_scale_fuse_pass): Output =
  // post_scale * act(...) + post_bias; 1 and 0 without them.
  float post_scale = 1.f;
  float post_bias = 0.f;
  bool has_post_affine() const { return post_scale != 1.f || post_bias != 0.f; }
  // int8 form (see above); enable_int8 false for the float32 conv.
  bool enable_int8 = false;
  // "enable_fp16" (opt --enable_fp16 sets it on ops it placed on arm): the arm
  // kernel computes in IEEE half (XNNPACK's f16 operators); float32 tensors.
  bool enable_fp16 = false;
  float input_scale = 0.f;
  std::vector<float> filter_scales;
  int quant_round_type = 1;
  DataType input_dtype = DataType::kFloat32;   // or kInt8 / kUInt8 levels
  DataType output_dtype = DataType::kFloat32;  // or kInt8 / kUInt8 levels
  float output_scale = 0.f;                    // the levels' scale
  int output_round_type = 1;

  // Resolved by InferShape for the current input dims.
  std::vector<int> eff_paddings{0, 0, 0, 0};  // [top, bottom, left, right]
  std::vector<int> eff_dilations{1, 1};
};

// What conv2d and conv2d_transpose (conv_transpose_op.h) share: binding
// Input / Filter / Bias, parsing and checking the window attributes, the
// common dims checks and resolving the effective paddings / dilations.
// CheckShape() runs the subclass's CheckDims().
class ConvOpBase : public OpLite {
 public:
  using OpLite::OpLite;
  Status CheckShape() const override { return CheckDims(); }

 protected:
  // Spatial sizes [h, w] of Input and of the kernel.
  struct Window {
    int64_t in_hw[2];
    std::vector<int> ksize;
  };

  virtual Status CheckDims() const = 0;
  // Binds Input, Filter and the optional Bias into *p.
  Status BindConvInputs(ConvParam* p);
  // Reads and checks strides, paddings, dilations, groups, padding_algorithm
  // and data_format into *p (not the fuse_* attributes).
  Status ParseConvAttrs(const cpp::OpDesc& desc, ConvParam* p) const;
  // Input and Filter must be 4-D.
  Status CheckConvRanks(const ConvParam& p) const;
  // The optional Bias must hold c_out values.
  Status CheckConvBias(const ConvParam& p, int64_t c_out) const;
  // The int8 form's enable_int8, Input_scale, Filter_scales (c_out values,
  // an int8 Filter) and quant_round_type into *p.
  Status ParseInt8Scales(const cpp::OpDesc& desc, int64_t c_out, ConvParam* p) const;
  // The window for the current dims; sets p->eff_paddings / eff_dilations.
  static Window ResolveWindow(ConvParam* p);
};

class ConvOp : public ConvOpBase {
 public:
  using ConvOpBase::ConvOpBase;
  Status InferShape() override;
  OpParam* param() override { return &param_; }
  int64_t Flops() const override { return ConvFlops(param_.filter, param_.output); }

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
  Status CheckDims() const override;
  ConvParam* mutable_conv_param() { return &param_; }
  const ConvParam& conv_param() const { return param_; }

 private:
  Status ParseInt8Attrs(const cpp::OpDesc& desc);
  StatusOr<DataType> LevelsDtype(const cpp::OpDesc& desc, const std::string& attr) const;
  ConvParam param_;
};

}  // namespace operators
}  // namespace lite
