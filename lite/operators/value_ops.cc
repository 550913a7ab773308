#include "lite/operators/value_ops.h"

#include "lite/operators/op_with_param.h"
#include "lite/operators/shape_ops.h"
#include "lite/operators/tensor_util.h"

namespace lite {
namespace operators {

namespace {

// The op types ValueOp serves.
enum class ValueOpKind { kAssignValue, kLinspace };

class ValueOp : public OpWithParam<ValueParam> {
 public:
  ValueOp(std::string type, ValueOpKind kind)
      : OpWithParam<ValueParam>(std::move(type)), kind_(kind) {}
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  Status AttachAssignValue(const cpp::OpDesc& desc);

 private:
  const ValueOpKind kind_;
};

}  // namespace

Status ValueOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  auto dtype = FillDtype(desc.GetAttr<int32_t>("dtype", 5));
  if (!dtype.ok()) return OpError(dtype.status().message());
  param_.dtype = *dtype;
  if (kind_ == ValueOpKind::kAssignValue) return AttachAssignValue(desc);
  ASSIGN_OR_RETURN(Tensor * start, Input("Start"));
  ASSIGN_OR_RETURN(Tensor * stop, Input("Stop"));
  ASSIGN_OR_RETURN(Tensor * num, Input("Num"));
  param_.start = start;
  param_.stop = stop;
  param_.num = num;
  return Status::OK();
}

Status ValueOp::AttachAssignValue(const cpp::OpDesc& desc) {
  param_.shape = desc.GetAttr<std::vector<int64_t>>("shape", {});
  const char* list = nullptr;
  switch (param_.dtype) {
    case DataType::kBool: list = "bool_values"; break;
    case DataType::kInt32: list = "int32_values"; break;
    case DataType::kInt64: list = "int64_values"; break;
    case DataType::kFloat32: list = "fp32_values"; break;
    case DataType::kFloat64: list = "fp64_values"; break;
    default:
      return OpError(std::string("dtype ") + DataTypeName(param_.dtype) + " is not supported");
  }
  if (param_.dtype == DataType::kFloat32 || param_.dtype == DataType::kFloat64) {
    for (float v : desc.GetAttr<std::vector<float>>(list, {})) param_.values.push_back(v);
  } else {
    param_.int_values = desc.GetAttr<std::vector<int64_t>>(list, {});
  }
  const size_t n = param_.values.size() + param_.int_values.size();
  if (static_cast<int64_t>(n) != Product(param_.shape)) {
    return OpError(std::string("attribute ") + list + " holds " + std::to_string(n) +
                   " values but shape " + DimsToString(param_.shape) + " needs " +
                   std::to_string(Product(param_.shape)));
  }
  return Status::OK();
}

Status ValueOp::CheckShape() const {
  if (kind_ == ValueOpKind::kLinspace) {
    if (param_.start->numel() != 1 || param_.stop->numel() != 1 || param_.num->numel() != 1) {
      return OpError("Start, Stop and Num must hold one element each");
    }
    const DataType d = param_.dtype;
    if (d != DataType::kFloat32 && d != DataType::kFloat64 && d != DataType::kInt32 &&
        d != DataType::kInt64) {
      return OpError(std::string("dtype ") + DataTypeName(d) + " is not supported");
    }
  }
  return Status::OK();
}

Status ValueOp::InferShape() {
  param_.out->set_dtype(param_.dtype);
  if (kind_ == ValueOpKind::kAssignValue) {
    param_.out->Resize(param_.shape);
    return Status::OK();
  }
  if (!param_.num->raw_data()) {  // computed by an earlier op at run time
    param_.out->Resize({-1});
    return Status::OK();
  }
  auto num = ReadIntTensor(*param_.num, "Num");
  if (!num.ok()) return OpError(num.status().message());
  if ((*num)[0] <= 0) return OpError("Num must be > 0, got " + std::to_string((*num)[0]));
  param_.out->Resize({(*num)[0]});
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP_KIND(assign_value, lite::operators::ValueOp,
                      lite::operators::ValueOpKind::kAssignValue);
REGISTER_LITE_OP_KIND(linspace, lite::operators::ValueOp, lite::operators::ValueOpKind::kLinspace);
