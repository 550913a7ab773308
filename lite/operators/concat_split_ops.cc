#include "lite/operators/concat_split_ops.h"

#include "lite/operators/lod_util.h"
#include "lite/operators/op_with_param.h"
#include "lite/operators/tensor_util.h"

namespace lite {
namespace operators {

namespace {

class SplitOp : public OpWithParam<SplitParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

// Serves both stack and unstack.
// The op types StackOp serves.
enum class StackOpKind { kStack, kUnstack, kUnbind };

class StackOp : public OpWithParam<StackParam> {
 public:
  StackOp(std::string type, StackOpKind kind)
      : OpWithParam<StackParam>(std::move(type)), kind_(kind) {}
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  const StackOpKind kind_;
};

}  // namespace

namespace {

StatusOr<int64_t> ReadScalarAxis(const Tensor* t, int64_t fallback) {
  if (!t) return fallback;
  ASSIGN_OR_RETURN(auto v, ReadIntTensor(*t, "AxisTensor"));
  if (v.size() != 1) {
    return InvalidArgument("AxisTensor must hold one value, got " +
                           DimsToString(t->dims()));
  }
  return v[0];
}

}  // namespace

DDim ConcatInputDims(const ConcatParam& p, size_t i) {
  DDim d = p.xs[i]->dims();
  if (i < p.upscale.size() && d.size() == 4) {
    d[2] *= p.upscale[i];
    d[3] *= p.upscale[i];
  }
  return d;
}

StatusOr<DDim> ComputeConcatDims(const ConcatParam& p, int* axis) {
  if (p.xs.empty()) return InvalidArgument("concat has no inputs");
  const DDim d0 = ConcatInputDims(p, 0);
  const int64_t rank = static_cast<int64_t>(d0.size());
  ASSIGN_OR_RETURN(int64_t raw, ReadScalarAxis(p.axis_tensor, p.axis));
  ASSIGN_OR_RETURN(*axis, NormalizeAxis(raw, rank, "concat axis"));
  DDim out = d0;
  for (size_t i = 1; i < p.xs.size(); ++i) {
    const DDim d = ConcatInputDims(p, i);
    if (d.size() != d0.size()) {
      return InvalidArgument("concat input " + std::to_string(i) + " " +
                             DimsToString(d) + " has another rank than " +
                             DimsToString(d0));
    }
    for (int64_t k = 0; k < rank; ++k) {
      if (k == *axis) continue;
      if (d[k] != d0[k]) {
        return InvalidArgument("concat input " + std::to_string(i) + " " +
                               DimsToString(d) + " does not match " +
                               DimsToString(d0) + " outside axis " +
                               std::to_string(*axis));
      }
    }
    out[*axis] += d[*axis];
  }
  return out;
}

StatusOr<std::vector<DDim>> ComputeSplitDims(const SplitParam& p, int* axis) {
  const DDim& in = p.x->dims();
  ASSIGN_OR_RETURN(int64_t raw, ReadScalarAxis(p.axis_tensor, p.axis));
  ASSIGN_OR_RETURN(*axis, NormalizeAxis(raw, static_cast<int64_t>(in.size()),
                                        "split axis"));
  const int64_t len = in[*axis];
  std::vector<int64_t> sizes;
  if (p.num > 0) {
    if (len % p.num != 0) {
      return InvalidArgument("split: dim " + std::to_string(len) + " of axis " +
                             std::to_string(*axis) + " is not divisible by num " +
                             std::to_string(p.num));
    }
    sizes.assign(p.num, len / p.num);
  } else {
    std::vector<int64_t> sections = p.sections;
    if (!p.sections_tensor_list.empty()) {
      ASSIGN_OR_RETURN(sections, ReadIntTensorList(p.sections_tensor_list,
                                                   "SectionsTensorList"));
    }
    if (sections.empty()) return InvalidArgument("split needs num > 0 or sections");
    int unk = -1;
    int64_t sum = 0;
    for (size_t i = 0; i < sections.size(); ++i) {
      if (sections[i] == -1) {
        if (unk != -1) return InvalidArgument("split sections may hold only one -1");
        unk = static_cast<int>(i);
      } else if (sections[i] < 0) {
        return InvalidArgument("split section " + std::to_string(sections[i]) +
                               " is negative");
      } else {
        sum += sections[i];
      }
    }
    if (unk != -1) {
      if (sum > len) {
        return InvalidArgument("split sections sum " + std::to_string(sum) +
                               " exceeds dim " + std::to_string(len));
      }
      sections[unk] = len - sum;
    } else if (sum != len) {
      return InvalidArgument("split sections sum " + std::to_string(sum) +
                             " != dim " + std::to_string(len));
    }
    sizes = sections;
  }
  if (sizes.size() != p.outs.size()) {
    return InvalidArgument("split makes " + std::to_string(sizes.size()) +
                           " parts but has " + std::to_string(p.outs.size()) +
                           " outputs");
  }
  std::vector<DDim> out(sizes.size(), in);
  for (size_t i = 0; i < sizes.size(); ++i) out[i][*axis] = sizes[i];
  return out;
}

// ---- concat ----
Status ConcatOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  for (Tensor* t : InputList("X")) param_.xs.push_back(t);
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  param_.axis = desc.GetAttr<int32_t>("axis", 0);
  param_.axis_tensor = OptionalInput("AxisTensor");
  param_.upscale = desc.GetAttr<std::vector<int>>("input_upscale", {});
  for (Tensor* t : InputList("InputScale")) param_.input_scales.push_back(t);
  if (!param_.input_scales.empty() &&
      (param_.input_scales.size() != param_.xs.size() || param_.axis != 1 || param_.axis_tensor)) {
    return OpError("input InputScale needs one tensor per input and axis 1 (no AxisTensor)");
  }
  auto levels = LevelsOutputFromOpDesc(desc);
  if (!levels.ok()) return OpError(levels.status().message());
  param_.levels = *levels;
  if (!param_.upscale.empty()) {
    if (param_.upscale.size() != param_.xs.size() || param_.axis != 1 || param_.axis_tensor) {
      return OpError("attribute input_upscale needs one factor per input and axis 1 "
                     "(no AxisTensor)");
    }
    for (int f : param_.upscale) {
      if (f < 1) return OpError("attribute input_upscale holds a factor < 1");
    }
  }
  return Status::OK();
}

Status ConcatOp::CheckShape() const {
  if (param_.xs.empty()) return OpError("input X list is empty");
  for (size_t i = 0; i < param_.input_scales.size(); ++i) {
    const DDim& x = param_.xs[i]->dims();
    const DDim& s = param_.input_scales[i]->dims();
    const bool per_channel = (s.size() == 1 && s[0] == x[1]) ||
                             (s.size() == 4 && (s[0] == 1 || s[0] == x[0]) && s[1] == x[1] &&
                              s[2] == 1 && s[3] == 1);
    if (x.size() != 4 || param_.xs[i]->dtype() != DataType::kFloat32 || !per_channel) {
      return OpError("InputScale " + std::to_string(i) + " must be [C] or [1 or N, C, 1, 1] of " +
                     "a rank-4 float32 input, got " + DimsToString(s) + " for " + DimsToString(x));
    }
  }
  for (size_t i = 0; i < param_.upscale.size(); ++i) {
    if (param_.xs[i]->dims().size() != 4 || param_.xs[i]->dtype() != DataType::kFloat32) {
      return OpError("input_upscale needs rank-4 float32 inputs, input " + std::to_string(i) +
                     " is " + DimsToString(param_.xs[i]->dims()));
    }
  }
  return Status::OK();
}

Status ConcatOp::InferShape() {
  int axis = 0;
  auto dims = ComputeConcatDims(param_, &axis);
  if (!dims.ok()) return OpError(dims.status().message());
  param_.out->Resize(*dims);
  param_.out->set_dtype(param_.levels.enabled ? DataType::kInt8 : param_.xs[0]->dtype());
  if (axis != 0) {
    ASSIGN_OR_RETURN(LoD lod, AgreedLoD(*this, param_.xs));
    param_.out->set_lod(lod);
    return Status::OK();
  }
  // Along the rows: the inputs' sequences one after another.
  LoD lod;
  for (size_t i = 0; i < param_.xs.size(); ++i) {
    const LoD& in = param_.xs[i]->lod();
    if (in.empty() != param_.xs[0]->lod().empty() || in.size() > 1) {
      return OpError("concat along axis 0 needs every input with one LoD level or none; input " +
                     std::to_string(i) + " has " + LodToString(in));
    }
    if (in.empty()) continue;
    RETURN_IF_ERROR(CheckLastLevel(*this, in, param_.xs[i]->dims()[0]));
    if (lod.empty()) lod.push_back({0});
    const uint64_t base = lod[0].back();
    for (size_t k = 1; k < in[0].size(); ++k) lod[0].push_back(base + in[0][k]);
  }
  param_.out->set_lod(lod);
  return Status::OK();
}

// ---- split ----
Status SplitOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  param_.outs = OutputList("Out");
  param_.axis = desc.GetAttr<int32_t>("axis", 0);
  param_.num = desc.GetAttr<int32_t>("num", 0);
  param_.sections = desc.GetAttr<std::vector<int64_t>>("sections", {});
  param_.axis_tensor = OptionalInput("AxisTensor");
  for (Tensor* t : InputList("SectionsTensorList")) {
    param_.sections_tensor_list.push_back(t);
  }
  return Status::OK();
}

