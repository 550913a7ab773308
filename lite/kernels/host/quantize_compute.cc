// Host kernels of the quantization ops (float32 in and out; dequantize_linear
// also reads int8 levels, as exports store quantized weights), reproducing
// Paddle's fake-quantization arithmetic bit for bit (operators/quant_math.h).
// They are the simulation path of quantized models: what runs when
// quant_dequant_fuse_pass is disabled or declines a consumer.
#include "lite/core/kernel.h"
#include "lite/base/quant_math.h"
#include "lite/operators/quantize_ops.h"

namespace lite {
namespace kernels {
namespace host {

namespace {

using operators::DequantMaxAbsParam;
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

// The fake quantize family (operators/quantize_ops.h): the scale from
// InScale, or max |X| per tensor or per index of quant_axis (written to
// OutScale when bound); Out the levels or the dequantized values.
class FakeQuantCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<QuantParam>();
    RETURN_IF_ERROR(RequireFloat(*p.x, "fake quantization"));
    const float* x = p.x->data<float>();
    float* out = p.out->mutable_data<float>();
    const int bin_cnt = quant::BinCount(p.bit_length);
    std::vector<float> scales;
    if (p.scale) {
      scales = {p.scale->data<float>()[0]};
    } else if (p.quant_axis >= 0) {
      scales = quant::ChannelAbsMax(x, p.x->dims(), p.quant_axis);
    } else {
      scales = {quant::AbsMax(x, p.x->numel())};
    }
    if (p.out_scale) {
      float* os = p.out_scale->mutable_data<float>();
      std::copy(scales.begin(), scales.end(), os);
    }
    if (!p.levels_out && scales.size() == 1) {  // the vectorized per-tensor path
      quant::QuantDequantFloat(x, out, p.x->numel(), scales[0], bin_cnt, p.round_type);
      return Status::OK();
    }
    const int axis = scales.size() == 1 ? 0 : p.quant_axis;
    if (p.levels_out) {
      quant::ForEachWithScale(x, out, p.x->dims(), axis, scales, bin_cnt, p.round_type,
                              [](const quant::Quantizer& q, float v) { return q.Level(v); });
    } else {
      quant::ForEachWithScale(
          x, out, p.x->dims(), axis, scales, bin_cnt, p.round_type,
          [](const quant::Quantizer& q, float v) { return q.QuantDequant(v); });
    }
    return Status::OK();
  }
};

// fake_dequantize_max_abs and fake_channel_wise_dequantize_max_abs
// (quant_math.h: ChannelDequantize); scales computed at run time are
// checked for their length here.
class DequantMaxAbsCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<DequantMaxAbsParam>();
    RETURN_IF_ERROR(RequireFloat(*p.x, "fake dequantization"));
    for (const Tensor* s : p.scales) {
      if (!s->IsInitialized() || s->dtype() != DataType::kFloat32 || s->numel() < 1) {
        return InvalidArgument("fake dequantization: a scale holds no float32 data");
      }
    }
    const float* x = p.x->data<float>();
    float* out = p.out->mutable_data<float>();
    const DDim& dims = p.x->dims();
    if (!p.channel_wise) {
      const float s = p.scales[0]->data<float>()[0];
      for (int64_t i = 0; i < p.x->numel(); ++i) out[i] = x[i] * s / p.max_range;
      return Status::OK();
    }
    const int lists = static_cast<int>(p.scales.size());
    const int axis = quant::ChannelDequantAxis(lists, p.quant_axis, p.x_num_col_dims);
    if (axis < 0 || axis >= static_cast<int>(dims.size()) ||
        p.scales[0]->numel() != dims[axis] || (lists == 2 && p.scales[1]->numel() != 1)) {
      return InvalidArgument("fake_channel_wise_dequantize_max_abs: scales do not fit X of dims " +
                             DimsToString(dims));
    }
    quant::ChannelDequantize(x, out, dims, axis, p.scales[0]->data<float>(),
                             lists == 2 ? p.scales[1]->data<float>() : nullptr, p.max_range);
    return Status::OK();
  }
};

// moving_average_abs_max_scale: Out = X (Paddle's kernel copies X; the
// scale bookkeeping is training only).
class ScaleObserverCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<QuantParam>();
    if (!p.out) return Status::OK();
    RETURN_IF_ERROR(RequireFloat(*p.x, "moving_average_abs_max_scale"));
    const float* x = p.x->data<float>();
    std::copy(x, x + p.x->numel(), p.out->mutable_data<float>());
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
                     lite::kernels::host::FakeQuantCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(fake_quantize_moving_average_abs_max, kHost, kFloat, kNCHW,
                     lite::kernels::host::FakeQuantCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(fake_quantize_range_abs_max, kHost, kFloat, kNCHW,
                     lite::kernels::host::FakeQuantCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(fake_quantize_abs_max, kHost, kFloat, kNCHW,
                     lite::kernels::host::FakeQuantCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(fake_quantize_dequantize_abs_max, kHost, kFloat, kNCHW,
                     lite::kernels::host::FakeQuantCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(fake_channel_wise_quantize_abs_max, kHost, kFloat, kNCHW,
                     lite::kernels::host::FakeQuantCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(fake_channel_wise_quantize_dequantize_abs_max, kHost, kFloat, kNCHW,
                     lite::kernels::host::FakeQuantCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(fake_dequantize_max_abs, kHost, kFloat, kNCHW,
                     lite::kernels::host::DequantMaxAbsCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(fake_channel_wise_dequantize_max_abs, kHost, kFloat, kNCHW,
                     lite::kernels::host::DequantMaxAbsCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(moving_average_abs_max_scale, kHost, kFloat, kNCHW,
                     lite::kernels::host::ScaleObserverCompute, def)
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
