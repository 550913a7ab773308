#include "lite/operators/shape_ops.h"

#include <cerrno>
#include <cstdlib>
#include <limits>

#include "lite/operators/op_with_param.h"
#include "lite/operators/tensor_util.h"

namespace lite {
namespace operators {

namespace {

class ShapeOp : public OpWithParam<ShapeParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

class AssignOp : public OpWithParam<AssignParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

}  // namespace

// Paddle VarType::Type element codes the fill ops accept.
StatusOr<DataType> FillDtype(int code) {
  switch (code) {
    case 0: return DataType::kBool;
    case 1: return DataType::kInt16;
    case 2: return DataType::kInt32;
    case 3: return DataType::kInt64;
    case 5: return DataType::kFloat32;
    case 6: return DataType::kFloat64;
    case 20: return DataType::kUInt8;
    case 21: return DataType::kInt8;
    default:
      return Unimplemented("fill_constant: dtype code " + std::to_string(code) +
                           " is not supported (float16/bfloat16/complex or unknown)");
  }
}

// ---- shape ----
Status ShapeOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("Input"));
  param_.x = x;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  return Status::OK();
}

Status ShapeOp::CheckShape() const { return Status::OK(); }

Status ShapeOp::InferShape() {
  param_.out->Resize({static_cast<int64_t>(param_.x->dims().size())});
  param_.out->set_dtype(DataType::kInt32);
  return Status::OK();
}

// ---- fill_constant ----
StatusOr<DDim> ComputeFillConstantDims(const FillConstantParam& p) {
  DDim dims;
  if (p.shape_tensor) {
    ASSIGN_OR_RETURN(dims, ReadIntTensor(*p.shape_tensor, "ShapeTensor"));
  } else if (!p.shape_tensor_list.empty()) {
    ASSIGN_OR_RETURN(dims, ReadIntTensorList(p.shape_tensor_list, "ShapeTensorList"));
  } else {
    dims = p.shape;
  }
  for (int64_t d : dims) {
    if (d < 0) return InvalidArgument("fill_constant shape " + DimsToString(dims) +
                                      " has a negative dim");
  }
  return dims;
}

Status FillConstantOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  auto dtype = FillDtype(desc.GetAttr<int32_t>("dtype", 5));
  if (!dtype.ok()) return Status(dtype.status().code(), "op " + DebugName() + ": " + dtype.status().message());
  param_.dtype = *dtype;
  param_.shape = desc.GetAttr<std::vector<int64_t>>("shape", {});
  param_.shape_tensor = OptionalInput("ShapeTensor");
  for (Tensor* t : InputList("ShapeTensorList")) param_.shape_tensor_list.push_back(t);
  param_.value_tensor = OptionalInput("ValueTensor");

  const cpp::Attribute* va = desc.FindAttr("value");
  if (va && va->type == cpp::AttrType::FLOAT64) {
    param_.value = desc.GetAttr<double>("value", 0.0);
  } else {
    param_.value = static_cast<double>(desc.GetAttr<float>("value", 0.f));
  }
  const std::string s = desc.GetAttr<std::string>("str_value", "");
  if (!s.empty()) {
    if (s == "inf") {
      param_.value = std::numeric_limits<double>::infinity();
    } else if (s == "-inf") {
      param_.value = -std::numeric_limits<double>::infinity();
    } else if (s == "nan") {
      param_.value = std::numeric_limits<double>::quiet_NaN();
    } else {
      char* end = nullptr;
      errno = 0;
      const long long iv = std::strtoll(s.c_str(), &end, 10);
      if (end && *end == '\0' && errno == 0) {
        param_.int_value = iv;
        param_.has_int_value = true;
        param_.value = static_cast<double>(iv);
      } else {
        end = nullptr;
        const double dv = std::strtod(s.c_str(), &end);
        if (!end || end == s.c_str()) {
          return OpError("str_value '" + s + "' is not a number");
        }
        param_.value = dv;
      }
    }
  }
  return Status::OK();
}

Status FillConstantOp::CheckShape() const { return Status::OK(); }

Status FillConstantOp::InferShape() {
  auto dims = ComputeFillConstantDims(param_);
  if (!dims.ok()) return OpError(dims.status().message());
  param_.out->Resize(*dims);
  param_.out->set_dtype(param_.dtype);
  return Status::OK();
}

// ---- assign ----
Status AssignOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  return Status::OK();
}

Status AssignOp::CheckShape() const { return Status::OK(); }

Status AssignOp::InferShape() {
  param_.out->Resize(param_.x->dims());
  param_.out->set_lod(param_.x->lod());
  param_.out->set_dtype(param_.x->dtype());
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(shape, lite::operators::ShapeOp);
REGISTER_LITE_OP(fill_constant, lite::operators::FillConstantOp);
REGISTER_LITE_OP(assign, lite::operators::AssignOp);
