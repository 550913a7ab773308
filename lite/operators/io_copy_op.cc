// io_copy: copies a tensor between targets whose memory is not shared. It is
// inserted by type_target_cast_pass, never written in models.
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
