#include "lite/operators/tile_ops.h"

#include "lite/operators/op_with_param.h"
#include "lite/operators/tensor_util.h"

#include <algorithm>

namespace lite {
namespace operators {

namespace {

// The op types TileOp serves.
enum class TileOpKind { kTile, kExpand, kExpandV2, kExpandAsV2, kExpandAs };

class TileOp : public OpWithParam<TileParam> {
 public:
  TileOp(std::string type, TileOpKind kind)
      : OpWithParam<TileParam>(std::move(type)), kind_(kind) {}
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  Status InferExpandAs();

 private:
  const TileOpKind kind_;
};

}  // namespace

namespace {

bool HasRunTimeShape(const TileParam& p) {
  return p.shape_tensor != nullptr || !p.shape_tensor_list.empty();
}

}  // namespace

Status TileOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  const char* attr = kind_ == TileOpKind::kTile        ? "repeat_times"
                     : kind_ == TileOpKind::kExpand    ? "expand_times"
                     : kind_ == TileOpKind::kExpandV2 ? "shape"
                                           : "target_shape";
  param_.repeat_form = kind_ == TileOpKind::kTile || kind_ == TileOpKind::kExpand;
  // The run-time forms of `attr`: one int tensor, else one 1-element int
  // tensor per dim.
  const char* tensor = kind_ == TileOpKind::kTile        ? "RepeatTimes"
                       : kind_ == TileOpKind::kExpand    ? "ExpandTimes"
                       : kind_ == TileOpKind::kExpandV2 ? "Shape"
                                                          : nullptr;
  const char* tensor_list = kind_ == TileOpKind::kTile        ? "repeat_times_tensor"
                            : kind_ == TileOpKind::kExpand    ? "expand_times_tensor"
                            : kind_ == TileOpKind::kExpandV2 ? "expand_shapes_tensor"
                                                               : nullptr;
  if (tensor) {
    param_.shape_tensor = OptionalInput(tensor);
    for (Tensor* t : InputList(tensor_list)) param_.shape_tensor_list.push_back(t);
    param_.shape_tensor_name = param_.shape_tensor ? tensor : tensor_list;
    if (HasRunTimeShape(param_)) return Status::OK();
  }
  if (kind_ == TileOpKind::kExpandAs) {
    ASSIGN_OR_RETURN(Tensor * target, Input("target_tensor"));
    param_.y = target;
    return Status::OK();
  }
  param_.y = kind_ == TileOpKind::kExpandAsV2 ? OptionalInput("Y") : nullptr;
  param_.attr = desc.GetAttr<std::vector<int64_t>>(attr, {});
  if (param_.attr.empty() && !param_.y) return OpError(std::string("attribute ") + attr + " is missing or empty");
  return Status::OK();
}

namespace {

Status CheckTarget(const std::vector<int64_t>& target, bool repeat_form) {
  for (int64_t v : target) {
    if (repeat_form ? v < 1 : (v < -1 || v == 0)) {
      return InvalidArgument(std::string(repeat_form ? "repeats" : "target shape") + " " +
                             DimsToString(target) + " has an invalid value " +
                             std::to_string(v));
    }
  }
  return Status::OK();
}

}  // namespace

// The run-time shape is checked when it is read (TileShape).
Status TileOp::CheckShape() const {
  if (HasRunTimeShape(param_)) return Status::OK();
  const Status s = CheckTarget(param_.attr, param_.repeat_form);
  return s.ok() ? s : OpError(s.message());
}

// expand_as: repeats = target / X per dim, both of one rank.
Status TileOp::InferExpandAs() {
  const DDim& xd = param_.x->dims();
  const DDim& td = param_.y->dims();
  if (xd.size() != td.size()) {
    return OpError("X " + DimsToString(xd) + " and target_tensor " + DimsToString(td) +
                   " must have the same rank");
  }
  param_.repeats.assign(xd.size(), 1);
  for (size_t i = 0; i < xd.size(); ++i) {
    if (xd[i] < 0 || td[i] < 0) continue;  // unknown until run time
    if (xd[i] == 0 || td[i] % xd[i] != 0) {
      return OpError("target_tensor " + DimsToString(td) + " is not a tiling of X " +
                     DimsToString(xd) + " (dim " + std::to_string(i) + ")");
    }
    param_.repeats[i] = td[i] / xd[i];
  }
  param_.x_dims = xd;
  param_.out->Resize(td);
  param_.out->set_dtype(param_.x->dtype());
  return Status::OK();
}

Status TileOp::InferShape() {
  if (kind_ == TileOpKind::kExpandAs) return InferExpandAs();
  const Status s = TileShape(&param_);
  return s.ok() ? s : OpError(s.message());
}

Status TileShape(TileParam* p) {
  std::vector<int64_t> target = p->y ? p->y->dims() : p->attr;
  if (p->shape_tensor) {
    ASSIGN_OR_RETURN(target, ReadIntTensor(*p->shape_tensor, p->shape_tensor_name));
  } else if (!p->shape_tensor_list.empty()) {
    ASSIGN_OR_RETURN(target, ReadIntTensorList(p->shape_tensor_list, p->shape_tensor_name));
  }
  if (HasRunTimeShape(*p)) RETURN_IF_ERROR(CheckTarget(target, p->repeat_form));
  const bool repeat_form = p->repeat_form;
  const DDim& xd = p->x->dims();
  const size_t rank = std::max(xd.size(), target.size());
  DDim x(rank - xd.size(), 1);
  x.insert(x.end(), xd.begin(), xd.end());
  std::vector<int64_t> t(rank - target.size(), repeat_form ? 1 : -1);
  t.insert(t.end(), target.begin(), target.end());
  if (!repeat_form && target.size() < xd.size()) {
    return InvalidArgument("target shape " + DimsToString(target) + " has a lower rank than X " +
                           DimsToString(xd));
  }
  DDim out(rank);
  p->repeats.assign(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    if (repeat_form) {
      p->repeats[i] = t[i];
    } else if (t[i] != -1 && t[i] != x[i]) {
      if (x[i] != 1) {
        return InvalidArgument("X " + DimsToString(xd) + " cannot expand to " +
                               DimsToString(target) + ": dim " + std::to_string(i) +
                               " is neither 1 nor " + std::to_string(t[i]));
      }
      p->repeats[i] = t[i];
    }
    out[i] = x[i] < 0 ? -1 : x[i] * p->repeats[i];
  }
  p->x_dims = x;
  p->out->Resize(out);
  p->out->set_dtype(p->x->dtype());
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP_KIND(tile, lite::operators::TileOp, lite::operators::TileOpKind::kTile);
REGISTER_LITE_OP_KIND(expand, lite::operators::TileOp, lite::operators::TileOpKind::kExpand);
REGISTER_LITE_OP_KIND(expand_v2, lite::operators::TileOp, lite::operators::TileOpKind::kExpandV2);
REGISTER_LITE_OP_KIND(expand_as_v2, lite::operators::TileOp,
                      lite::operators::TileOpKind::kExpandAsV2);
REGISTER_LITE_OP_KIND(expand_as, lite::operators::TileOp, lite::operators::TileOpKind::kExpandAs);
