#include "lite/operators/tile_ops.h"

#include "lite/operators/op_with_param.h"

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
  bool IsRepeatForm() const;  // tile / expand: the attribute holds repeats
  Status InferExpandAs();

 private:
  const TileOpKind kind_;
};

}  // namespace

bool TileOp::IsRepeatForm() const {
  return kind_ == TileOpKind::kTile || kind_ == TileOpKind::kExpand;
}

Status TileOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  const char* attr = kind_ == TileOpKind::kTile        ? "repeat_times"
                     : kind_ == TileOpKind::kExpand    ? "expand_times"
                     : kind_ == TileOpKind::kExpandV2 ? "shape"
                                           : "target_shape";
  for (const char* input : {"RepeatTimes", "repeat_times_tensor", "Shape",
                            "expand_shapes_tensor", "ExpandTimes", "expand_times_tensor"}) {
    if (OptionalInput(input) || !InputList(input).empty()) {
      return Unimplemented("op " + DebugName() + ": input " + input +
                           " (a run-time " + attr + ") is not supported; give attribute " + attr);
    }
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

Status TileOp::CheckShape() const {
  for (int64_t v : param_.attr) {
    if (IsRepeatForm() ? v < 1 : (v < -1 || v == 0)) {
      return OpError(std::string(IsRepeatForm() ? "repeats" : "target shape") + " " +
                     DimsToString(param_.attr) + " has an invalid value " + std::to_string(v));
    }
  }
  return Status::OK();
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
  const DDim& xd = param_.x->dims();
  const std::vector<int64_t> target = param_.y ? param_.y->dims() : param_.attr;
  const size_t rank = std::max(xd.size(), target.size());
  DDim x(rank - xd.size(), 1);
  x.insert(x.end(), xd.begin(), xd.end());
  std::vector<int64_t> t(rank - target.size(), IsRepeatForm() ? 1 : -1);
  t.insert(t.end(), target.begin(), target.end());
  if (!IsRepeatForm() && target.size() < xd.size()) {
    return OpError("target shape " + DimsToString(target) + " has a lower rank than X " +
                   DimsToString(xd));
  }
  DDim out(rank);
  param_.repeats.assign(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    if (IsRepeatForm()) {
      param_.repeats[i] = t[i];
    } else if (t[i] != -1 && t[i] != x[i]) {
      if (x[i] != 1) {
        return OpError("X " + DimsToString(xd) + " cannot expand to " + DimsToString(target) +
                       ": dim " + std::to_string(i) + " is neither 1 nor " + std::to_string(t[i]));
      }
      param_.repeats[i] = t[i];
    }
    out[i] = x[i] < 0 ? -1 : x[i] * param_.repeats[i];
  }
  param_.x_dims = x;
  param_.out->Resize(out);
  param_.out->set_dtype(param_.x->dtype());
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
