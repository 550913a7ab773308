#include "lite/operators/channel_layer_norm_op.h"

#include <string>
#include <utility>

#include "lite/operators/op_with_param.h"

namespace lite {
namespace operators {

namespace {

class ChannelLayerNormOp : public OpWithParam<ChannelLayerNormParam> {
 public:
  using OpWithParam::OpWithParam;

  Status CheckShape() const override {
    const DDim& d = param_.x->dims();
    if (d.size() != 4) {
      return OpError("input X must be rank 4 (NCHW), got dims " + DimsToString(d));
    }
    for (const auto& [name, t] : {std::pair<const char*, const Tensor*>{"Scale", param_.scale},
                                  {"Bias", param_.bias}}) {
      if (t && t->numel() != d[1]) {
        return OpError(std::string("input ") + name + " must hold " + std::to_string(d[1]) +
                       " values (the channels of X), got dims " + DimsToString(t->dims()));
      }
    }
    return Status::OK();
  }

  Status InferShape() override {
    RETURN_IF_ERROR(CheckShape());
    param_.y->Resize(param_.x->dims());
    return Status::OK();
  }

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override {
    ASSIGN_OR_RETURN(Tensor * x, Input("X"));
    param_.x = x;
    param_.scale = OptionalInput("Scale");
    param_.bias = OptionalInput("Bias");
    ASSIGN_OR_RETURN(param_.y, Output("Y"));
    param_.epsilon = desc.GetAttr<float>("epsilon", 1e-5f);
    if (!(param_.epsilon >= 0.f)) {
      return OpError("attribute epsilon must be >= 0, got " + std::to_string(param_.epsilon));
    }
    return Status::OK();
  }
};

}  // namespace

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(channel_layer_norm, lite::operators::ChannelLayerNormOp);
