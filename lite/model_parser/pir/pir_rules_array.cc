// PIR -> engine rules for indexing and tensor-building ops: full_like, tile,
// expand, gather family, where, cumsum, flip, roll, one_hot, topk, p_norm,
// pixel_shuffle. Scalar / IntArray operands must be constants here (the
// engine's ops take attributes).
#include "lite/model_parser/pir/pir_translator.h"
#include "lite/model_parser/paddle_types.h"

namespace lite {
namespace pir {
namespace {

// Emits `type` over operands `inputs`, then sets `attr` from the constant
// IntArray operand `k` (tile's repeat_times, expand's shape, roll's shifts).
Status WithConstInts(const Op& op, Translator* t, const std::string& type,
                     const std::vector<std::string>& inputs, size_t k, const char* attr) {
  ASSIGN_OR_RETURN(std::vector<int64_t> values, t->ConstInts(op, k, attr));
  ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, type, inputs));
  d->SetAttr(attr, ToInt32s(values));
  return Status::OK();
}

// The same with a constant Scalar operand as an int32 attribute.
StatusOr<cpp::OpDesc*> WithConstScalar(const Op& op, Translator* t, const std::string& type,
                                       const std::vector<std::string>& inputs, size_t k,
                                       const char* attr) {
  ASSIGN_OR_RETURN(double value, t->ConstScalar(op, k, attr));
  ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, type, inputs));
  d->SetAttr(attr, static_cast<int32_t>(value));
  return d;
}

// full_like(x, value) {dtype}
Status FullLike(const Op& op, Translator* t) {
  AttrReader a(op);
  const std::string dtype = a.Str("dtype", "float32");
  RETURN_IF_ERROR(a.status());
  // "undefined" (the op's default) keeps x's dtype: fill_any_like's -1.
  int code = -1;
  if (dtype != "undefined" && !DataTypeToPaddle(DataTypeFromPirName(dtype), &code)) {
    return Unimplemented("full_like of dtype '" + dtype + "'");
  }
  ASSIGN_OR_RETURN(double value, t->ConstScalar(op, 1, "value"));
  ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, "fill_any_like", {"X"}));
  d->SetAttr("value", static_cast<float>(value));
  d->SetAttr("dtype", static_cast<int32_t>(code));
  return Status::OK();
}

// cumsum(x, axis) {flatten, exclusive, reverse}
Status Cumsum(const Op& op, Translator* t) {
  AttrReader a(op);
  const bool flatten = a.Bool("flatten", false);
  const bool exclusive = a.Bool("exclusive", false);
  const bool reverse = a.Bool("reverse", false);
  RETURN_IF_ERROR(a.status());
  ASSIGN_OR_RETURN(cpp::OpDesc * d, WithConstScalar(op, t, "cumsum", {"X"}, 1, "axis"));
  d->SetAttr("flatten", flatten);
  d->SetAttr("exclusive", exclusive);
  d->SetAttr("reverse", reverse);
  return Status::OK();
}

// index_select(x, index) {axis} -> dim
Status IndexSelect(const Op& op, Translator* t) {
  AttrReader a(op);
  const int64_t axis = a.Int("axis", 0);
  RETURN_IF_ERROR(a.status());
  ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, "index_select", {"X", "Index"}));
  d->SetAttr("dim", static_cast<int32_t>(axis));
  return Status::OK();
}

Status Flip(const Op& op, Translator* t) {
  AttrReader a(op);
  const std::vector<int64_t> axis = a.Ints("axis");
  RETURN_IF_ERROR(a.status());
  ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, "flip", {"X"}));
  d->SetAttr("axis", axis);
  return Status::OK();
}

// roll(x, shifts) {axis}
Status Roll(const Op& op, Translator* t) {
  AttrReader a(op);
  const std::vector<int64_t> axis = a.Ints("axis", {});
  RETURN_IF_ERROR(a.status());
  ASSIGN_OR_RETURN(std::vector<int64_t> shifts, t->ConstInts(op, 1, "shifts"));
  ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, "roll", {"X"}));
  d->SetAttr("shifts", shifts);
  d->SetAttr("axis", axis);
  return Status::OK();
}

// topk(x, k) {axis, largest, sorted} -> (out, indices)
Status TopK(const Op& op, Translator* t) {
  AttrReader a(op);
  const int64_t axis = a.Int("axis", -1);
  const bool largest = a.Bool("largest", true);
  RETURN_IF_ERROR(a.status());
  ASSIGN_OR_RETURN(cpp::OpDesc * d, WithConstScalar(op, t, "top_k_v2", {"X"}, 1, "k"));
  d->SetAttr("axis", static_cast<int32_t>(axis));
  d->SetAttr("largest", largest);
  ASSIGN_OR_RETURN(std::string indices, t->Out(op, 1));
  t->LastEmitted()->SetOutput("Indices", {indices});
  return Status::OK();
}

