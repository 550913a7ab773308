// Host kernels of the quantization ops (float32 in and out; dequantize_linear
// also reads int8 levels, as exports store quantized weights), reproducing
// Paddle's fake-quantization arithmetic bit for bit (operators/quant_math.h).
// They are the simulation path of quantized models: what runs when
// quant_dequant_fuse_pass is disabled or declines a consumer.
#include "lite/core/kernel.h"
#include "lite/operators/quant_math.h"
#include "lite/operators/quantize_ops.h"

namespace lite {
namespace kernels {
namespace host {

namespace {

using operators::QuantParam;
namespace quant = operators::quant;

std::vector<float> ScalesOf(const Tensor& t) {
  const float* s = t.data<float>();
  return std::vector<float>(s, s + t.numel());
}

Status RequireFloat(const Tensor& x, const char* op) {
  if (x.dtype() == DataType::kFloat32) return Status::OK();
  return Unimplemented(std::string(op) + " on " + DataTypeName(x.dtype()));
}

// fake_quantize_dequantize_moving_average_abs_max: one scale from InScale.
class FakeQuantDequantCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<QuantParam>();
    RETURN_IF_ERROR(RequireFloat(*p.x, "fake quant-dequant"));
    quant::QuantDequantFloat(p.x->data<float>(), p.out->mutable_data<float>(), p.x->numel(),
                             p.scale->data<float>()[0], quant::BinCount(p.bit_length),
                             p.round_type);
    return Status::OK();
  }
};

// fake_channel_wise_quantize_dequantize_abs_max: scales from X itself.
class ChannelWiseQuantDequantCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<QuantParam>();
    RETURN_IF_ERROR(RequireFloat(*p.x, "channel-wise fake quant-dequant"));
    const DDim& dims = p.x->dims();
    const std::vector<float> scales = quant::ChannelAbsMax(p.x->data<float>(), dims,
                                                           p.quant_axis);
    quant::ForEachWithScale(p.x->data<float>(), p.out->mutable_data<float>(), dims,
                            p.quant_axis, scales, quant::BinCount(p.bit_length), p.round_type,
                            [](const quant::Quantizer& q, float v) { return q.QuantDequant(v); });
    if (p.out_scale) {
      float* out = p.out_scale->mutable_data<float>();
      for (size_t i = 0; i < scales.size(); ++i) out[i] = scales[i];
    }
    return Status::OK();
  }
};

// quantize_linear (levels) or dequantize_linear (values), by `Dequantize`.
template <bool Dequantize>
class LinearQuantCompute : public KernelBase {
 public:
  Status Run() override {
    const QuantParam& p = Param<QuantParam>();
    const float* x = nullptr;
    std::vector<float> widened;  // int8 levels (weights stored as levels) as floats
    if (Dequantize && p.x->dtype() == DataType::kInt8) {
      widened.assign(p.x->data<int8_t>(), p.x->data<int8_t>() + p.x->numel());
      x = widened.data();
    } else {
      RETURN_IF_ERROR(RequireFloat(*p.x, Dequantize ? "dequantize_linear" : "quantize_linear"));
      x = p.x->data<float>();
    }
    if (p.only_observer) {  // Paddle's observer form: Y = X
      std::copy(x, x + p.x->numel(), p.out->mutable_data<float>());
      return Status::OK();
    }
    quant::ForEachWithScale(x, p.out->mutable_data<float>(), p.x->dims(),
                            p.quant_axis, ScalesOf(*p.scale), quant::BinCount(p.bit_length),
                            p.round_type, [](const quant::Quantizer& q, float v) {
                              return Dequantize ? q.Dequantize(v) : q.Level(v);
                            });
    return Status::OK();
  }
};

}  // namespace

}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(fake_quantize_dequantize_moving_average_abs_max, kHost, kFloat, kNCHW,
                     lite::kernels::host::FakeQuantDequantCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(fake_channel_wise_quantize_dequantize_abs_max, kHost, kFloat, kNCHW,
                     lite::kernels::host::ChannelWiseQuantDequantCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(quantize_linear, kHost, kFloat, kNCHW,
                     lite::kernels::host::LinearQuantCompute<false>, def)
    .Finalize();
REGISTER_LITE_KERNEL(dequantize_linear, kHost, kFloat, kNCHW,
                     lite::kernels::host::LinearQuantCompute<true>, def)
    .Finalize();
// Weights an export stored as int8 levels (X int8).
REGISTER_LITE_KERNEL(dequantize_linear, kHost, kFloat, kNCHW,
                     lite::kernels::host::LinearQuantCompute<true>, int8_levels)
    .BindInput("X", lite::Place(TARGET(kHost), PRECISION(kInt8), DATALAYOUT(kNCHW)))
    .Finalize();
