// Host kernels for shape (dims -> int32), fill_constant and
// fill_constant_batch_size_like (any dtype) and assign (byte copy).
#include "lite/core/kernel.h"
#include "lite/kernels/host/fill_util.h"
#include "lite/operators/shape_ops.h"
#include "lite/operators/tensor_util.h"

namespace lite {
namespace kernels {
namespace host {

class ShapeCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::ShapeParam>();
    const DDim& d = p.x->dims();
    p.out->Resize({static_cast<int64_t>(d.size())});
    int32_t* o = p.out->mutable_data<int32_t>();
    for (size_t i = 0; i < d.size(); ++i) o[i] = static_cast<int32_t>(d[i]);
    return Status::OK();
  }
};

class FillConstantCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::FillConstantParam>();
    ASSIGN_OR_RETURN(DDim dims, operators::ComputeFillConstantDims(p));
    p.out->Resize(dims);
    double d = p.value;
    int64_t i = p.int_value;
    bool exact = p.has_int_value;
    if (p.value_tensor) {
      const Tensor& v = *p.value_tensor;
      if (v.numel() < 1 || !v.raw_data()) {
        return InvalidArgument("ValueTensor holds no value");
      }
      exact = v.dtype() == DataType::kInt64 || v.dtype() == DataType::kInt32;
      if (exact) {
        ASSIGN_OR_RETURN(auto iv, operators::ReadIntTensor(v, "ValueTensor"));
        i = iv[0];
        d = static_cast<double>(i);
      } else if (v.dtype() == DataType::kFloat64) {
        d = v.data<double>()[0];
      } else if (v.dtype() == DataType::kBool) {
        d = v.data<bool>()[0] ? 1.0 : 0.0;
      } else {
        ASSIGN_OR_RETURN(auto fv, operators::ReadFloatTensor(v, "ValueTensor"));
        d = fv[0];
      }
    }
    return FillAs(p.out, p.dtype, d, i, exact);
  }
};

class AssignCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::AssignParam>();
    p.out->Resize(p.x->dims());
    p.out->set_lod(p.x->lod());
    return operators::CopyTensorBytes(*p.x, p.out);
  }
};

}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(shape, kHost, kAny, kNCHW, lite::kernels::host::ShapeCompute, def)
    .BindOutput("Out", lite::Place(TARGET(kHost), PRECISION(kInt32)))
    .Finalize();
REGISTER_LITE_KERNEL(fill_constant, kHost, kAny, kNCHW,
                     lite::kernels::host::FillConstantCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(fill_constant_batch_size_like, kHost, kAny, kNCHW,
                     lite::kernels::host::FillConstantCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(assign, kHost, kAny, kNCHW, lite::kernels::host::AssignCompute, def)
    .Finalize();