// p_norm(x) {porder, axis, epsilon, keepdim, asvector}
Status PNorm(const Op& op, Translator* t) {
  AttrReader a(op);
  const double porder = a.Float("porder", 2.0);
  const int64_t axis = a.Int("axis", -1);
  const bool keepdim = a.Bool("keepdim", false);
  const bool asvector = a.Bool("asvector", false);
  RETURN_IF_ERROR(a.status());
  ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, "p_norm", {"X"}));
  d->SetAttr("porder", static_cast<float>(porder));
  d->SetAttr("axis", static_cast<int32_t>(axis));
  d->SetAttr("keepdim", keepdim);
  d->SetAttr("asvector", asvector);
  return Status::OK();
}

// pixel_shuffle / pixel_unshuffle (x) {factor, data_format}
Status PixelShuffle(const Op& op, Translator* t, const std::string& type, const char* factor) {
  AttrReader a(op);
  const int64_t f = a.Int(factor);
  const std::string format = a.Str("data_format", "NCHW");
  RETURN_IF_ERROR(a.status());
  ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, type, {"X"}));
  d->SetAttr(factor, static_cast<int32_t>(f));
  d->SetAttr("data_format", format);
  return Status::OK();
}

}  // namespace

void AddArrayRules(RuleTable* table) {
  (*table)["pd_op.full_like"] = FullLike;
  (*table)["pd_op.tile"] = [](const Op& op, Translator* t) {
    return WithConstInts(op, t, "tile", {"X"}, 1, "repeat_times");
  };
  // expand(x, shape): a constant shape is the attribute; a tensor Shape; a
  // list of scalars (a batch read at run time, as dynamic-batch exports
  // expand a cls token) expand_shapes_tensor.
  (*table)["pd_op.expand"] = [](const Op& op, Translator* t) {
    ASSIGN_OR_RETURN(IntArrayOperand shape, t->IntArray(op, 1, "shape"));
    ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, "expand_v2", {"X"}));
    return BindIntArray(shape, d, "shape", "Shape", "expand_shapes_tensor");
  };
  // expand_as(x, y) {target_shape}: y is optional.
  (*table)["pd_op.expand_as"] = [](const Op& op, Translator* t) {
    AttrReader a(op);
    const std::vector<int64_t> target = a.Ints("target_shape", {});
    RETURN_IF_ERROR(a.status());
    ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, "expand_as_v2", {"X", "Y"}));
    d->SetAttr("target_shape", target);
    return Status::OK();
  };
  (*table)["pd_op.gather"] = [](const Op& op, Translator* t) {
    return WithConstScalar(op, t, "gather", {"X", "Index"}, 2, "axis").status();
  };
  (*table)["pd_op.gather_nd"] = [](const Op& op, Translator* t) {
    return t->EmitSimple(op, "gather_nd", {"X", "Index"}).status();
  };
  (*table)["pd_op.where"] = [](const Op& op, Translator* t) {
    return t->EmitSimple(op, "where", {"Condition", "X", "Y"}).status();
  };
  (*table)["pd_op.index_select"] = IndexSelect;
  (*table)["pd_op.cumsum"] = Cumsum;
  (*table)["pd_op.flip"] = Flip;
  (*table)["pd_op.roll"] = Roll;
  // one_hot(x, num_classes): a constant is the depth attribute, a computed
  // value the depth_tensor input.
  (*table)["pd_op.one_hot"] = [](const Op& op, Translator* t) {
    if (t->ConstOperand(op, 1) != nullptr) {
      return WithConstScalar(op, t, "one_hot_v2", {"X"}, 1, "depth").status();
    }
    return t->EmitSimple(op, "one_hot_v2", {"X", "depth_tensor"}).status();
  };
  (*table)["pd_op.topk"] = TopK;
  (*table)["pd_op.p_norm"] = PNorm;
  (*table)["pd_op.pixel_shuffle"] = [](const Op& op, Translator* t) {
    return PixelShuffle(op, t, "pixel_shuffle", "upscale_factor");
  };
  (*table)["pd_op.pixel_unshuffle"] = [](const Op& op, Translator* t) {
    return PixelShuffle(op, t, "pixel_unshuffle", "downscale_factor");
  };
}

}  // namespace pir
}  // namespace lite
