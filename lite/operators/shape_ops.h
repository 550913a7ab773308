// shape, fill_constant and assign.
//
// shape: Out (int32, 1-D) = dims of Input; Input's data is not read.
// fill_constant: Out of dtype `dtype` (Paddle VarType code) and shape from
//   ShapeTensor (1-D int) > ShapeTensorList (1-element ints) > attr `shape`,
//   filled with ValueTensor[0] > str_value (when non-empty; "inf", "-inf",
//   "nan" accepted) > attr `value`.
// assign: Out = copy of X (any dtype).
#pragma once

#include <string>
#include <vector>

#include "lite/core/op_lite.h"
#include "lite/operators/op_with_param.h"

namespace lite {
namespace operators {

struct ShapeParam : OpParam {
  const Tensor* x = nullptr;
  Tensor* out = nullptr;
};

struct FillConstantParam : OpParam {
  Tensor* out = nullptr;
  DataType dtype = DataType::kFloat32;
  std::vector<int64_t> shape;
  const Tensor* shape_tensor = nullptr;
  std::vector<const Tensor*> shape_tensor_list;
  const Tensor* value_tensor = nullptr;
  // The attribute value, parsed once: as double, and exactly as int64 when
  // str_value held an integer (int64 outputs keep full precision).
  double value = 0.0;
  int64_t int_value = 0;
  bool has_int_value = false;
};

struct AssignParam : OpParam {
  const Tensor* x = nullptr;
  Tensor* out = nullptr;
};

StatusOr<DDim> ComputeFillConstantDims(const FillConstantParam& p);
// The element type of a Paddle VarType code as the fill ops accept it.
StatusOr<DataType> FillDtype(int code);

// fill_constant_batch_size_like (fill_like_ops.cc) extends it.
class FillConstantOp : public OpWithParam<FillConstantParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

}  // namespace operators
}  // namespace lite
