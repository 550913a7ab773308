// Host fp32 kernel for every op of the unary table (unary_ops.h): one class,
// registered once per table row, maps the row's function over X (split over
// the kernel's threads for large tensors).
#include <memory>

#include "lite/core/kernel.h"
#include "lite/operators/unary_ops.h"

namespace lite {
namespace kernels {
namespace host {

namespace {

using operators::UnaryParam;

class UnaryCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<UnaryParam>();
    if (p.x->dtype() != DataType::kFloat32) {
      return Unimplemented(std::string(p.def->type) + " on " + DataTypeName(p.x->dtype()) +
                           " input (float32 only)");
    }
    const float* x = p.x->data<float>();
    float* y = p.out->mutable_data<float>();
    const operators::UnaryFn fn = p.def->fn;
    const float* attrs = p.attrs;
    ParallelFor(ctx(), p.x->numel(), p.x->numel() * 8, [=](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) y[i] = fn(x[i], attrs);
    });
    return Status::OK();
  }
};

[[maybe_unused]] const bool registered = [] {
  for (const auto& row : operators::UnaryOpTable()) {
    KernelRegistry::Global().Register(row.type, Place(TargetType::kHost), "def",
                                      [] { return std::make_unique<UnaryCompute>(); });
  }
  return true;
}();

}  // namespace

}  // namespace host
}  // namespace kernels
}  // namespace lite
