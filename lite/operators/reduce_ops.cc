#include "lite/operators/reduce_ops.h"

#include "lite/operators/lod_util.h"
#include "lite/operators/op_with_param.h"

namespace lite {
namespace operators {

namespace {

// The shell every op here shares: param struct P, no checks before
// InferShape.
template <typename P>
class ReduceFamilyOp : public OpWithParam<P> {
 public:
  using OpWithParam<P>::OpWithParam;
  Status CheckShape() const override { return Status::OK(); }
};

class SumOp : public ReduceFamilyOp<SumParam> {
 public:
  using ReduceFamilyOp::ReduceFamilyOp;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

class MeanOp : public ReduceFamilyOp<MeanParam> {
 public:
  using ReduceFamilyOp::ReduceFamilyOp;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

class ReduceOp : public ReduceFamilyOp<ReduceParam> {
 public:
  ReduceOp(std::string type, ReduceKind kind)
      : ReduceFamilyOp<ReduceParam>(std::move(type)), kind_(kind) {}
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  const ReduceKind kind_;  // the one it was registered with
};

// The op types ArgMaxOp serves.
enum class ArgMaxOpKind { kArgMax, kArgMin };

class ArgMaxOp : public ReduceFamilyOp<ArgMaxParam> {
 public:
  ArgMaxOp(std::string type, ArgMaxOpKind kind)
      : ReduceFamilyOp<ArgMaxParam>(std::move(type)), kind_(kind) {}
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  const ArgMaxOpKind kind_;
};

}  // namespace

// ---- sum ----

Status SumOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  param_.xs.clear();
  for (Tensor* t : InputList("X")) param_.xs.push_back(t);
  if (param_.xs.empty()) return OpError("input list X is empty");
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  return Status::OK();
}

Status SumOp::InferShape() {
  // Empty inputs are skipped; all others must share one shape and dtype.
  const Tensor* first = nullptr;
  for (const Tensor* t : param_.xs) {
    if (t->numel() == 0) continue;
    if (!first) {
      first = t;
    } else if (t->dims() != first->dims()) {
      return OpError("inputs have different shapes " + DimsToString(first->dims()) +
                     " and " + DimsToString(t->dims()));
    } else if (t->dtype() != first->dtype()) {
      return OpError("inputs have different dtypes");
    }
  }
  if (!first) first = param_.xs.front();
  ASSIGN_OR_RETURN(LoD lod, AgreedLoD(*this, {param_.xs.begin(), param_.xs.end()}));
  param_.out->Resize(first->dims());
  param_.out->set_dtype(first->dtype());
  param_.out->set_lod(lod);
  return Status::OK();
}

// ---- mean ----

Status MeanOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  return Status::OK();
}

Status MeanOp::InferShape() {
  param_.out->Resize({1});
  return Status::OK();
}

// ---- reduce_* ----

namespace {
DataType ReduceDtypeFromCode(int code) {
  switch (code) {
    case 0: return DataType::kBool;
    case 2: return DataType::kInt32;
    case 3: return DataType::kInt64;
    case 5: return DataType::kFloat32;
    default: return DataType::kUnknown;
  }
}
}  // namespace

Status ReduceOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  param_.kind = kind_;
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  param_.dims = desc.GetAttr<std::vector<int64_t>>("dim", {0});
  param_.keep_dim = desc.GetAttr<bool>("keep_dim", false);
  param_.reduce_all = desc.GetAttr<bool>("reduce_all", false);
  const int out_code = desc.GetAttr<int32_t>("out_dtype", -1);
  if (out_code != -1) {
    param_.out_dtype = ReduceDtypeFromCode(out_code);
    if (param_.out_dtype == DataType::kUnknown || param_.out_dtype == DataType::kBool) {
      return Unimplemented("op " + DebugName() + ": unsupported out_dtype code " +
                           std::to_string(out_code));
    }
  }
  return Status::OK();
}

Status ReduceOp::InferShape() {
  const DDim& xd = param_.x->dims();
  const int rank = static_cast<int>(xd.size());
  param_.reduced.assign(rank, false);
  bool all = param_.reduce_all || param_.dims.empty();
  for (int64_t d : param_.dims) {
    if (d < -rank || d >= rank) {
      if (rank == 0 && (d == 0 || d == -1)) continue;  // 0-D input
      return OpError("dim " + std::to_string(d) + " out of range for X " +
                     DimsToString(xd));
    }
    param_.reduced[d < 0 ? d + rank : d] = true;
  }
  if (all) param_.reduced.assign(rank, true);
  bool every = true;
  for (bool r : param_.reduced) every = every && r;
  DDim out;
  for (int i = 0; i < rank; ++i) {
    if (!param_.reduced[i]) {
      out.push_back(xd[i]);
    } else if (param_.keep_dim) {
      out.push_back(1);
    }
  }
  if (every && !param_.keep_dim) out = {1};
  if (out.empty()) out = {1};
  param_.out->Resize(out);
  param_.out->set_dtype(param_.out_dtype == DataType::kUnknown ? param_.x->dtype()
                                                               : param_.out_dtype);
  return Status::OK();
}

// ---- arg_max ----

Status ArgMaxOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  param_.axis = desc.GetAttr<int64_t>("axis", 0);
  param_.keepdims = desc.GetAttr<bool>("keepdims", false);
  param_.flatten = desc.GetAttr<bool>("flatten", false);
  param_.find_min = kind_ == ArgMaxOpKind::kArgMin;
  const int dtype = desc.GetAttr<int32_t>("dtype", 3);
  if (dtype == 3 || dtype == -1) {
    param_.out_dtype = DataType::kInt64;
  } else if (dtype == 2) {
    param_.out_dtype = DataType::kInt32;
  } else {
    return OpError("attribute dtype must be 2 (int32) or 3 (int64), got " +
                   std::to_string(dtype));
  }
  return Status::OK();
}

