// x86 concat on oneDNN's concat primitive (float inputs of equal rank, a
// static axis; an AxisTensor input declines at kernel pick). Inputs with no
// elements are left out, as Paddle does. Primitive re-created when any
// input's dims change.
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
      if (x->dtype() != DataType::kFloat32) return fallback_.Run(*this);
      if (x->numel() > 0) dims.push_back(x->dims());
    }
    if (dims.empty()) return fallback_.Run(*this);
    using lite::x86::PlainDesc;
    if (dims != dims_) {
      const int rank = static_cast<int>(p.out->dims().size());
      const int axis = p.axis < 0 ? p.axis + rank : p.axis;
      std::vector<dnnl::memory::desc> mds;
      for (const DDim& d : dims) mds.push_back(PlainDesc(d));
      concat_ = dnnl::concat(dnnl::concat::primitive_desc(PlainDesc(p.out->dims()), axis, mds,
                                                          lite::x86::CpuEngine()));
      dims_ = dims;
    }
    std::unordered_map<int, dnnl::memory> args;
    int i = 0;
    for (const Tensor* x : p.xs) {
      if (x->numel() == 0) continue;
      args[DNNL_ARG_MULTIPLE_SRC + i] = lite::x86::WrapMemory(PlainDesc(x->dims()), x->raw_data());
      ++i;
    }
    args[DNNL_ARG_DST] =
        lite::x86::WrapMemory(PlainDesc(p.out->dims()), p.out->mutable_data<float>());
    concat_.execute(stream(), args);
    return Status::OK();
  }

 private:
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

REGISTER_LITE_KERNEL(concat, kX86, kFloat, kNCHW, lite::kernels::x86::ConcatCompute, def)
    .SetAccepts(lite::kernels::x86::ConcatAccepts)
    .Finalize();
