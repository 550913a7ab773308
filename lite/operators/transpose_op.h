// transpose and transpose2: Out = X with its dims permuted by attr `axis`
// (Out.dims[i] = X.dims[axis[i]]; negative entries count from the end).
// transpose2 also has an XShape output ([0] + X.dims, no data). Any dtype.
#pragma once

#include <vector>

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct TransposeParam : OpParam {
  const Tensor* x = nullptr;
  Tensor* out = nullptr;
  Tensor* xshape = nullptr;  // optional (transpose2)
  std::vector<int> axis;     // normalized to [0, rank) by CheckShape/InferShape
};

class TransposeOp : public OpLite {
 public:
  using OpLite::OpLite;
  Status CheckShape() const override;
  Status InferShape() override;
  OpParam* param() override { return &param_; }

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  TransposeParam param_;
  std::vector<int> raw_axis_;
};

}  // namespace operators
}  // namespace lite
