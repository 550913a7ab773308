#include "lite/operators/rnn_ops.h"

#include "lite/operators/op_with_param.h"
#include "lite/operators/sequence_ops.h"

namespace lite {
namespace operators {

namespace {

class LstmOp : public OpWithParam<LstmParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

// gru and gru_unit.
// The op types GruOp serves.
enum class GruOpKind { kGru, kGruUnit };

class GruOp : public OpWithParam<GruParam> {
 public:
  GruOp(std::string type, GruOpKind kind)
      : OpWithParam<GruParam>(std::move(type)), kind_(kind) {}
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  const GruOpKind kind_;
};

}  // namespace

StatusOr<RnnActivation> ParseRnnActivation(const OpLite& op, const std::string& attr,
                                           const std::string& value) {
  if (value == "sigmoid") return RnnActivation::kSigmoid;
  if (value == "tanh") return RnnActivation::kTanh;
  if (value == "relu") return RnnActivation::kRelu;
  if (value == "identity" || value.empty()) return RnnActivation::kIdentity;
  return InvalidArgument("op " + op.DebugName() + ": attribute " + attr + " '" + value +
                         "' is not one of sigmoid, tanh, relu, identity");
}

namespace {

// Input must carry exactly one LoD level that splits its rows (Paddle's
// sequence-to-batch reordering supports one level only).
Status CheckOneLevel(const OpLite& op, const Tensor& input) {
  if (input.lod().size() > 1) {
    return InvalidArgument("op " + op.DebugName() + ": Input has " +
                           std::to_string(input.lod().size()) +
                           " LoD levels; only one level is supported");
  }
  return CheckLastLevel(op, input.lod(), input.dims().empty() ? 0 : input.dims()[0]);
}

// H0/C0 (when bound) must be [number of sequences, D].
Status CheckInitState(const OpLite& op, const char* name, const Tensor* t, int64_t seqs,
                      int64_t d) {
  if (!t) return Status::OK();
  if (t->dims() != DDim{seqs, d}) {
    return InvalidArgument("op " + op.DebugName() + ": " + name + " must be [" +
                           std::to_string(seqs) + ", " + std::to_string(d) +
                           "] (sequences x hidden size), got " + DimsToString(t->dims()));
  }
  return Status::OK();
}

}  // namespace

// lstm -----------------------------------------------------------------------

Status LstmOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * input, Input("Input"));
  ASSIGN_OR_RETURN(Tensor * weight, Input("Weight"));
  ASSIGN_OR_RETURN(Tensor * bias, Input("Bias"));
  param_.input = input;
  param_.weight = weight;
  param_.bias = bias;
  param_.h0 = OptionalInput("H0");
  param_.c0 = OptionalInput("C0");
  if (param_.h0 && !param_.c0) return OpError("H0 is given without C0 (Paddle needs both)");
  ASSIGN_OR_RETURN(param_.hidden, Output("Hidden"));
  ASSIGN_OR_RETURN(param_.cell, Output("Cell"));
  param_.batch_gate = OptionalOutput("BatchGate");
  param_.batch_cell_pre_act = OptionalOutput("BatchCellPreAct");
  param_.use_peepholes = desc.GetAttr<bool>("use_peepholes", true);
  param_.is_reverse = desc.GetAttr<bool>("is_reverse", false);
  ASSIGN_OR_RETURN(param_.gate_act,
                   ParseRnnActivation(*this, "gate_activation",
                                      desc.GetAttr<std::string>("gate_activation", "sigmoid")));
  ASSIGN_OR_RETURN(param_.cell_act,
                   ParseRnnActivation(*this, "cell_activation",
                                      desc.GetAttr<std::string>("cell_activation", "tanh")));
  ASSIGN_OR_RETURN(param_.cand_act,
                   ParseRnnActivation(*this, "candidate_activation",
                                      desc.GetAttr<std::string>("candidate_activation", "tanh")));
  return Status::OK();
}

Status LstmOp::CheckShape() const {
  const DDim& w = param_.weight->dims();
  if (w.size() != 2 || w[1] != 4 * w[0]) {
    return OpError("Weight must be [D, 4D], got " + DimsToString(w));
  }
  const int64_t d = w[0];
  const DDim want_bias{1, (param_.use_peepholes ? 7 : 4) * d};
  if (param_.bias->dims() != want_bias) {
    return OpError("Bias must be " + DimsToString(want_bias) +
                   (param_.use_peepholes ? " (use_peepholes: 4D gate biases + W_ic, W_fc, W_oc)"
                                         : " (4D gate biases)") +
                   ", got " + DimsToString(param_.bias->dims()));
  }
  return Status::OK();
}

