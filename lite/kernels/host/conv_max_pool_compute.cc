// Host conv2d_max_pool (lite/operators/conv_max_pool_op.h): the host conv2d
// and pool2d kernels, bound to the op's own conv and pool params and run one
// after the other through its intermediate var. The fused op exists for
// kernels that pool conv rows in cache (x86); here it computes exactly what
// the two ops did.
#include <memory>

#include "lite/core/kernel.h"
#include "lite/operators/conv_max_pool_op.h"

namespace lite {
namespace kernels {
namespace host {

namespace {

StatusOr<std::unique_ptr<KernelBase>> HostKernel(const std::string& key, OpParam* param,
                                                 KernelContext* ctx) {
  const KernelDef* def = KernelRegistry::Global().FindByKey(key);
  if (!def) return NotFound("conv2d_max_pool (host) needs kernel " + key + ", not registered");
  std::unique_ptr<KernelBase> k = def->factory();
  k->Bind(def, param, ctx);
  RETURN_IF_ERROR(k->Init());
  RETURN_IF_ERROR(k->Prepare());
  return k;
}

class ConvMaxPoolCompute : public KernelBase {
 public:
  Status Prepare() override {
    const auto& p = Param<operators::ConvMaxPoolParam>();
    ASSIGN_OR_RETURN(conv_, HostKernel("conv2d/def/host/float/NCHW", p.conv, ctx()));
    ASSIGN_OR_RETURN(pool_, HostKernel("pool2d/def/host/float/NCHW", p.pool, ctx()));
    return Status::OK();
  }

  Status Run() override {
    RETURN_IF_ERROR(conv_->Run());
    return pool_->Run();
  }

 private:
  std::unique_ptr<KernelBase> conv_, pool_;
};

}  // namespace
}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(conv2d_max_pool, kHost, kFloat, kNCHW,
                     lite::kernels::host::ConvMaxPoolCompute, def)
    .Finalize();
