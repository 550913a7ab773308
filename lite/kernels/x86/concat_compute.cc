// x86 concat (float inputs of equal rank, a static axis; an AxisTensor input
// declines at kernel pick). Registered at layout NHWC. Channel concats of
// rank-4 NHWC inputs, and inputs a fusion upscales (ConcatParam::upscale),
// are one NHWC loop writing each output pixel's channels once: oneDNN's
// concat copied them with a memcpy call per pixel and input (squeezenet's
// eight fire concats: 0.44 -> 0.26 ms). Other axes and layouts use oneDNN's
// concat primitive, re-created when any input's dims change; inputs with no
// elements are left out, as Paddle does.
// With ConcatParam::levels (int8_requantize_pass, registered as kInt8
// "levels_out") the float inputs are quantized as they are joined: each
// output row of the NHWC loop is gathered in float and quantized into Out
// (operators/quant_math.h: the very levels the int8 readers would compute);
// the oneDNN path concatenates into a temporary first.
#include <vector>

#include "lite/kernels/x86/dnnl_kernel.h"
#include "lite/kernels/x86/host_fallback.h"
#include "lite/operators/concat_split_ops.h"
#include "lite/operators/quant_math.h"

namespace lite {
namespace kernels {
namespace x86 {

namespace {

class ConcatCompute : public DnnlKernel {
 protected:
  Status RunDnnl() override {
    const auto& p = Param<operators::ConcatParam>();
    std::vector<DDim> dims;
    for (const Tensor* x : p.xs) {
      if (x->dtype() != DataType::kFloat32) {
        if (Desc(*x) != lite::x86::PlainDesc(x->dims())) {
          return Unimplemented("x86 concat of a rank-4 " + std::string(DataTypeName(x->dtype())) +
                               " tensor");
        }
        return fallback_.Run(*this);
      }
      if (x->numel() > 0) dims.push_back(x->dims());
    }
    if (dims.empty()) {
      if (p.levels.enabled) {
        p.out->mutable_data<int8_t>();
      } else {
        p.out->mutable_data<float>();
      }
      return Status::OK();
    }
    if (!p.upscale.empty() || ChannelsOfNhwc(p)) return RunNhwcChannels(p);
    if (dims != dims_) {
      const int rank = static_cast<int>(p.out->dims().size());
      const int axis = p.axis < 0 ? p.axis + rank : p.axis;
      std::vector<dnnl::memory::desc> mds;
      for (const Tensor* x : p.xs) {
        if (x->numel() > 0) mds.push_back(Desc(*x));
      }
      concat_ = dnnl::concat(dnnl::concat::primitive_desc(Desc(*p.out), axis, mds,
                                                          lite::x86::CpuEngine()));
      dims_ = dims;
    }
    int i = 0;
    for (const Tensor* x : p.xs) {
      if (x->numel() == 0) continue;
      AddArg(DNNL_ARG_MULTIPLE_SRC + i, Mem(DNNL_ARG_MULTIPLE_SRC + i, Desc(*x), x->raw_data()));
      ++i;
    }
    if (!p.levels.enabled) {
      AddArg(DNNL_ARG_DST, Mem(DNNL_ARG_DST, Desc(*p.out), p.out->mutable_data<float>()));
      Execute(concat_);
      return Status::OK();
    }
    const dnnl::memory::desc float_out = Desc(*p.out);  // Out's dtype is int8 here
    dnnl::memory joined = Temp(float_out);
    AddArg(DNNL_ARG_DST, joined);
    Execute(concat_);
    operators::quant::QuantizeToInt8(static_cast<const float*>(joined.get_data_handle()),
                                     p.out->mutable_data<int8_t>(), p.out->numel(),
                                     p.levels.scale, 127, p.levels.round_type);
    return Status::OK();
  }

