// PIR -> engine rules for arithmetic: elementwise binaries, activations,
// scale/clip, matmul, reductions, argmax, cast.
#include "lite/model_parser/pir/pir_translator.h"
#include "lite/model_parser/paddle_types.h"

namespace lite {
namespace pir {
namespace {

// Sets the engine attributes of an activation from the PIR op's.
using AttrMap = std::function<Status(AttrReader*, cpp::OpDesc*)>;

Status Unary(const Op& op, Translator* t, const std::string& type, const AttrMap& attrs) {
  AttrReader a(op);
  cpp::OpDesc scratch(type);
  if (attrs) RETURN_IF_ERROR(attrs(&a, &scratch));
  RETURN_IF_ERROR(a.status());
  ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, type, {"X"}));
  for (const auto& attr : scratch.attrs()) d->SetRawAttr(attr.first, attr.second);
  return Status::OK();
}

Status Binary(const Op& op, Translator* t, const std::string& type) {
  ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, type, {"X", "Y"}));
  d->SetAttr("axis", int32_t{-1});
  return Status::OK();
}

// scale(x, scale): bias, bias_after_scale attributes; scale is an operand.
Status Scale(const Op& op, Translator* t) {
  AttrReader a(op);
  const double bias = a.Float("bias", 0.0);
  const bool after = a.Bool("bias_after_scale", true);
  RETURN_IF_ERROR(a.status());
  // A constant scale is the attribute; a computed one the ScaleTensor input.
  const bool constant = t->ConstOperand(op, 1) != nullptr;
  double scale = t->Present(op, 1) ? 1.0 : a.Float("scale", 1.0);
  if (constant) {
    ASSIGN_OR_RETURN(scale, t->ConstScalar(op, 1, "scale"));
  }
  ASSIGN_OR_RETURN(cpp::OpDesc * d,
                   t->EmitSimple(op, "scale", {"X", constant ? "" : "ScaleTensor"}));
  d->SetAttr("scale", static_cast<float>(scale));
  d->SetAttr("bias", static_cast<float>(bias));
  d->SetAttr("bias_after_scale", after);
  return Status::OK();
}

// clip(x, min, max): constant bounds become attributes.
Status Clip(const Op& op, Translator* t) {
  std::vector<std::string> inputs = {"X", "Min", "Max"};
  double bounds[2] = {0, 0};
  for (int k = 0; k < 2; ++k) {
    if (t->ConstOperand(op, k + 1) == nullptr) continue;  // a tensor input
    ASSIGN_OR_RETURN(bounds[k], t->ConstScalar(op, k + 1, k == 0 ? "min" : "max"));
    inputs[k + 1].clear();
  }
  ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, "clip", inputs));
  d->SetAttr("min", static_cast<float>(bounds[0]));
  d->SetAttr("max", static_cast<float>(bounds[1]));
  return Status::OK();
}

Status Matmul(const Op& op, Translator* t) {
  AttrReader a(op);
  const bool tx = a.Bool("transpose_x", false);
  const bool ty = a.Bool("transpose_y", false);
  RETURN_IF_ERROR(a.status());
  ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, "matmul_v2", {"X", "Y"}));
  d->SetAttr("trans_x", tx);
  d->SetAttr("trans_y", ty);
  return Status::OK();
}

// mean / sum / max / min / prod (x, axis): axis is an IntArray operand.
Status Reduce(const Op& op, Translator* t, const std::string& type) {
  AttrReader a(op);
  const bool keep = a.Bool("keepdim", a.Bool("keep_dim", false));
  RETURN_IF_ERROR(a.status());
  std::vector<int64_t> axis;
  if (t->Present(op, 1)) {
    ASSIGN_OR_RETURN(axis, t->ConstInts(op, 1, "axis"));
  }
  ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, type, {"X"}));
  d->SetAttr("dim", axis);
  d->SetAttr("keep_dim", keep);
  d->SetAttr("reduce_all", axis.empty());
  return Status::OK();
}

Status DtypeCode(const std::string& pir_dtype, int* code) {
  const DataType dt = DataTypeFromPirName(pir_dtype);
  if (!DataTypeToPaddle(dt, code)) {
    return Unimplemented("dtype '" + pir_dtype + "' has no engine equivalent");
  }
  return Status::OK();
}

