#include "lite/operators/sequence_ops.h"

#include "lite/operators/op_with_param.h"

namespace lite {
namespace operators {

namespace {

// The op types LookupTableOp serves.
enum class LookupTableOpKind { kLookupTable, kLookupTableV2 };

class LookupTableOp : public OpWithParam<LookupTableParam> {
 public:
  LookupTableOp(std::string type, LookupTableOpKind kind)
      : OpWithParam<LookupTableParam>(std::move(type)), kind_(kind) {}
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  const LookupTableOpKind kind_;
};

class SequenceConvOp : public OpWithParam<SequenceConvParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

class SequencePoolOp : public OpWithParam<SequencePoolParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

}  // namespace

// lookup_table ---------------------------------------------------------------

Status LookupTableOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * w, Input("W"));
  ASSIGN_OR_RETURN(Tensor * ids, Input("Ids"));
  param_.w = w;
  param_.ids = ids;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  param_.padding_idx = desc.GetAttr<int64_t>("padding_idx", -1);
  param_.v2 = kind_ == LookupTableOpKind::kLookupTableV2;
  return Status::OK();
}

Status LookupTableOp::CheckShape() const {
  if (param_.w->dims().size() != 2) {
    return OpError("W must be 2-D, got " + DimsToString(param_.w->dims()));
  }
  return Status::OK();
}

Status LookupTableOp::InferShape() {
  DDim out = param_.ids->dims();
  if (!param_.v2) {
    if (out.empty() || out.back() != 1) {
      return OpError("Ids must end in a dim of 1, got " + DimsToString(out));
    }
    out.pop_back();
  }
  out.push_back(param_.w->dims()[1]);
  param_.out->Resize(out);
  param_.out->set_lod(param_.ids->lod());
  return Status::OK();
}

// sequence_conv --------------------------------------------------------------

Status SequenceConvOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  ASSIGN_OR_RETURN(Tensor * f, Input("Filter"));
  param_.x = x;
  param_.filter = f;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  param_.context_start = desc.GetAttr<int32_t>("contextStart", 0);
  param_.context_length = desc.GetAttr<int32_t>("contextLength", 1);
  param_.context_stride = desc.GetAttr<int32_t>("contextStride", 1);
  if (desc.GetAttr<bool>("paddingTrainable", false)) {
    return OpError("paddingTrainable is not supported (inference uses zero padding)");
  }
  if (param_.context_stride != 1) {
    return OpError("contextStride " + std::to_string(param_.context_stride) +
                   " is not supported (Paddle only has 1)");
  }
  if (param_.context_length < 1) return OpError("contextLength must be >= 1");
  return Status::OK();
}

Status SequenceConvOp::CheckShape() const { return Status::OK(); }

Status SequenceConvOp::InferShape() {
  const DDim& x = param_.x->dims();
  const DDim& f = param_.filter->dims();
  if (x.size() != 2) return OpError("X must be 2-D [T, D], got " + DimsToString(x));
  if (f.size() != 2 || f[0] != param_.context_length * x[1]) {
    return OpError("Filter must be [contextLength * D, M] = [" +
                   std::to_string(param_.context_length * x[1]) + ", M], got " + DimsToString(f));
  }
  RETURN_IF_ERROR(CheckLastLevel(*this, param_.x->lod(), x[0]));
  param_.out->Resize({x[0], f[1]});
  param_.out->set_lod(param_.x->lod());
  return Status::OK();
}

// sequence_pool --------------------------------------------------------------

Status SequencePoolOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  param_.max_index = OptionalOutput("MaxIndex");
  param_.pooltype = desc.GetAttr<std::string>("pooltype", "AVERAGE");
  param_.pad_value = desc.GetAttr<float>("pad_value", 0.f);
  for (const char* t : {"SUM", "AVERAGE", "SQRT", "MAX", "LAST", "FIRST"}) {
    if (param_.pooltype == t) return Status::OK();
  }
  return OpError("pooltype '" + param_.pooltype + "' is not one of SUM, AVERAGE, SQRT, MAX, LAST, FIRST");
}

Status SequencePoolOp::CheckShape() const { return Status::OK(); }

Status SequencePoolOp::InferShape() {
  const DDim& x = param_.x->dims();
  if (x.empty()) return OpError("X must have at least 1 dim");
  RETURN_IF_ERROR(CheckLastLevel(*this, param_.x->lod(), x[0]));
  LoD lod = param_.x->lod();
  DDim out = x;
  out[0] = static_cast<int64_t>(lod.back().size()) - 1;
  lod.pop_back();
  param_.out->Resize(out);
  param_.out->set_lod(lod);
  if (param_.max_index) param_.max_index->Resize(out);
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP_KIND(lookup_table, lite::operators::LookupTableOp,
                      lite::operators::LookupTableOpKind::kLookupTable);
REGISTER_LITE_OP_KIND(lookup_table_v2, lite::operators::LookupTableOp,
                      lite::operators::LookupTableOpKind::kLookupTableV2);
REGISTER_LITE_OP(sequence_conv, lite::operators::SequenceConvOp);
REGISTER_LITE_OP(sequence_pool, lite::operators::SequencePoolOp);