Status SplitOp::CheckShape() const {
  if (param_.outs.empty()) return OpError("output Out list is empty");
  if (param_.num < 0) return OpError("num must be >= 0");
  return Status::OK();
}

Status SplitOp::InferShape() {
  int axis = 0;
  auto dims = ComputeSplitDims(param_, &axis);
  if (!dims.ok()) return OpError(dims.status().message());
  for (size_t i = 0; i < param_.outs.size(); ++i) {
    param_.outs[i]->Resize((*dims)[i]);
    param_.outs[i]->set_dtype(param_.x->dtype());
    param_.outs[i]->set_lod(axis != 0 ? param_.x->lod() : LoD{});
  }
  return Status::OK();
}

// ---- stack / unstack ----
Status StackOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  param_.axis = desc.GetAttr<int32_t>("axis", 0);
  if (kind_ == StackOpKind::kStack) {
    for (Tensor* t : InputList("X")) param_.xs.push_back(t);
    ASSIGN_OR_RETURN(param_.y, Output("Y"));
  } else {
    ASSIGN_OR_RETURN(Tensor * x, Input("X"));
    param_.x = x;
    // unbind is unstack with its outputs named Out (one per slice of axis).
    param_.ys = OutputList(kind_ == StackOpKind::kUnbind ? "Out" : "Y");
    param_.num = desc.GetAttr<int32_t>("num", 0);
  }
  return Status::OK();
}