// argmax / argmin (x, axis): keepdims, flatten, dtype.
Status ArgExtreme(const Op& op, Translator* t, const std::string& type) {
  AttrReader a(op);
  const bool keepdims = a.Bool("keepdims", false);
  const bool flatten = a.Bool("flatten", false);
  const std::string dtype = a.Str("dtype", "int64");
  RETURN_IF_ERROR(a.status());
  int code = 3;
  RETURN_IF_ERROR(DtypeCode(dtype, &code));
  ASSIGN_OR_RETURN(double axis, t->ConstScalar(op, 1, "axis"));
  ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, type, {"X"}));
  d->SetAttr("axis", static_cast<int64_t>(axis));
  d->SetAttr("keepdims", keepdims);
  d->SetAttr("flatten", flatten);
  d->SetAttr("dtype", static_cast<int32_t>(code));
  return Status::OK();
}

Status Cast(const Op& op, Translator* t) {
  AttrReader a(op);
  const std::string dtype = a.Str("dtype");
  RETURN_IF_ERROR(a.status());
  int out_code = 5, in_code = 5;
  RETURN_IF_ERROR(DtypeCode(dtype, &out_code));
  const Type* in_type = t->OperandType(op, 0);
  if (in_type != nullptr && !in_type->dtype.empty()) {
    RETURN_IF_ERROR(DtypeCode(in_type->dtype, &in_code));
  }
  ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, "cast", {"X"}));
  d->SetAttr("in_dtype", static_cast<int32_t>(in_code));
  d->SetAttr("out_dtype", static_cast<int32_t>(out_code));
  return Status::OK();
}

// pow(x, y): Paddle declares y a mutable Scalar (op_compat: tensor_name
// FactorTensor), so Paddle 3's pd_op.pow takes it as operand 1 (a
// pd_op.full); programs that carry it as attribute y are read too.
Status Pow(const Op& op, Translator* t) {
  double factor = 1.0;
  if (t->Present(op, 1)) {
    ASSIGN_OR_RETURN(factor, t->ConstScalar(op, 1, "y"));
  } else {
    AttrReader a(op);
    factor = a.Float("y", 1.0);
    RETURN_IF_ERROR(a.status());
  }
  ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, "pow", {"X"}));
  d->SetAttr("factor", static_cast<float>(factor));
  return Status::OK();
}

AttrMap FloatAttr(const char* pir_name, const char* engine_name, double fallback) {
  return [=](AttrReader* a, cpp::OpDesc* d) {
    d->SetAttr(engine_name, static_cast<float>(a->Float(pir_name, fallback)));
    return Status::OK();
  };
}

AttrMap Fixed(std::vector<std::pair<const char*, float>> values) {
  return [=](AttrReader*, cpp::OpDesc* d) {
    for (const auto& v : values) d->SetAttr(v.first, v.second);
    return Status::OK();
  };
}

}  // namespace

