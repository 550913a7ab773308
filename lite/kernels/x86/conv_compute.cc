#include "lite/kernels/x86/conv_compute.h"

#include <algorithm>
#include <limits>
#include <memory>
#include <vector>

#include "lite/backends/x86/omp_ranges.h"
#include "lite/backends/x86/post_ops.h"
#include "lite/operators/conv_op.h"

namespace lite {
namespace kernels {
namespace x86 {

using dnnl::memory;

namespace {
// The strategies in the order they are asked; oneDNN takes the rest.
std::vector<std::unique_ptr<ConvStrategy>> ConvStrategies() {
  std::vector<std::unique_ptr<ConvStrategy>> list;
  list.push_back(MakeConvPointwiseStrategy());
  list.push_back(MakeConvWinogradStrategy());
  list.push_back(MakeConvDepthwiseStrategy());
  list.push_back(MakeConvDnnlStrategy());
  return list;
}
}  // namespace

ConvCompute::ConvCompute() : strategies_(ConvStrategies()) {}

int64_t ConvCompute::OutPixelStride(const operators::ConvParam& p) const {
  return whole_ ? whole_->dims()[1] : p.output->dims()[1];
}

dnnl::memory::desc ConvCompute::UserDstDesc(const operators::ConvParam& p) const {
  if (!whole_) return Desc(*p.output);
  const DDim& d = p.output->dims();  // [n, c, h, w] with NHWC element order
  const int64_t ld = OutPixelStride(p);
  return memory::desc({d[0], d[1], d[2], d[3]}, memory::data_type::f32,
                      memory::dims{d[2] * d[3] * ld, 1, d[3] * ld, ld});
}

float* ConvCompute::OutData(const operators::ConvParam& p) const {
  return whole_ ? whole_->mutable_data<float>() + whole_offset_ : p.output->mutable_data<float>();
}

Status ConvCompute::InitDnnl() {
  const auto& p = Param<operators::ConvParam>();
  if (p.input->dims().size() != 4 || p.output->dims().size() != 4) return Status::OK();
  return Plan();
}

Status ConvCompute::Plan() {
  const auto& p = Param<operators::ConvParam>();
  // Filter and bias are packed once, here: they must be weights. A model that
  // computes them at run time (a weight quant-dequant left unfolded) gets an
  // error instead of a read of data that does not exist yet.
  if (!p.filter->IsInitialized() || (p.bias != nullptr && !p.bias->IsInitialized())) {
    return Unimplemented(
        "the x86 conv needs a constant Filter and Bias, but this model computes them at run "
        "time; keep constant_folding_pass enabled or run this op on host");
  }
  ConvContext c{*this, p};
  RETURN_IF_ERROR(strategies_.Choose(c));
  winograd_ = c.winograd;
  planned_dims_ = p.input->dims();
  return Status::OK();
}

void ConvCompute::AddResidual(const operators::ConvParam& p) const {
  const float* r = p.residual->data<float>();
  float* out = OutData(p);
  const int64_t pixels = p.output->numel() / p.output->dims()[1], c = p.output->dims()[1];
  const int64_t ld = OutPixelStride(p);
  const float hi = p.act.kind == operators::FusedActivation::kRelu6
                       ? p.act.alpha
                       : std::numeric_limits<float>::infinity();
  const float lo = p.act.enabled() ? 0.f : -std::numeric_limits<float>::infinity();
  const bool split = pixels * c > (1 << 16);
  lite::x86::OmpForRangesIf(split, threads(), pixels, [&](int64_t px0, int64_t px1) {
    for (int64_t px = px0; px < px1; ++px) {
      float* o = out + px * ld;
      const float* rr = r + px * c;
#pragma omp simd
      for (int64_t i = 0; i < c; ++i) o[i] = std::min(std::max(o[i] + rr[i], lo), hi);
    }
  });
}

Status ConvCompute::RunDnnl() {
  const auto& p = Param<operators::ConvParam>();
  if (p.input->dims() != planned_dims_) RETURN_IF_ERROR(Plan());
  ConvContext c{*this, p};
  return strategies_.Run(c);
}

}  // namespace x86
}  // namespace kernels
}  // namespace lite

namespace {
bool ConvAccepts(const lite::cpp::OpDesc& desc) {
  return lite::x86::FusedActivationExpressible(desc) &&
         desc.GetAttr<std::string>("data_format", "NCHW") != "NHWC";
}
}  // namespace

bool lite::kernels::x86::ConvComputeTakes(const lite::cpp::OpDesc& desc,
                                          const lite::VarDimsFn& dims) {
  return ConvAccepts(desc) && !NchwInputConvFits(desc, dims);
}

REGISTER_LITE_KERNEL(conv2d, kX86, kFloat, kNHWC, lite::kernels::x86::ConvCompute, def)
    .SetAccepts(ConvAccepts)
    .SetAcceptsDims([](const lite::cpp::OpDesc& desc, const lite::VarDimsFn& dims) {
      return !lite::kernels::x86::NchwInputConvFits(desc, dims);
    })
    .Finalize();
REGISTER_LITE_KERNEL(depthwise_conv2d, kX86, kFloat, kNHWC, lite::kernels::x86::ConvCompute, def)
    .SetAccepts(ConvAccepts)
    .Finalize();
