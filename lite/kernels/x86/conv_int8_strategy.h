// The x86 int8 conv's strategies (strategy_list.h) and what they share.
//
// ConvInt8Compute (conv_int8_compute.cc) asks, in this order: our
// first-conv kernel reading the NCHW image (conv_int8_nchw_input_strategy.cc),
// our depthwise kernel (conv_int8_depthwise_strategy.cc), our
// few-output-channel kernel (conv_int8_smalln_strategy.cc), our 1x1 GEMM,
// which also computes conv2d_resize_add (conv_int8_pointwise_strategy.cc),
// and oneDNN's int8 convolution (conv_int8_dnnl_strategy.cc), which takes
// every other conv. Each file says which convs its kernel takes and why.
// Every strategy reads the same quantized input (ConvInt8Context::Levels)
// and writes the same output forms: float32, or s8 / u8 levels.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "lite/base/quant_math.h"
#include "lite/kernels/x86/dnnl_kernel.h"
#include "lite/kernels/x86/strategy_list.h"
#include "lite/operators/conv_op.h"

namespace lite {
namespace kernels {
namespace x86 {

// What the int8 conv hands its strategies: the op, the kernel (threads,
// oneDNN stream and memories) and how Input is bound.
class ConvInt8Context {
 public:
  ConvInt8Context(DnnlKernel* kernel, const operators::ConvParam& param, bool nchw_input)
      : kernel(*kernel), p(param), nchw_input(nchw_input) {}

  int threads() const { return kernel.threads(); }
  // Input as NHWC levels: float32 input quantized by the op's rule
  // (Input_scale, quant_round_type) into this thread's buffer, reordered
  // from NCHW on the way when nchw_input; s8 / u8 levels as they are.
  Status Levels(const void** levels) const;

  DnnlKernel& kernel;
  const operators::ConvParam& p;
  const bool nchw_input;  // Input is bound in NCHW (the first conv's binding)
};

using ConvInt8Strategy = Strategy<ConvInt8Context>;

// The strategies, one maker per file; the kernel lists them in order.
std::unique_ptr<ConvInt8Strategy> MakeConvInt8NchwInputStrategy();
std::unique_ptr<ConvInt8Strategy> MakeConvInt8DepthwiseStrategy();
std::unique_ptr<ConvInt8Strategy> MakeConvInt8SmallnStrategy();
std::unique_ptr<ConvInt8Strategy> MakeConvInt8PointwiseStrategy();
std::unique_ptr<ConvInt8Strategy> MakeConvInt8DnnlStrategy();

// Output's buffer: float32, or s8 / u8 levels (Output_dtype).
inline void* ConvInt8OutputData(const operators::ConvParam& p) {
  switch (p.output_dtype) {
    case DataType::kInt8: return p.output->mutable_data<int8_t>();
    case DataType::kUInt8: return p.output->mutable_data<uint8_t>();
    default: return p.output->mutable_data<float>();
  }
}

// Per-channel scales Input_scale / 127 * Filter_scales[c] / 127.
inline std::vector<float> ConvInt8ChannelScales(const operators::ConvParam& p) {
  std::vector<float> scales(p.filter_scales.size());
  for (size_t c = 0; c < scales.size(); ++c)
    scales[c] = p.input_scale / 127.f * (p.filter_scales[c] / 127.f);
  return scales;
}

// An own kernel's output form (their Out enums list the same three).
template <typename Out>
Out ConvInt8OwnOut(const operators::ConvParam& p) {
  return p.output_dtype == DataType::kInt8    ? Out::kS8
         : p.output_dtype == DataType::kUInt8 ? Out::kU8
                                              : Out::kFloat;
}

// An own kernel's epilogue from the op: per-channel scales, the bias, the
// activation, the output form and the requantization factor.
template <typename Kernel>
void SetConvInt8Epilogue(const operators::ConvParam& p, Kernel* kernel) {
  const std::vector<float> scales = ConvInt8ChannelScales(p);
  kernel->SetEpilogue(scales.data(), p.bias ? p.bias->data<float>() : nullptr, p.act,
                      ConvInt8OwnOut<typename Kernel::Out>(p),
                      127.f * operators::quant::InverseScale(p.output_scale),
                      p.output_round_type);
}

// The own kernels other than the 1x1 GEMM have no residual input and none
// computes the post-activation affine map (fuse_post_*): a decline reason
// for such a conv, or empty.
inline std::string ConvInt8OwnEpilogueGap(const operators::ConvParam& p, bool takes_residual) {
  if (p.residual && !takes_residual) return "ResidualData (no residual input)";
  if (p.has_post_affine()) return "a post-activation affine map (fuse_post_*)";
  return std::string();
}

}  // namespace x86
}  // namespace kernels
}  // namespace lite
