// x86 conv2d_concat (lite/operators/conv_concat_op.h): one x86 conv kernel
// (ConvCompute) per conv, each writing its channel slice of the concat's
// NHWC output in place (ConvCompute::WriteIntoChannelsOf), so the convs'
// own outputs are never allocated and nothing is copied. Taken when the x86
// conv kernel takes every conv of the op.
#include <memory>
#include <vector>

#include "lite/kernels/x86/conv_compute.h"
#include "lite/operators/conv_concat_op.h"

namespace lite {
namespace kernels {
namespace x86 {

namespace {

class ConvConcatCompute : public KernelBase {
 public:
  Status Prepare() override {
    const auto& p = Param<operators::ConvConcatParam>();
    const char* key = "conv2d/def/x86/float/NHWC";
    const KernelDef* def = KernelRegistry::Global().FindByKey(key);
    if (!def) return NotFound(std::string("conv2d_concat (x86) needs kernel ") + key);
    convs_.clear();
    int64_t offset = 0;
    for (operators::ConvParam* conv : p.convs) {
      auto k = std::make_unique<ConvCompute>();
      k->Bind(def, conv, ctx());
      k->WriteIntoChannelsOf(p.concat->out, offset);
      RETURN_IF_ERROR(k->Init());
      RETURN_IF_ERROR(k->Prepare());
      offset += conv->filter->dims()[0];
      convs_.push_back(std::move(k));
    }
    return Status::OK();
  }

  Status Run() override {
    for (auto& k : convs_) RETURN_IF_ERROR(k->Run());
    return Status::OK();
  }

 private:
  std::vector<std::unique_ptr<ConvCompute>> convs_;
};

bool TakesEveryConv(const cpp::OpDesc& desc, const VarDimsFn& dims) {
  const int n = operators::ConvConcatCount(desc);
  for (int i = 0; i < n; ++i) {
    if (!ConvComputeTakes(operators::ConvConcatPart(desc, i), dims)) return false;
  }
  return n > 0;
}

}  // namespace
}  // namespace x86
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(conv2d_concat, kX86, kFloat, kNHWC, lite::kernels::x86::ConvConcatCompute,
                     def)
    .SetAcceptsDims(lite::kernels::x86::TakesEveryConv)
    .Finalize();
