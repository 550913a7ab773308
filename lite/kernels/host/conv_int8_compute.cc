// Host conv2d / depthwise_conv2d of the int8 form (conv_op.h) as the exact
// float32 simulation: the input quantized and dequantized with Input_scale
// (quant_math.h, the fake quant op's rule), the int8 Filter dequantized
// once to level * Filter_scales[c] / 127, then the float conv of
// conv_compute.h with the op's bias and fused activation.
//
// It is the host fallback of int8 convs an NPU subgraph claimed (its
// sub-block runs on host when the driver fails) and of those left on host
// by partition rules. quant_dequant_fuse_pass never makes a conv int8 for
// this kernel alone: it computes what the quant ops compute, no faster.
#include <vector>

#include "lite/kernels/host/conv_compute.h"
#include "lite/operators/conv_op.h"
#include "lite/base/quant_math.h"

namespace lite {
namespace kernels {
namespace host {

class ConvInt8SimulationCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<operators::ConvParam>();
    if (!filter_.IsInitialized()) {
      const int64_t channels = p.filter->dims()[0];
      const int64_t per_channel = p.filter->numel() / channels;
      filter_.Resize(p.filter->dims());
      float* w = filter_.mutable_data<float>();
      const int8_t* levels = p.filter->data<int8_t>();
      for (int64_t i = 0; i < p.filter->numel(); ++i) {
        w[i] = static_cast<float>(levels[i]) * p.filter_scales[i / per_channel] / 127.f;
      }
    }
    input_.Resize(p.input->dims());
    operators::quant::QuantDequantFloat(p.input->data<float>(), input_.mutable_data<float>(),
                                        p.input->numel(), p.input_scale, 127,
                                        p.quant_round_type);
    float_param_ = p;
    float_param_.input = &input_;
    float_param_.filter = &filter_;
    float_param_.enable_int8 = false;
    float_conv_.Bind(&def(), &float_param_, ctx());
    return float_conv_.Run();
  }

 private:
  Tensor filter_;  // dequantized once (the filter is a constant)
  Tensor input_;   // quant-dequantized input of this run
  operators::ConvParam float_param_;
  ConvCompute float_conv_;
};

}  // namespace host
}  // namespace kernels
}  // namespace lite

namespace {
bool ConvInt8SimulationAccepts(const lite::cpp::OpDesc& desc) {
  return desc.GetAttr<bool>("enable_int8", false);
}
}  // namespace

// Float32 activations in and out; only the filter holds int8.
#define LITE_REGISTER_HOST_INT8_CONV(op)                                                     \
  REGISTER_LITE_KERNEL(op, kHost, kInt8, kNCHW,                                              \
                       lite::kernels::host::ConvInt8SimulationCompute, def)                  \
      .BindInput("Input", lite::Place(TARGET(kHost), PRECISION(kFloat), DATALAYOUT(kNCHW)))  \
      .BindInput("Bias", lite::Place(TARGET(kHost), PRECISION(kFloat), DATALAYOUT(kNCHW)))   \
      .BindInput("ResidualData",                                                             \
                 lite::Place(TARGET(kHost), PRECISION(kFloat), DATALAYOUT(kNCHW)))           \
      .BindOutput("Output", lite::Place(TARGET(kHost), PRECISION(kFloat), DATALAYOUT(kNCHW))) \
      .SetAccepts(ConvInt8SimulationAccepts)                                                 \
      .Finalize()

LITE_REGISTER_HOST_INT8_CONV(conv2d);
LITE_REGISTER_HOST_INT8_CONV(depthwise_conv2d);
