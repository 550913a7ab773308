#include "lite/operators/tensor_array_ops.h"

#include "lite/operators/op_with_param.h"

namespace lite {
namespace operators {

namespace {

// The op types TensorArrayOp serves.
enum class TensorArrayOpKind { kWriteToArray, kReadFromArray, kLodArrayLength };

class TensorArrayOp : public OpWithParam<TensorArrayParam> {
 public:
  TensorArrayOp(std::string type, TensorArrayOpKind kind)
      : OpWithParam<TensorArrayParam>(std::move(type)), kind_(kind) {}
  Status CheckShape() const override { return Status::OK(); }
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  const TensorArrayOpKind kind_;
};

}  // namespace

Status TensorArrayOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  const bool writes = kind_ == TensorArrayOpKind::kWriteToArray;
  const std::string array_param = writes ? "Out" : "X";
  const auto& names = writes ? desc.Output("Out") : desc.Input("X");
  if (names.size() != 1) return OpError("'" + array_param + "' must name one tensor array");
  param_.array = writes ? scope->Var(names[0]) : scope->FindVar(names[0]);
  if (!param_.array) {
    return OpError("tensor array '" + names[0] + "' (input X) is not in the scope");
  }
  if (writes) {
    ASSIGN_OR_RETURN(Tensor * x, Input("X"));
    param_.x = x;
  }
  if (kind_ != TensorArrayOpKind::kLodArrayLength) {
    ASSIGN_OR_RETURN(Tensor * index, Input("I"));
    param_.index = index;
  }
  if (!writes) {
    ASSIGN_OR_RETURN(param_.out, Output("Out"));
  }
  return Status::OK();
}

Status TensorArrayOp::InferShape() {
  // read_from_array: the element's dims are known when the kernel runs.
  if (kind_ == TensorArrayOpKind::kLodArrayLength) {
    param_.out->Resize({1});
    param_.out->set_dtype(DataType::kInt64);
  }
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP_KIND(write_to_array, lite::operators::TensorArrayOp,
                      lite::operators::TensorArrayOpKind::kWriteToArray);
REGISTER_LITE_OP_KIND(read_from_array, lite::operators::TensorArrayOp,
                      lite::operators::TensorArrayOpKind::kReadFromArray);
REGISTER_LITE_OP_KIND(lod_array_length, lite::operators::TensorArrayOp,
                      lite::operators::TensorArrayOpKind::kLodArrayLength);
