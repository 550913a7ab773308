#include "lite/operators/unary_ops.h"

#include "lite/operators/op_with_param.h"

#include <algorithm>
#include <cmath>
#include <memory>

namespace lite {
namespace operators {

namespace {

class UnaryOp : public OpWithParam<UnaryParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

}  // namespace

namespace {

float Softplus(float x, float beta, float threshold) {
  return x * beta > threshold ? x : std::log1p(std::exp(beta * x)) / beta;
}

// Paddle's formulas (phi activation functors), float in and out.
std::vector<UnaryOpDef> MakeTable() {
  std::vector<UnaryOpDef> rows = {
      {"brelu", {{"t_min", 0.f}, {"t_max", 24.f}},
       [](float x, const float* a) { return std::min(std::max(x, a[0]), a[1]); }},
      {"ceil", {}, [](float x, const float*) { return std::ceil(x); }},
      {"elu", {{"alpha", 1.f}},
       [](float x, const float* a) { return x > 0.f ? x : a[0] * std::expm1(x); }},
      {"erf", {}, [](float x, const float*) { return std::erf(x); }},
      {"floor", {}, [](float x, const float*) { return std::floor(x); }},
      {"hardtanh", {{"t_min", 0.f}, {"t_max", 24.f}},
       [](float x, const float* a) { return std::min(std::max(x, a[0]), a[1]); }},
      {"logsigmoid", {},
       [](float x, const float*) {  // -log(1 + exp(-x)) without overflow
         return x < 0.f ? x - std::log1p(std::exp(x)) : -std::log1p(std::exp(-x));
       }},
      {"mish", {{"threshold", 20.f}},
       [](float x, const float* a) {
         return x * std::tanh(x > a[0] ? x : std::log1p(std::exp(x)));
       }},
      {"pow", {{"factor", 1.f}},
       [](float x, const float* a) { return std::pow(x, a[0]); },
       {"FactorTensor"}},
      {"round", {{"decimals", 0.f}},
       [](float x, const float* a) {
         if (a[0] == 0.f) return std::round(x);
         const float scale = std::pow(10.f, a[0]);
         return std::round(x * scale) / scale;
       }},
      {"rsqrt", {}, [](float x, const float*) { return 1.f / std::sqrt(x); }},
      {"selu", {{"scale", 1.0507009873554804934193349852946f},
                {"alpha", 1.6732632423543772848170429916717f}},
       [](float x, const float* a) { return a[0] * (x > 0.f ? x : a[1] * std::expm1(x)); }},
      {"sign", {},
       [](float x, const float*) { return x > 0.f ? 1.f : (x < 0.f ? -1.f : 0.f); }},
      {"silu", {}, [](float x, const float*) { return x / (1.f + std::exp(-x)); }},
      {"softplus", {{"beta", 1.f, /*nonzero=*/true}, {"threshold", 20.f}},
       [](float x, const float* a) { return Softplus(x, a[0], a[1]); }},
      {"softsign", {}, [](float x, const float*) { return x / (1.f + std::fabs(x)); }},
      {"square", {}, [](float x, const float*) { return x * x; }},
      {"thresholded_relu", {{"threshold", 1.f}, {"value", 0.f}},
       [](float x, const float* a) { return x > a[0] ? x : a[1]; }},
  };
  std::sort(rows.begin(), rows.end(), [](const UnaryOpDef& a, const UnaryOpDef& b) {
    return std::string(a.type) < b.type;
  });
  return rows;
}

}  // namespace

const std::vector<UnaryOpDef>& UnaryOpTable() {
  static const std::vector<UnaryOpDef> table = MakeTable();
  return table;
}

const UnaryOpDef* FindUnaryOp(const std::string& type) {
  for (const auto& row : UnaryOpTable()) {
    if (type == row.type) return &row;
  }
  return nullptr;
}

Status UnaryOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  param_.def = FindUnaryOp(Type());
  if (!param_.def) return OpError("not a unary op type");
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  for (const char* input : param_.def->refused_inputs) {
    if (OptionalInput(input)) {
      return Unimplemented("op " + DebugName() + ": input " + input +
                           " (a run-time attribute) is not supported; give the attribute");
    }
  }
  const auto& attrs = param_.def->attrs;
  for (size_t i = 0; i < attrs.size(); ++i) {
    param_.attrs[i] = desc.GetAttr<float>(attrs[i].name, attrs[i].default_value);
  }
  return Status::OK();
}

Status UnaryOp::CheckShape() const {
  if (!param_.x) return OpError("input X is not bound");
  const auto& attrs = param_.def->attrs;
  for (size_t i = 0; i < attrs.size(); ++i) {
    if (attrs[i].nonzero && param_.attrs[i] == 0.f) {
      return OpError(std::string("attribute ") + attrs[i].name + " must be non-zero");
    }
  }
  return Status::OK();
}

Status UnaryOp::InferShape() {
  param_.out->Resize(param_.x->dims());
  param_.out->set_lod(param_.x->lod());
  return Status::OK();
}

namespace {
[[maybe_unused]] const bool registered = [] {
  for (const auto& row : UnaryOpTable()) {
    const std::string type = row.type;
    OpRegistry::Global().Register(type, [type] { return std::make_unique<UnaryOp>(type); });
  }
  return true;
}();
}  // namespace

}  // namespace operators
}  // namespace lite
