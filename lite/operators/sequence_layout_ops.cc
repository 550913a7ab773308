#include "lite/operators/sequence_layout_ops.h"

#include <algorithm>

#include "lite/operators/lod_util.h"
#include "lite/operators/op_with_param.h"

namespace lite {
namespace operators {

namespace {

class SequenceSoftmaxOp : public OpWithParam<SequenceSoftmaxParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override { return Status::OK(); }
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

// sequence_expand, sequence_expand_as, sequence_reshape, sequence_concat.
// The op types RowGatherOp serves.
enum class RowGatherOpKind {
    kSequenceExpand, kSequenceExpandAs, kSequenceReshape, kSequenceConcat,
};

class RowGatherOp : public OpWithParam<RowGatherParam> {
 public:
  RowGatherOp(std::string type, RowGatherOpKind kind)
      : OpWithParam<RowGatherParam>(std::move(type)), kind_(kind) {}
  Status CheckShape() const override { return Status::OK(); }
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  Status InferExpand();
  Status InferExpandAs();
  Status InferReshape();
  Status InferConcat();


 private:
  const RowGatherOpKind kind_;
};

}  // namespace

namespace {

int64_t Rows(const Tensor& t) { return t.dims().empty() ? 1 : t.dims()[0]; }

// Offsets 0..n: every row its own sequence.
std::vector<uint64_t> RowLevel(int64_t n) {
  std::vector<uint64_t> level(n + 1);
  for (int64_t i = 0; i <= n; ++i) level[i] = static_cast<uint64_t>(i);
  return level;
}

}  // namespace

// sequence_softmax -----------------------------------------------------------

Status SequenceSoftmaxOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  return Status::OK();
}

Status SequenceSoftmaxOp::InferShape() {
  const DDim& x = param_.x->dims();
  if (x.empty() || x.size() > 2 || (x.size() == 2 && x[1] != 1)) {
    return OpError("X must be [T] or [T, 1], got " + DimsToString(x));
  }
  RETURN_IF_ERROR(CheckLastLevel(*this, param_.x->lod(), x[0]));
  param_.out->Resize(x);
  param_.out->set_lod(param_.x->lod());
  return Status::OK();
}

// row gathers ----------------------------------------------------------------

Status RowGatherOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  param_.xs.clear();
  if (kind_ == RowGatherOpKind::kSequenceConcat) {
    for (Tensor* t : InputList("X")) param_.xs.push_back(t);
    if (param_.xs.empty()) return OpError("input list X is empty");
    param_.data_inputs = param_.xs.size();
  } else {
    ASSIGN_OR_RETURN(Tensor * x, Input("X"));
    param_.xs.push_back(x);
    if (kind_ != RowGatherOpKind::kSequenceReshape) {
      ASSIGN_OR_RETURN(Tensor * y, Input("Y"));
      param_.xs.push_back(y);
    }
  }
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  param_.ref_level = desc.GetAttr<int32_t>("ref_level", -1);
  param_.new_dim = desc.GetAttr<int64_t>("new_dim", 0);
  if (kind_ == RowGatherOpKind::kSequenceReshape && param_.new_dim <= 0) {
    return OpError("new_dim must be positive, got " + std::to_string(param_.new_dim));
  }
  return Status::OK();
}

Status RowGatherOp::InferShape() {
  param_.rows.clear();
  if (kind_ == RowGatherOpKind::kSequenceExpand) return InferExpand();
  if (kind_ == RowGatherOpKind::kSequenceExpandAs) return InferExpandAs();
  if (kind_ == RowGatherOpKind::kSequenceReshape) return InferReshape();
  return InferConcat();
}

Status RowGatherOp::InferExpand() {
  const Tensor& x = *param_.xs[0];
  const LoD& y_lod = param_.xs[1]->lod();
  if (y_lod.empty()) return OpError("Y has no LoD to expand by");
  int level = param_.ref_level == -1 ? static_cast<int>(y_lod.size()) - 1 : param_.ref_level;
  if (level < 0 || level >= static_cast<int>(y_lod.size())) {
    return OpError("ref_level " + std::to_string(param_.ref_level) + " outside Y's " +
                   std::to_string(y_lod.size()) + " LoD level(s)");
  }
  const auto& ref = y_lod[level];
  if (ref.size() <= 1) {  // no sequences to expand by: Out is a copy of X (Paddle)
    for (int64_t r = 0; r < Rows(x); ++r) param_.rows.emplace_back(0, r);
    param_.out->Resize(x.dims());
    param_.out->set_lod(x.lod());
    return Status::OK();
  }
  if (x.lod().size() > 1) return OpError("X may have at most one LoD level");
  if (!x.lod().empty()) RETURN_IF_ERROR(CheckLastLevel(*this, x.lod(), Rows(x)));
  const std::vector<uint64_t> x_level = x.lod().empty() ? RowLevel(Rows(x)) : x.lod()[0];
  if (ref.size() != x_level.size()) {
    return OpError("Y's LoD level " + std::to_string(level) + " has " +
                   std::to_string(ref.empty() ? 0 : ref.size() - 1) + " sequences but X has " +
                   std::to_string(x_level.size() - 1) +
                   (x.lod().empty() ? " rows" : " sequences"));
  }
  for (size_t i = 1; i < ref.size(); ++i) {
    if (ref[i] < ref[i - 1]) return OpError("Y's LoD offsets decrease at " + std::to_string(i));
  }
  std::vector<uint64_t> out_level{0};
  for (size_t i = 1; i < ref.size(); ++i) {
    for (uint64_t j = 0; j < ref[i] - ref[i - 1]; ++j) {
      for (uint64_t r = x_level[i - 1]; r < x_level[i]; ++r) {
        param_.rows.emplace_back(0, static_cast<int64_t>(r));
      }
      out_level.push_back(out_level.back() + x_level[i] - x_level[i - 1]);
    }
  }
  DDim out = x.dims();
  if (out.empty()) out.push_back(1);
  out[0] = static_cast<int64_t>(param_.rows.size());
  param_.out->Resize(out);
  param_.out->set_lod(x.lod().empty() ? LoD{} : LoD{out_level});
  return Status::OK();
}