Status ArgMaxOp::InferShape() {
  const DDim& xd = param_.x->dims();
  const int64_t rank = static_cast<int64_t>(xd.size());
  const int64_t r = rank == 0 ? 1 : rank;
  if (param_.axis < -r || param_.axis >= r) {
    return OpError("attribute axis " + std::to_string(param_.axis) +
                   " out of range for X " + DimsToString(xd));
  }
  DDim out;
  if (param_.flatten || rank == 0) {
    param_.outer = 1;
    param_.n = param_.x->numel();
    param_.inner = 1;
    if (param_.keepdims) out.assign(rank, 1);
  } else {
    const int64_t axis = param_.axis < 0 ? param_.axis + rank : param_.axis;
    param_.outer = param_.inner = 1;
    for (int64_t i = 0; i < axis; ++i) param_.outer *= xd[i];
    param_.n = xd[axis];
    for (int64_t i = axis + 1; i < rank; ++i) param_.inner *= xd[i];
    for (int64_t i = 0; i < rank; ++i) {
      if (i != axis) {
        out.push_back(xd[i]);
      } else if (param_.keepdims) {
        out.push_back(1);
      }
    }
  }
  if (param_.n == 0) return OpError(Type() + " over an empty axis of X " + DimsToString(xd));
  if (out.empty()) out = {1};
  param_.out->Resize(out);
  param_.out->set_dtype(param_.out_dtype);
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(sum, lite::operators::SumOp);
REGISTER_LITE_OP(mean, lite::operators::MeanOp);
REGISTER_LITE_OP_KIND(reduce_sum, lite::operators::ReduceOp, lite::operators::ReduceKind::kSum);
REGISTER_LITE_OP_KIND(reduce_mean, lite::operators::ReduceOp, lite::operators::ReduceKind::kMean);
REGISTER_LITE_OP_KIND(reduce_max, lite::operators::ReduceOp, lite::operators::ReduceKind::kMax);
REGISTER_LITE_OP_KIND(reduce_min, lite::operators::ReduceOp, lite::operators::ReduceKind::kMin);
REGISTER_LITE_OP_KIND(reduce_prod, lite::operators::ReduceOp, lite::operators::ReduceKind::kProd);
REGISTER_LITE_OP_KIND(arg_max, lite::operators::ArgMaxOp, lite::operators::ArgMaxOpKind::kArgMax);
REGISTER_LITE_OP_KIND(arg_min, lite::operators::ArgMaxOp, lite::operators::ArgMaxOpKind::kArgMin);