void AddMathRules(RuleTable* table) {
  struct UnaryRule {
    const char* pir;
    const char* engine;
    AttrMap attrs;
  };
  const UnaryRule unary[] = {
      {"relu", "relu", nullptr},
      {"relu6", "relu6", Fixed({{"threshold", 6.0f}})},
      {"sigmoid", "sigmoid", nullptr},
      {"tanh", "tanh", nullptr},
      {"exp", "exp", nullptr},
      {"log", "log", nullptr},
      {"sqrt", "sqrt", nullptr},
      {"abs", "abs", nullptr},
      // phi's hardswish has no attributes: threshold 6, scale 6, offset 3.
      {"hardswish", "hard_swish", Fixed({{"threshold", 6.0f}, {"scale", 6.0f}, {"offset", 3.0f}})},
      {"hardsigmoid", "hard_sigmoid",
       [](AttrReader* a, cpp::OpDesc* d) {
         d->SetAttr("slope", static_cast<float>(a->Float("slope")));
         d->SetAttr("offset", static_cast<float>(a->Float("offset")));
         return Status::OK();
       }},
      // phi swish and silu are x * sigmoid(x).
      {"swish", "swish", Fixed({{"beta", 1.0f}})},
      {"silu", "swish", Fixed({{"beta", 1.0f}})},
      {"leaky_relu", "leaky_relu", FloatAttr("negative_slope", "alpha", 0.02)},
      {"elu", "elu", FloatAttr("alpha", "alpha", 1.0)},
      {"selu", "selu",
       [](AttrReader* a, cpp::OpDesc* d) {
         d->SetAttr("scale", static_cast<float>(a->Float("scale")));
         d->SetAttr("alpha", static_cast<float>(a->Float("alpha")));
         return Status::OK();
       }},
      {"softplus", "softplus",
       [](AttrReader* a, cpp::OpDesc* d) {
         d->SetAttr("beta", static_cast<float>(a->Float("beta", 1.0)));
         d->SetAttr("threshold", static_cast<float>(a->Float("threshold", 20.0)));
         return Status::OK();
       }},
      {"softsign", "softsign", nullptr},
      {"mish", "mish", FloatAttr("lambda", "threshold", 20.0)},
      {"hardtanh", "hardtanh",
       [](AttrReader* a, cpp::OpDesc* d) {
         d->SetAttr("t_min", static_cast<float>(a->Float("t_min")));
         d->SetAttr("t_max", static_cast<float>(a->Float("t_max")));
         return Status::OK();
       }},
      {"thresholded_relu", "thresholded_relu",
       [](AttrReader* a, cpp::OpDesc* d) {
         d->SetAttr("threshold", static_cast<float>(a->Float("threshold", 1.0)));
         d->SetAttr("value", static_cast<float>(a->Float("value", 0.0)));
         return Status::OK();
       }},
      {"logsigmoid", "logsigmoid", nullptr},
      {"rsqrt", "rsqrt", nullptr},
      {"square", "square", nullptr},
      {"floor", "floor", nullptr},
      {"ceil", "ceil", nullptr},
      {"round", "round", FloatAttr("decimals", "decimals", 0.0)},
      {"sign", "sign", nullptr},
      {"erf", "erf", nullptr},
      {"logical_not", "logical_not", nullptr},
      {"bitwise_not", "bitwise_not", nullptr},
      {"gelu", "gelu",
       [](AttrReader* a, cpp::OpDesc* d) {
         d->SetAttr("approximate", a->Bool("approximate", false));
         return Status::OK();
       }},
  };
  for (const UnaryRule& u : unary) {
    const std::string engine = u.engine;
    const AttrMap attrs = u.attrs;
    const Rule rule = [engine, attrs](const Op& op, Translator* t) {
      return Unary(op, t, engine, attrs);
    };
    (*table)[std::string("pd_op.") + u.pir] = rule;
    (*table)[std::string("pd_op.") + u.pir + "_"] = rule;
  }
  const std::pair<const char*, const char*> binary[] = {
      {"add", "elementwise_add"},      {"subtract", "elementwise_sub"},
      {"multiply", "elementwise_mul"}, {"divide", "elementwise_div"},
      {"maximum", "elementwise_max"},  {"minimum", "elementwise_min"},
      {"elementwise_pow", "elementwise_pow"}, {"equal", "equal"},
      {"not_equal", "not_equal"},      {"less_than", "less_than"},
      {"less_equal", "less_equal"},    {"greater_than", "greater_than"},
      {"greater_equal", "greater_equal"}, {"logical_and", "logical_and"},
      {"logical_or", "logical_or"},    {"logical_xor", "logical_xor"},
      {"bitwise_and", "bitwise_and"},  {"bitwise_or", "bitwise_or"},
      {"bitwise_xor", "bitwise_xor"}};
  for (const auto& b : binary) {
    const std::string engine = b.second;
    const Rule rule = [engine](const Op& op, Translator* t) { return Binary(op, t, engine); };
    (*table)[std::string("pd_op.") + b.first] = rule;
    (*table)[std::string("pd_op.") + b.first + "_"] = rule;
  }
  (*table)["pd_op.scale"] = Scale;
  (*table)["pd_op.scale_"] = Scale;
  (*table)["pd_op.clip"] = Clip;
  (*table)["pd_op.clip_"] = Clip;
  (*table)["pd_op.matmul"] = Matmul;
  const std::pair<const char*, const char*> reduce[] = {
      {"mean", "reduce_mean"}, {"sum", "reduce_sum"}, {"max", "reduce_max"},
      {"min", "reduce_min"},   {"prod", "reduce_prod"}};
  for (const auto& r : reduce) {
    const std::string engine = r.second;
    (*table)[std::string("pd_op.") + r.first] = [engine](const Op& op, Translator* t) {
      return Reduce(op, t, engine);
    };
  }
  (*table)["pd_op.argmax"] = [](const Op& op, Translator* t) {
    return ArgExtreme(op, t, "arg_max");
  };
  (*table)["pd_op.argmin"] = [](const Op& op, Translator* t) {
    return ArgExtreme(op, t, "arg_min");
  };
  (*table)["pd_op.bmm"] = [](const Op& op, Translator* t) {
    return t->EmitSimple(op, "bmm", {"X", "Y"}).status();
  };
  (*table)["pd_op.pow"] = Pow;
  (*table)["pd_op.cast"] = Cast;
  (*table)["pd_op.cast_"] = Cast;
}

}  // namespace pir
}  // namespace lite
