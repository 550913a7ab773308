// one_hot_v2: Out = X's dims + [depth], Out[..., X[...]] = 1, zeros
// elsewhere; X int32 or int64. `dtype` (Paddle VarType code, default 5:
// float32) picks Out's type. An index outside [0, depth) is an error, or
// an all-zero row with allow_out_of_range. The depth_tensor input is refused.
#pragma once

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct OneHotParam : OpParam {
  const Tensor* x = nullptr;
  Tensor* out = nullptr;
  int64_t depth = 0;
  DataType dtype = DataType::kFloat32;
  bool allow_out_of_range = false;
};

class OneHotOp : public OpLite {
 public:
  using OpLite::OpLite;
  Status CheckShape() const override;
  Status InferShape() override;
  OpParam* param() override { return &param_; }

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  OneHotParam param_;
};

}  // namespace operators
}  // namespace lite
