// x86 concat (float inputs of equal rank, a static axis; an AxisTensor input
// declines at kernel pick). Registered at layout NHWC. Channel concats of
// rank-4 NHWC inputs, and inputs a fusion upscales (ConcatParam::upscale),
// are one NHWC loop writing each output pixel's channels once: oneDNN's
// concat copied them with a memcpy call per pixel and input (squeezenet's
// eight fire concats: 0.44 -> 0.26 ms). Other axes and layouts use oneDNN's
// concat primitive, re-created when any input's dims change; inputs with no
// elements are left out, as Paddle does.
#include "lite/kernels/x86/dnnl_kernel.h"
#include "lite/kernels/x86/host_fallback.h"
#include "lite/operators/concat_split_ops.h"

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
      p.out->mutable_data<float>();
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
    AddArg(DNNL_ARG_DST, Mem(DNNL_ARG_DST, Desc(*p.out), p.out->mutable_data<float>()));
    Execute(concat_);
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
    float* out = p.out->mutable_data<float>();
    std::vector<const float*> src;
    for (const Tensor* x : p.xs) src.push_back(x->data<float>());
#pragma omp parallel for num_threads(threads()) if (threads() > 1)
    for (int64_t r = 0; r < rows; ++r) {
      const int64_t n = r / od[2], y = r % od[2];
      float* o = out + r * ow * oc;
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
    }
    return Status::OK();
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

}  // namespace
}  // namespace x86
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(concat, kX86, kFloat, kNHWC, lite::kernels::x86::ConcatCompute, def)
    .SetAccepts(lite::kernels::x86::ConcatAccepts)
    .Finalize();
