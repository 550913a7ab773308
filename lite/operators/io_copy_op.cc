// io_copy and layout: ops inserted by passes, never written in models, whose
// output has the input's dims and LoD.
//   io_copy copies a tensor between targets whose memory is not shared
//   (type_target_cast_pass);
//   layout rewrites a tensor's element order between NCHW and NHWC (dims stay
//   the logical NCHW dims; only rank-4 tensors change order, others are
//   copied) where an x86 NHWC kernel and an NCHW kernel meet
//   (layout_cast_pass); the direction is the kernel's alias.
#include "lite/operators/io_ops.h"

namespace lite {
namespace operators {

class IoCopyOp : public OpLite {
 public:
  using OpLite::OpLite;
  Status CheckShape() const override { return Status::OK(); }
  Status InferShape() override {
    param_.out->Resize(param_.x->dims());
    param_.out->set_lod(param_.x->lod());
    return Status::OK();
  }
  OpParam* param() override { return &param_; }

 protected:
  Status AttachImpl(const cpp::OpDesc&, Scope*) override {
    ASSIGN_OR_RETURN(Tensor * x, Input("Input"));
    param_.x = x;
    ASSIGN_OR_RETURN(param_.out, Output("Out"));
    return Status::OK();
  }

 private:
  IoCopyParam param_;
};

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(io_copy, lite::operators::IoCopyOp);
REGISTER_LITE_OP(layout, lite::operators::IoCopyOp);
