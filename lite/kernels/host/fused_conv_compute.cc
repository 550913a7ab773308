// Host kernels of the fused conv ops that exist for device kernels:
// conv2d_max_pool (lite/operators/conv_max_pool_op.h; x86 pools conv rows in
// cache), conv2d_concat (conv_concat_op.h; x86 writes each conv into its
// slice of the concat) and conv2d_transpose_pair (conv_transpose_pair_op.h;
// x86 runs the second transpose on bands of the first's output). Here they
// run the host kernels of the ops they hold,
// bound to the fused op's own params, through its intermediate vars, so
// they compute exactly what the separate ops did.
#include <memory>
#include <vector>

#include "lite/core/kernel.h"
#include "lite/operators/conv_concat_op.h"
#include "lite/operators/conv_max_pool_op.h"
#include "lite/operators/conv_transpose_pair_op.h"

namespace lite {
namespace kernels {
namespace host {

namespace {

StatusOr<std::unique_ptr<KernelBase>> HostKernel(const std::string& key, OpParam* param,
                                                 KernelContext* ctx) {
  const KernelDef* def = KernelRegistry::Global().FindByKey(key);
  if (!def) return NotFound("a fused conv op (host) needs kernel " + key + ", not registered");
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

class ConvConcatCompute : public KernelBase {
 public:
  Status Prepare() override {
    const auto& p = Param<operators::ConvConcatParam>();
    convs_.clear();
    for (operators::ConvParam* conv : p.convs) {
      ASSIGN_OR_RETURN(auto k, HostKernel("conv2d/def/host/float/NCHW", conv, ctx()));
      convs_.push_back(std::move(k));
    }
    ASSIGN_OR_RETURN(concat_, HostKernel("concat/def/host/any/NCHW", p.concat, ctx()));
    return Status::OK();
  }

  Status Run() override {
    for (auto& k : convs_) RETURN_IF_ERROR(k->Run());
    return concat_->Run();
  }

 private:
  std::vector<std::unique_ptr<KernelBase>> convs_;
  std::unique_ptr<KernelBase> concat_;
};

class ConvTransposePairCompute : public KernelBase {
 public:
  Status Prepare() override {
    const auto& p = Param<operators::ConvTransposePairParam>();
    ASSIGN_OR_RETURN(first_, HostKernel("conv2d_transpose/def/host/float/NCHW", p.first, ctx()));
    ASSIGN_OR_RETURN(second_,
                     HostKernel("conv2d_transpose/def/host/float/NCHW", p.second, ctx()));
    return Status::OK();
  }

  Status Run() override {
    RETURN_IF_ERROR(first_->Run());
    return second_->Run();
  }

 private:
  std::unique_ptr<KernelBase> first_, second_;
};

}  // namespace
}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(conv2d_max_pool, kHost, kFloat, kNCHW,
                     lite::kernels::host::ConvMaxPoolCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(conv2d_concat, kHost, kFloat, kNCHW, lite::kernels::host::ConvConcatCompute,
                     def)
    .Finalize();
REGISTER_LITE_KERNEL(conv2d_transpose_pair, kHost, kFloat, kNCHW,
                     lite::kernels::host::ConvTransposePairCompute, def)
    .Finalize();
