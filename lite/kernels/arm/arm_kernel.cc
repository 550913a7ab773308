#include "lite/kernels/arm/arm_kernel.h"

#include <cstdint>

namespace lite {
namespace kernels {
namespace arm {

void ArmKernel::NoteOperator(const char* call) const {
  static const std::string kCreate = "xnn_create_";
  const std::string c(call);
  if (c.compare(0, kCreate.size(), kCreate) != 0) return;
  const std::string name = c.substr(kCreate.size());
  if (impl_.empty()) {
    impl_ = "xnnpack:" + name;
  } else if (("+" + impl_.substr(8) + "+").find("+" + name + "+") == std::string::npos) {
    impl_ += "+" + name;
  }
}

const Tensor* ArmKernel::NchwInput(const Tensor& t, Tensor* buffer) const {
  if (!Nhwc(t)) return &t;
  const DDim& d = t.dims();
  buffer->Resize(d);
  PermuteNchw(t.data<float>(), buffer->mutable_data<float>(), d[0], d[1], d[2] * d[3], false);
  return buffer;
}

Status ArmKernel::CreateResidualAdd(const lite::arm::Clamp& clamp,
                                    lite::arm::XnnOperator* add) const {
  if (*add) return Status::OK();
  xnn_operator_t op = nullptr;
  RETURN_IF_ERROR(
      Check(xnn_create_add_nd_f32(clamp.lo, clamp.hi, 0, &op), "xnn_create_add_nd_f32"));
  add->reset(op);
  return Status::OK();
}

Status ArmKernel::RunResidualAdd(xnn_operator_t add, const Tensor& residual, const DDim& out,
                                 float* y) const {
  if (residual.dims() != out) {
    return InvalidArgument(What() + ": ResidualData dims " + DimsToString(residual.dims()) +
                           " differ from the output's " + DimsToString(out));
  }
  const size_t shape[4] = {static_cast<size_t>(out[0]), static_cast<size_t>(out[2]),
                           static_cast<size_t>(out[3]), static_cast<size_t>(out[1])};
  RETURN_IF_ERROR(Check(xnn_setup_add_nd_f32(add, 4, shape, 4, shape, y, residual.data<float>(), y,
                                             pool()),
                        "xnn_setup_add_nd_f32"));
  return Check(xnn_run_operator(add, pool()), "xnn_run_operator (residual add)");
}

Status ArmKernel::CheckConstantWeights(const Tensor* w, const Tensor* bias) const {
  if (w->IsInitialized() && (!bias || bias->IsInitialized())) return Status::OK();
  return Unimplemented(What() + " needs constant weights and bias, but this model computes them "
                       "at run time; keep constant_folding_pass enabled or run this op on host");
}

void ArmKernel::StoreNchwOutput(const Tensor& nchw, Tensor* t) const {
  if (&nchw == t) return;
  const DDim& d = nchw.dims();
  t->Resize(d);
  PermuteNchw(nchw.data<float>(), t->mutable_data<float>(), d[0], d[1], d[2] * d[3], true);
}

void PermuteNchw(const void* src, void* dst, int64_t n, int64_t c, int64_t hw, bool to_nhwc) {
  const uint32_t* s = static_cast<const uint32_t*>(src);
  uint32_t* d = static_cast<uint32_t*>(dst);
  for (int64_t i = 0; i < n; ++i) {
    const uint32_t* si = s + i * c * hw;
    uint32_t* di = d + i * c * hw;
    if (to_nhwc) {
      for (int64_t ch = 0; ch < c; ++ch)
        for (int64_t p = 0; p < hw; ++p) di[p * c + ch] = si[ch * hw + p];
    } else {
      for (int64_t p = 0; p < hw; ++p)
        for (int64_t ch = 0; ch < c; ++ch) di[ch * hw + p] = si[p * c + ch];
    }
  }
}

}  // namespace arm
}  // namespace kernels
}  // namespace lite
