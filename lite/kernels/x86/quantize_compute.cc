// x86 kernels of the per-tensor quantization ops (activations): the same
// float32 arithmetic as the host kernels (operators/quant_math.h), element by
// element, so they run inside the NHWC chain of x86 kernels instead of
// costing two layout conversions each. Registered at layout NHWC: element-
// wise, any order works. Per-channel forms (quant_axis >= 0) and the
// observer-only form decline at kernel pick and run on host. quantize_linear
// with Output_dtype "int8" writes its levels as int8 (kInt8 "levels_out").
#include "lite/core/kernel.h"
#include "lite/base/quant_math.h"
#include "lite/operators/quantize_ops.h"

namespace lite {
namespace kernels {
namespace x86 {

namespace {

using operators::QuantParam;
namespace quant = operators::quant;

// `Mode`: 0 quant-dequant (fake op), 1 levels (quantize_linear), 2 values
// from levels (dequantize_linear).
template <int Mode>
class PerTensorQuantCompute : public KernelBase {
 public:
  Status Run() override {
    const QuantParam& p = Param<QuantParam>();
    if (p.x->dtype() != DataType::kFloat32 || p.scale->numel() != 1) {
      return Unimplemented("per-tensor quantization on " +
                           std::string(DataTypeName(p.x->dtype())) + " with " +
                           std::to_string(p.scale->numel()) + " scales");
    }
    const float s = p.scale->data<float>()[0];
    const float* x = p.x->data<float>();
    float* y = p.out->mutable_data<float>();
    const int64_t n = p.x->numel();
    if (Mode == 0) {
      quant::QuantDequantFloat(x, y, n, s, quant::BinCount(p.bit_length), p.round_type);
      return Status::OK();
    }
    const quant::Quantizer q(s, quant::BinCount(p.bit_length), p.round_type);
    for (int64_t i = 0; i < n; ++i) {
      y[i] = Mode == 0 ? q.QuantDequant(x[i]) : Mode == 1 ? q.Level(x[i]) : q.Dequantize(x[i]);
    }
    return Status::OK();
  }
};

// Observer-only ops (copies) run on host.
bool PerTensor(const cpp::OpDesc& desc) {
  return desc.GetAttr<int32_t>("quant_axis", -1) == -1 &&
         !desc.GetAttr<bool>("only_observer", false);
}

// quantize_linear with Output_dtype "int8" (conv_resize_add_fuse_pass): the
// same levels as the float kernel, stored as int8 for int8 kernels to read
// (16 values per step, quant_math.h's QuantizeToInt8).
class QuantizeToLevelsCompute : public KernelBase {
 public:
  Status Run() override {
    const QuantParam& p = Param<QuantParam>();
    if (p.x->dtype() != DataType::kFloat32 || p.scale->numel() != 1 || p.bit_length != 8) {
      return Unimplemented("quantize_linear to int8 levels: float32 X, one scale, 8 bits");
    }
    quant::QuantizeToInt8(p.x->data<float>(), p.out->mutable_data<int8_t>(), p.x->numel(),
                          p.scale->data<float>()[0], quant::BinCount(p.bit_length),
                          p.round_type);
    return Status::OK();
  }
};

bool PerTensorToLevels(const cpp::OpDesc& desc) {
  return PerTensor(desc) && desc.GetAttr<std::string>("Output_dtype", "float32") == "int8";
}

}  // namespace

}  // namespace x86
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(fake_quantize_dequantize_moving_average_abs_max, kX86, kFloat, kNHWC,
                     lite::kernels::x86::PerTensorQuantCompute<0>, def)
    .Finalize();
REGISTER_LITE_KERNEL(quantize_linear, kX86, kFloat, kNHWC,
                     lite::kernels::x86::PerTensorQuantCompute<1>, def)
    .SetAccepts([](const lite::cpp::OpDesc& desc) {
      return lite::kernels::x86::PerTensor(desc) &&
             desc.GetAttr<std::string>("Output_dtype", "float32") == "float32";
    })
    .Finalize();
REGISTER_LITE_KERNEL(quantize_linear, kX86, kInt8, kNHWC,
                     lite::kernels::x86::QuantizeToLevelsCompute, levels_out)
    .BindInput("X", lite::Place(TARGET(kX86), PRECISION(kFloat), DATALAYOUT(kNHWC)))
    .BindInput("Scale", lite::Place(TARGET(kX86), PRECISION(kFloat), DATALAYOUT(kNHWC)))
    .BindOutput("Y", lite::Place(TARGET(kX86), PRECISION(kInt8), DATALAYOUT(kNHWC)))
    .SetAccepts(lite::kernels::x86::PerTensorToLevels)
    .Finalize();
REGISTER_LITE_KERNEL(dequantize_linear, kX86, kFloat, kNHWC,
                     lite::kernels::x86::PerTensorQuantCompute<2>, def)
    .SetAccepts(lite::kernels::x86::PerTensor)
    .Finalize();