Status LstmOp::InferShape() {
  const DDim& in = param_.input->dims();
  const int64_t d = param_.weight->dims()[0];
  if (in.size() != 2 || in[1] != 4 * d) {
    return OpError("Input must be [T, 4D] = [T, " + std::to_string(4 * d) + "], got " +
                   DimsToString(in));
  }
  RETURN_IF_ERROR(CheckOneLevel(*this, *param_.input));
  const int64_t seqs = static_cast<int64_t>(param_.input->lod().back().size()) - 1;
  RETURN_IF_ERROR(CheckInitState(*this, "H0", param_.h0, seqs, d));
  RETURN_IF_ERROR(CheckInitState(*this, "C0", param_.c0, seqs, d));
  for (Tensor* t : {param_.hidden, param_.cell}) {
    t->Resize({in[0], d});
    t->set_lod(param_.input->lod());
  }
  if (param_.batch_gate) param_.batch_gate->Resize(in);
  if (param_.batch_cell_pre_act) param_.batch_cell_pre_act->Resize({in[0], d});
  return Status::OK();
}

// gru / gru_unit ---------------------------------------------------------------

namespace {

StatusOr<RnnActivation> UnitActivation(const OpLite& op, const std::string& attr, int value) {
  switch (value) {
    case 0: return RnnActivation::kIdentity;
    case 1: return RnnActivation::kSigmoid;
    case 2: return RnnActivation::kTanh;
    case 3: return RnnActivation::kRelu;
    default:
      return InvalidArgument("op " + op.DebugName() + ": attribute " + attr + " " +
                             std::to_string(value) +
                             " is not one of 0 identity, 1 sigmoid, 2 tanh, 3 relu");
  }
}

}  // namespace

Status GruOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  param_.unit = kind_ == GruOpKind::kGruUnit;
  ASSIGN_OR_RETURN(Tensor * input, Input("Input"));
  ASSIGN_OR_RETURN(Tensor * weight, Input("Weight"));
  param_.input = input;
  param_.weight = weight;
  param_.bias = OptionalInput("Bias");
  ASSIGN_OR_RETURN(param_.hidden, Output("Hidden"));
  param_.origin_mode = desc.GetAttr<bool>("origin_mode", false);
  if (param_.unit) {
    ASSIGN_OR_RETURN(Tensor * prev, Input("HiddenPrev"));
    param_.h0 = prev;
    param_.batch_gate = OptionalOutput("Gate");
    param_.batch_reset_hidden = OptionalOutput("ResetHiddenPrev");
    ASSIGN_OR_RETURN(param_.gate_act,
                     UnitActivation(*this, "gate_activation",
                                    desc.GetAttr<int32_t>("gate_activation", 1)));
    ASSIGN_OR_RETURN(param_.cand_act,
                     UnitActivation(*this, "activation", desc.GetAttr<int32_t>("activation", 2)));
    return Status::OK();
  }
  param_.h0 = OptionalInput("H0");
  param_.batch_gate = OptionalOutput("BatchGate");
  param_.batch_reset_hidden = OptionalOutput("BatchResetHiddenPrev");
  param_.batch_hidden = OptionalOutput("BatchHidden");
  param_.is_reverse = desc.GetAttr<bool>("is_reverse", false);
  ASSIGN_OR_RETURN(param_.gate_act,
                   ParseRnnActivation(*this, "gate_activation",
                                      desc.GetAttr<std::string>("gate_activation", "sigmoid")));
  ASSIGN_OR_RETURN(param_.cand_act,
                   ParseRnnActivation(*this, "activation",
                                      desc.GetAttr<std::string>("activation", "tanh")));
  return Status::OK();
}

Status GruOp::CheckShape() const {
  const DDim& w = param_.weight->dims();
  if (w.size() != 2 || w[1] != 3 * w[0]) {
    return OpError("Weight must be [D, 3D], got " + DimsToString(w));
  }
  if (param_.bias && param_.bias->dims() != DDim{1, 3 * w[0]}) {
    return OpError("Bias must be [1, " + std::to_string(3 * w[0]) + "], got " +
                   DimsToString(param_.bias->dims()));
  }
  return Status::OK();
}

Status GruOp::InferShape() {
  const DDim& in = param_.input->dims();
  const int64_t d = param_.weight->dims()[0];
  if (in.size() != 2 || in[1] != 3 * d) {
    return OpError("Input must be [rows, 3D] = [rows, " + std::to_string(3 * d) + "], got " +
                   DimsToString(in));
  }
  if (param_.unit) {
    if (param_.h0->dims() != DDim{in[0], d}) {
      return OpError("HiddenPrev must be [" + std::to_string(in[0]) + ", " +
                     std::to_string(d) + "], got " + DimsToString(param_.h0->dims()));
    }
  } else {
    RETURN_IF_ERROR(CheckOneLevel(*this, *param_.input));
    const int64_t seqs = static_cast<int64_t>(param_.input->lod().back().size()) - 1;
    RETURN_IF_ERROR(CheckInitState(*this, "H0", param_.h0, seqs, d));
  }
  param_.hidden->Resize({in[0], d});
  param_.hidden->set_lod(param_.input->lod());
  if (param_.batch_gate) param_.batch_gate->Resize(in);
  for (Tensor* t : {param_.batch_reset_hidden, param_.batch_hidden}) {
    if (t) t->Resize({in[0], d});
  }
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(lstm, lite::operators::LstmOp);
REGISTER_LITE_OP_KIND(gru, lite::operators::GruOp, lite::operators::GruOpKind::kGru);
REGISTER_LITE_OP_KIND(gru_unit, lite::operators::GruOp, lite::operators::GruOpKind::kGruUnit);