 private:
  // A channel concat on NHWC, its inputs maybe nearest-upscaled into it
  // (concat_upscale_fuse_pass): each output pixel's channels are the inputs'
  // source pixels' channels one after another, written once.
  Status RunNhwcChannels(const operators::ConcatParam& p) {
    int axis = 0;
    ASSIGN_OR_RETURN(DDim od, operators::ComputeConcatDims(p, &axis));
    p.out->Resize(od);
    for (const Tensor* x : p.xs) {
      if (Desc(*x) != lite::x86::NhwcDesc(x->dims())) {
        return Unimplemented("x86 concat with input_upscale of a weight or non-rank-4 input " +
                             DimsToString(x->dims()));
      }
    }
    const int64_t rows = od[0] * od[2], ow = od[3], oc = od[1];
    const bool levels = p.levels.enabled;
    float* out = levels ? nullptr : p.out->mutable_data<float>();
    int8_t* out_levels = levels ? p.out->mutable_data<int8_t>() : nullptr;
    std::vector<const float*> src;
    for (const Tensor* x : p.xs) src.push_back(x->data<float>());
#pragma omp parallel for num_threads(threads()) if (threads() > 1)
    for (int64_t r = 0; r < rows; ++r) {
      const int64_t n = r / od[2], y = r % od[2];
      float* o = levels ? RowBuffer(ow * oc) : out + r * ow * oc;
      float* const row = o;
      for (int64_t xo = 0; xo < ow; ++xo) {
        for (size_t i = 0; i < p.xs.size(); ++i) {
          const DDim& d = p.xs[i]->dims();
          const int64_t f = p.upscale.empty() ? 1 : p.upscale[i], c = d[1];
          const float* s = src[i] + ((n * d[2] + y / f) * d[3] + xo / f) * c;
#pragma omp simd
          for (int64_t k = 0; k < c; ++k) o[k] = s[k];
          o += c;
        }
      }
      if (levels) {
        operators::quant::QuantizeToInt8(row, out_levels + r * ow * oc, ow * oc, p.levels.scale,
                                         127, p.levels.round_type);
      }
    }
    return Status::OK();
  }

  // One output row in float on this thread, before it is quantized.
  static float* RowBuffer(int64_t n) {
    thread_local std::vector<float> buffer;
    if (static_cast<int64_t>(buffer.size()) < n) buffer.resize(n);
    return buffer.data();
  }

  // A channel concat of rank-4 NHWC inputs.
  bool ChannelsOfNhwc(const operators::ConcatParam& p) const {
    const int rank = static_cast<int>(p.out->dims().size());
    if (rank != 4 || (p.axis != 1 && p.axis != 1 - rank)) return false;
    for (const Tensor* x : p.xs) {
      if (Desc(*x) != lite::x86::NhwcDesc(x->dims())) return false;
    }
    return true;
  }

  std::vector<DDim> dims_;
  dnnl::concat concat_;
  HostFallback fallback_;
};

bool ConcatAccepts(const cpp::OpDesc& desc) {
  return !desc.HasInput("AxisTensor");
}

// int8_requantize_pass's form: float inputs, Out int8 levels.
bool ConcatLevelsAccepts(const cpp::OpDesc& desc) {
  return ConcatAccepts(desc) && desc.GetAttr<bool>("enable_int8", false) &&
         desc.GetAttr<std::string>("Output_dtype", "float32") == "int8";
}

}  // namespace
}  // namespace x86
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(concat, kX86, kFloat, kNHWC, lite::kernels::x86::ConcatCompute, def)
    .SetAccepts(lite::kernels::x86::ConcatAccepts)
    .Finalize();
REGISTER_LITE_KERNEL(concat, kX86, kInt8, kNHWC, lite::kernels::x86::ConcatCompute, levels_out)
    .BindInput("X", lite::Place(TARGET(kX86), PRECISION(kFloat), DATALAYOUT(kNHWC)))
    .BindOutput("Out", lite::Place(TARGET(kX86), PRECISION(kInt8), DATALAYOUT(kNHWC)))
    .SetAccepts(lite::kernels::x86::ConcatLevelsAccepts)
    .Finalize();
