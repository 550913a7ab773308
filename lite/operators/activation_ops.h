// Unary activation ops (relu, tanh, sigmoid, ...): Out = f(X), same shape.
//
// One op class serves every activation type; its param carries the op type
// and the attributes some activations take (alpha, threshold, slope, offset).
#pragma once

#include <string>

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct ActivationParam : OpParam {
  const Tensor* x = nullptr;
  Tensor* out = nullptr;
  std::string act_type;  // the op type: "relu", "leaky_relu", ...
  float alpha = 0.02f;        // leaky_relu
  float threshold = 6.0f;     // relu6, hard_swish
  float scale = 6.0f;         // hard_swish
  float offset = 3.0f;        // hard_swish
  float slope = 0.2f;         // hard_sigmoid
  float hs_offset = 0.5f;     // hard_sigmoid
  float beta = 1.0f;          // swish
  bool approximate = false;   // gelu
};

class ActivationOp : public OpLite {
 public:
  using OpLite::OpLite;
  Status CheckShape() const override;
  Status InferShape() override;
  OpParam* param() override { return &param_; }

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  ActivationParam param_;
};

}  // namespace operators
}  // namespace lite
