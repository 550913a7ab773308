// The x86 int8 conv's kernel (conv_int8_compute.h): its list of strategies
// and its registrations.
#include "lite/kernels/x86/conv_int8_compute.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "lite/backends/x86/pointwise_int8.h"
#include "lite/backends/x86/post_ops.h"
#include "lite/kernels/x86/conv_compute.h"
#include "lite/operators/conv_op.h"

namespace lite {
namespace kernels {
namespace x86 {

namespace {
// The strategies in the order they are asked; oneDNN takes the rest.
std::vector<std::unique_ptr<ConvInt8Strategy>> ConvInt8Strategies() {
  std::vector<std::unique_ptr<ConvInt8Strategy>> list;
  list.push_back(MakeConvInt8NchwInputStrategy());
  list.push_back(MakeConvInt8DepthwiseStrategy());
  list.push_back(MakeConvInt8SmallnStrategy());
  list.push_back(MakeConvInt8PointwiseStrategy());
  list.push_back(MakeConvInt8DnnlStrategy());
  return list;
}
}  // namespace

ConvInt8Compute::ConvInt8Compute() : strategies_(ConvInt8Strategies()) {}

Status ConvInt8Compute::InitDnnl() {
  const auto& p = Param<operators::ConvParam>();
  if (p.input->dims().size() != 4 || p.output->dims().size() != 4) return Status::OK();
  return Plan();
}

Status ConvInt8Compute::Plan() {
  const auto& p = Param<operators::ConvParam>();
  ConvInt8Context c(this, p, nchw_input_);
  RETURN_IF_ERROR(strategies_.Choose(c));
  planned_dims_ = p.input->dims();
  return Status::OK();
}

Status ConvInt8Compute::RunDnnl() {
  const auto& p = Param<operators::ConvParam>();
  if (p.input->dims() != planned_dims_) RETURN_IF_ERROR(Plan());
  if (p.input->dtype() != p.input_dtype) {
    return InvalidArgument("int8 conv: Input holds " +
                           std::string(DataTypeName(p.input->dtype())) + ", Input_dtype says " +
                           DataTypeName(p.input_dtype));
  }
  ConvInt8Context c(this, p, nchw_input_);
  return strategies_.Run(c);
}

// The int8 conv reads float input of 1-4 channels (NchwInputConvFits's
// geometry): ConvInt8NchwInputCompute takes it, the NHWC bindings decline.
bool Int8NchwInputFits(const cpp::OpDesc& desc, const VarDimsFn& dims) {
  const std::string in = desc.GetAttr<std::string>("Input_dtype", "float32");
  return in != "int8" && in != "uint8" && desc.Type() == "conv2d" &&
         NchwInputConvFits(desc, dims);
}

}  // namespace x86
}  // namespace kernels
}  // namespace lite

namespace {
// The int8 form, NCHW attributes, an activation oneDNN can fuse.
bool ConvInt8Accepts(const lite::cpp::OpDesc& desc) {
  return desc.GetAttr<bool>("enable_int8", false) && lite::x86::FusedActivationExpressible(desc) &&
         desc.GetAttr<std::string>("data_format", "NCHW") != "NHWC";
}
// Whether the int8 conv's `attr` (Input_dtype / Output_dtype) names levels.
bool HoldsLevels(const lite::cpp::OpDesc& desc, const char* attr) {
  const std::string t = desc.GetAttr<std::string>(attr, "float32");
  return t == "int8" || t == "uint8";
}
// The int8 form with Input / Output as levels exactly when asked: the
// accept function of each of the four bindings.
template <bool kInLevels, bool kOutLevels>
bool Int8FormAccepts(const lite::cpp::OpDesc& desc) {
  return ConvInt8Accepts(desc) && HoldsLevels(desc, "Input_dtype") == kInLevels &&
         HoldsLevels(desc, "Output_dtype") == kOutLevels;
}
}  // namespace

// One kernel, four bindings: Input and Output float32 ("def") or int8
// levels (int8_requantize_pass sets Input_dtype / Output_dtype).
#define LITE_REGISTER_X86_INT8_CONV(op, alias, in_p, out_p, in_levels, out_levels)           \
  REGISTER_LITE_KERNEL(op, kX86, kInt8, kNHWC, lite::kernels::x86::ConvInt8Compute, alias)   \
      .BindInput("Input", lite::Place(TARGET(kX86), PRECISION(in_p), DATALAYOUT(kNHWC)))    \
      .BindInput("Bias", lite::Place(TARGET(kX86), PRECISION(kFloat), DATALAYOUT(kNHWC)))   \
      .BindInput("ResidualData",                                                             \
                 lite::Place(TARGET(kX86), PRECISION(kFloat), DATALAYOUT(kNHWC)))            \
      .BindOutput("Output", lite::Place(TARGET(kX86), PRECISION(out_p), DATALAYOUT(kNHWC))) \
      .SetAccepts(Int8FormAccepts<(in_levels), (out_levels)>)                                 \
      .SetAcceptsDims([](const lite::cpp::OpDesc& desc, const lite::VarDimsFn& dims) {       \
        return !lite::kernels::x86::Int8NchwInputFits(desc, dims);                           \
      })                                                                                     \
      .Finalize()