Status StackOp::CheckShape() const {
  if (kind_ == StackOpKind::kStack && param_.xs.empty()) return OpError("input X list is empty");
  if (kind_ != StackOpKind::kStack && param_.ys.empty()) {
    return OpError(std::string("output ") + (kind_ == StackOpKind::kUnbind ? "Out" : "Y") +
                   " list is empty");
  }
  return Status::OK();
}

Status StackOp::InferShape() {
  if (kind_ == StackOpKind::kStack) {
    const DDim& d0 = param_.xs[0]->dims();
    for (const Tensor* t : param_.xs) {
      if (t->dims() != d0) {
        return OpError("all inputs must have dims " + DimsToString(d0) +
                       ", got " + DimsToString(t->dims()));
      }
    }
    const int64_t rank = static_cast<int64_t>(d0.size()) + 1;
    auto axis = NormalizeAxis(param_.axis, rank, "stack axis");
    if (!axis.ok()) return OpError(axis.status().message());
    DDim out = d0;
    out.insert(out.begin() + *axis, static_cast<int64_t>(param_.xs.size()));
    param_.y->Resize(out);
    param_.y->set_dtype(param_.xs[0]->dtype());
    return Status::OK();
  }
  const DDim& in = param_.x->dims();
  auto axis = NormalizeAxis(param_.axis, static_cast<int64_t>(in.size()), Type() + " axis");
  if (!axis.ok()) return OpError(axis.status().message());
  if (in[*axis] != static_cast<int64_t>(param_.ys.size())) {
    return OpError("dim " + std::to_string(in[*axis]) + " of axis " +
                   std::to_string(*axis) + " != number of outputs " +
                   std::to_string(param_.ys.size()));
  }
  DDim out = in;
  out.erase(out.begin() + *axis);
  for (Tensor* y : param_.ys) {
    y->Resize(out);
    y->set_dtype(param_.x->dtype());
  }
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(concat, lite::operators::ConcatOp);
REGISTER_LITE_OP(split, lite::operators::SplitOp);
REGISTER_LITE_OP_KIND(stack, lite::operators::StackOp, lite::operators::StackOpKind::kStack);
REGISTER_LITE_OP_KIND(unstack, lite::operators::StackOp, lite::operators::StackOpKind::kUnstack);
REGISTER_LITE_OP_KIND(unbind, lite::operators::StackOp, lite::operators::StackOpKind::kUnbind);