Status RowGatherOp::InferExpandAs() {
  const Tensor& x = *param_.xs[0];
  const Tensor& y = *param_.xs[1];
  if (y.lod().size() != 1) {
    return OpError("Y must have exactly one LoD level, got " + LodToString(y.lod()));
  }
  RETURN_IF_ERROR(CheckLastLevel(*this, y.lod(), Rows(y)));
  const auto& ref = y.lod()[0];
  if (static_cast<int64_t>(ref.size()) - 1 != Rows(x)) {
    return OpError("X has " + std::to_string(Rows(x)) + " rows but Y has " +
                   std::to_string(ref.size() - 1) + " sequences");
  }
  for (size_t i = 1; i < ref.size(); ++i) {
    for (uint64_t j = ref[i - 1]; j < ref[i]; ++j) {
      param_.rows.emplace_back(0, static_cast<int64_t>(i - 1));
    }
  }
  DDim out = x.dims();
  out[0] = static_cast<int64_t>(param_.rows.size());
  param_.out->Resize(out);
  param_.out->set_lod(y.lod());
  return Status::OK();
}

Status RowGatherOp::InferReshape() {
  const Tensor& x = *param_.xs[0];
  if (x.dims().size() != 2) return OpError("X must be 2-D [T, D], got " + DimsToString(x.dims()));
  if (x.lod().size() != 1) {
    return OpError("X must have exactly one LoD level, got " + LodToString(x.lod()));
  }
  RETURN_IF_ERROR(CheckLastLevel(*this, x.lod(), Rows(x)));
  const int64_t d = x.dims()[1], nd = param_.new_dim;
  std::vector<uint64_t> level{0};
  const auto& in = x.lod()[0];
  for (size_t i = 1; i < in.size(); ++i) {
    const int64_t elems = static_cast<int64_t>(in[i] - in[i - 1]) * d;
    if (elems % nd != 0) {
      return OpError("sequence " + std::to_string(i - 1) + " has " + std::to_string(elems) +
                     " elements, not a multiple of new_dim " + std::to_string(nd));
    }
    level.push_back(level.back() + static_cast<uint64_t>(elems / nd));
  }
  for (int64_t r = 0; r < Rows(x); ++r) param_.rows.emplace_back(0, r);
  param_.out->Resize({Rows(x) * d / nd, nd});
  param_.out->set_lod({level});
  return Status::OK();
}

Status RowGatherOp::InferConcat() {
  const Tensor& x0 = *param_.xs[0];
  size_t seqs = 0;
  for (size_t i = 0; i < param_.xs.size(); ++i) {
    const Tensor& x = *param_.xs[i];
    if (x.lod().size() != 1) {
      return OpError("input " + std::to_string(i) + " must have exactly one LoD level, got " +
                     LodToString(x.lod()));
    }
    RETURN_IF_ERROR(CheckLastLevel(*this, x.lod(), Rows(x)));
    if (i == 0) seqs = x.lod()[0].size() - 1;
    if (x.lod()[0].size() - 1 != seqs) {
      return OpError("input " + std::to_string(i) + " has " +
                     std::to_string(x.lod()[0].size() - 1) + " sequences, input 0 has " +
                     std::to_string(seqs));
    }
    if (x.dims().size() != x0.dims().size() ||
        !std::equal(x.dims().begin() + 1, x.dims().end(), x0.dims().begin() + 1)) {
      return OpError("input " + std::to_string(i) + " " + DimsToString(x.dims()) +
                     " does not match input 0 " + DimsToString(x0.dims()) + " past dim 0");
    }
  }
  std::vector<uint64_t> level{0};
  for (size_t s = 0; s < seqs; ++s) {
    for (size_t i = 0; i < param_.xs.size(); ++i) {
      const auto& l = param_.xs[i]->lod()[0];
      for (uint64_t r = l[s]; r < l[s + 1]; ++r) {
        param_.rows.emplace_back(static_cast<int32_t>(i), static_cast<int64_t>(r));
      }
    }
    level.push_back(param_.rows.size());
  }
  DDim out = x0.dims();
  out[0] = static_cast<int64_t>(param_.rows.size());
  param_.out->Resize(out);
  param_.out->set_lod({level});
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(sequence_softmax, lite::operators::SequenceSoftmaxOp);
REGISTER_LITE_OP_KIND(sequence_expand, lite::operators::RowGatherOp,
                      lite::operators::RowGatherOpKind::kSequenceExpand);
REGISTER_LITE_OP_KIND(sequence_expand_as, lite::operators::RowGatherOp,
                      lite::operators::RowGatherOpKind::kSequenceExpandAs);
REGISTER_LITE_OP_KIND(sequence_reshape, lite::operators::RowGatherOp,
                      lite::operators::RowGatherOpKind::kSequenceReshape);
REGISTER_LITE_OP_KIND(sequence_concat, lite::operators::RowGatherOp,
                      lite::operators::RowGatherOpKind::kSequenceConcat);
