#include "lite/operators/conv_resize_add_op.h"

namespace lite {
namespace operators {

namespace {

class ConvResizeAddOp : public ConvOp {
 public:
  using ConvOp::ConvOp;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

}  // namespace

Status ConvResizeAddOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  RETURN_IF_ERROR(ConvOp::AttachImpl(desc, scope));
  ConvParam* p = mutable_conv_param();
  ASSIGN_OR_RETURN(p->addend, Input("Addend"));
  p->conv_scale = OptionalInput("ConvScale");
  if (p->residual || p->act.enabled() || p->has_post_affine()) {
    return OpError("takes no ResidualData, fused activation or fuse_post_* map");
  }
  return Status::OK();
}

Status ConvResizeAddOp::InferShape() {
  RETURN_IF_ERROR(ConvOp::InferShape());
  ConvParam* p = mutable_conv_param();
  const DDim& out = p->output->dims();
  const DDim& a = p->addend->dims();
  if (p->addend->dtype() != DataType::kFloat32 || a.size() != 4 || a[0] != out[0] ||
      a[1] != out[1] || a[2] <= 0 || a[3] <= 0 || out[2] % a[2] != 0 || out[3] % a[3] != 0) {
    return OpError("input Addend must be float32 [N, C_out, H / fh, W / fw] with integer "
                   "factors of Output " + DimsToString(out) + ", got " +
                   DataTypeName(p->addend->dtype()) + " " + DimsToString(a));
  }
  p->addend_factor_h = out[2] / a[2];
  p->addend_factor_w = out[3] / a[3];
  if (p->conv_scale) {
    const int64_t n = p->conv_scale->numel();
    if (p->conv_scale->dtype() != DataType::kFloat32 || (n != out[1] && n != out[0] * out[1])) {
      return OpError("input ConvScale must hold C_out or N * C_out float32 values for Output " +
                     DimsToString(out) + ", got " + DataTypeName(p->conv_scale->dtype()) + " " +
                     DimsToString(p->conv_scale->dims()));
    }
  }
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(conv2d_resize_add, lite::operators::ConvResizeAddOp);