// The first conv's bindings: float Input in NCHW, Output float or levels.
#define LITE_REGISTER_X86_INT8_NCHW_INPUT_CONV(alias, out_p, out_levels)                       \
  REGISTER_LITE_KERNEL(conv2d, kX86, kInt8, kNHWC, lite::kernels::x86::ConvInt8NchwInputCompute, \
                       alias)                                                                  \
      .BindInput("Input", lite::Place(TARGET(kX86), PRECISION(kFloat), DATALAYOUT(kNCHW)))      \
      .BindInput("Bias", lite::Place(TARGET(kX86), PRECISION(kFloat), DATALAYOUT(kNHWC)))       \
      .BindOutput("Output", lite::Place(TARGET(kX86), PRECISION(out_p), DATALAYOUT(kNHWC)))     \
      .SetAccepts([](const lite::cpp::OpDesc& desc) {                                            \
        return ConvInt8Accepts(desc) && HoldsLevels(desc, "Output_dtype") == (out_levels);       \
      })                                                                                         \
      .SetAcceptsDims(lite::kernels::x86::Int8NchwInputFits)                                     \
      .Finalize()

namespace {
// conv2d_resize_add runs on the 1x1 kernel: a 1x1 filter, stride 1, no
// padding, one group, and a build and CPU with the kernel's AVX512-VNNI
// code (else conv_resize_add_fuse_pass declines: a portable build or an
// older CPU keeps the ops unfused).
bool ResizeAddAccepts(const lite::cpp::OpDesc& desc, const lite::VarDimsFn& dims) {
  if (!lite::x86::PointwiseInt8::Available()) return false;
  if (!desc.HasInput("Filter") || desc.Input("Filter").size() != 1) return false;
  const lite::DDim f = dims(desc.Input("Filter")[0]);
  bool unit = f.size() == 4 && f[2] == 1 && f[3] == 1 &&
              desc.GetAttr<int32_t>("groups", 1) == 1 &&
              desc.GetAttr<std::string>("padding_algorithm", "EXPLICIT") != "SAME";
  for (int v : desc.GetAttr<std::vector<int>>("strides", {1, 1})) unit = unit && v == 1;
  for (int v : desc.GetAttr<std::vector<int>>("paddings", {0, 0})) unit = unit && v == 0;
  return unit;
}
}  // namespace

// conv2d_resize_add (conv_resize_add_op.h): the int8 conv's four bindings
// plus the float Addend and ConvScale.
#define LITE_REGISTER_X86_INT8_RESIZE_ADD(alias, in_p, out_p, in_levels, out_levels)          \
  REGISTER_LITE_KERNEL(conv2d_resize_add, kX86, kInt8, kNHWC,                                \
                       lite::kernels::x86::ConvInt8Compute, alias)                           \
      .BindInput("Input", lite::Place(TARGET(kX86), PRECISION(in_p), DATALAYOUT(kNHWC)))    \
      .BindInput("Bias", lite::Place(TARGET(kX86), PRECISION(kFloat), DATALAYOUT(kNHWC)))   \
      .BindInput("Addend", lite::Place(TARGET(kX86), PRECISION(kFloat), DATALAYOUT(kNHWC))) \
      .BindInput("ConvScale",                                                                \
                 lite::Place(TARGET(kX86), PRECISION(kFloat), DATALAYOUT(kNHWC)))            \
      .BindOutput("Output", lite::Place(TARGET(kX86), PRECISION(out_p), DATALAYOUT(kNHWC))) \
      .SetAccepts(Int8FormAccepts<(in_levels), (out_levels)>)                                 \
      .SetAcceptsDims(ResizeAddAccepts)                                                      \
      .Finalize()

LITE_REGISTER_X86_INT8_RESIZE_ADD(def, kFloat, kFloat, false, false);
LITE_REGISTER_X86_INT8_RESIZE_ADD(levels_in, kInt8, kFloat, true, false);
LITE_REGISTER_X86_INT8_RESIZE_ADD(levels_out, kFloat, kInt8, false, true);
LITE_REGISTER_X86_INT8_RESIZE_ADD(levels_in_out, kInt8, kInt8, true, true);
LITE_REGISTER_X86_INT8_CONV(conv2d, def, kFloat, kFloat, false, false);
LITE_REGISTER_X86_INT8_CONV(conv2d, levels_in, kInt8, kFloat, true, false);
LITE_REGISTER_X86_INT8_CONV(conv2d, levels_out, kFloat, kInt8, false, true);
LITE_REGISTER_X86_INT8_CONV(conv2d, levels_in_out, kInt8, kInt8, true, true);
LITE_REGISTER_X86_INT8_CONV(depthwise_conv2d, def, kFloat, kFloat, false, false);
LITE_REGISTER_X86_INT8_CONV(depthwise_conv2d, levels_in, kInt8, kFloat, true, false);
LITE_REGISTER_X86_INT8_CONV(depthwise_conv2d, levels_out, kFloat, kInt8, false, true);
LITE_REGISTER_X86_INT8_CONV(depthwise_conv2d, levels_in_out, kInt8, kInt8, true, true);
LITE_REGISTER_X86_INT8_NCHW_INPUT_CONV(nchw_input, kFloat, false);
LITE_REGISTER_X86_INT8_NCHW_INPUT_CONV(nchw_input_levels_out, kInt8, true);
