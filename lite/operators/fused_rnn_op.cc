#include "lite/operators/fused_rnn_op.h"

#include "lite/operators/op_with_param.h"

namespace lite {
namespace operators {

namespace {

class FusedRnnOp : public OpWithParam<FusedRnnParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;
  int64_t Flops() const override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

}  // namespace

int FusedRnnGates(FusedRnnMode mode) {
  switch (mode) {
    case FusedRnnMode::kLstm: return 4;
    case FusedRnnMode::kGru: return 3;
    default: return 1;
  }
}

Status FusedRnnOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * input, Input("Input"));
  param_.input = input;
  param_.pre_state.clear();
  for (Tensor* t : InputList("PreState")) param_.pre_state.push_back(t);
  param_.weights.clear();
  for (Tensor* t : InputList("WeightList")) param_.weights.push_back(t);
  param_.sequence_length = OptionalInput("SequenceLength");
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  param_.state = OutputList("State");
  param_.reserve = OptionalOutput("Reserve");
  param_.dropout_state = OptionalOutput("DropoutState");
  const std::string mode = desc.GetAttr<std::string>("mode", "RNN_TANH");
  if (mode == "LSTM") {
    param_.mode = FusedRnnMode::kLstm;
  } else if (mode == "GRU") {
    param_.mode = FusedRnnMode::kGru;
  } else if (mode == "RNN_TANH") {
    param_.mode = FusedRnnMode::kRnnTanh;
  } else if (mode == "RNN_RELU") {
    param_.mode = FusedRnnMode::kRnnRelu;
  } else {
    return OpError("attribute mode '" + mode + "' is not one of LSTM, GRU, RNN_TANH, RNN_RELU");
  }
  // Paddle's rnn never writes a var it reads; the kernel reads its inputs
  // after sizing its outputs, so an aliased pair is refused.
  for (const std::string& out : desc.OutputArgumentNames()) {
    for (const std::string& in : desc.InputArgumentNames()) {
      if (out == in) return OpError("var '" + out + "' is both an input and an output");
    }
  }
  param_.bidirectional = desc.GetAttr<bool>("is_bidirec", false);
  param_.num_layers = desc.GetAttr<int32_t>("num_layers", 1);
  param_.hidden_size = desc.GetAttr<int32_t>("hidden_size", 100);
  param_.input_size = desc.GetAttr<int32_t>("input_size", 10);
  return Status::OK();
}

namespace {

std::string Str(int64_t v) { return std::to_string(v); }

}  // namespace

// The weights and states are checked here; Input against them in
// InferShape.
Status FusedRnnOp::CheckShape() const {
  const FusedRnnParam& p = param_;
  if (p.num_layers < 1) {
    return OpError("attribute num_layers must be >= 1, got " + Str(p.num_layers));
  }
  if (p.hidden_size < 1) {
    return OpError("attribute hidden_size must be >= 1, got " + Str(p.hidden_size));
  }
  const bool lstm = p.mode == FusedRnnMode::kLstm;
  if (p.pre_state.size() != (lstm ? 2u : 1u)) {
    return OpError(std::string("PreState must hold ") +
                   (lstm ? "2 tensors (h0, c0)" : "1 tensor (h0)") + ", got " +
                   Str(p.pre_state.size()));
  }
  if (p.state.size() != p.pre_state.size()) {
    return OpError("State must hold " + Str(p.pre_state.size()) + " tensors like PreState, got " +
                   Str(p.state.size()));
  }
  const int d_count = p.directions();
  const int64_t layers_dirs = static_cast<int64_t>(p.num_layers) * d_count;
  if (static_cast<int64_t>(p.weights.size()) != 4 * layers_dirs) {
    return OpError("WeightList must hold 4 * num_layers * directions = " + Str(4 * layers_dirs) +
                   " tensors (w_ih, w_hh per layer and direction, then b_ih, b_hh), got " +
                   Str(p.weights.size()));
  }
  const int64_t h = p.hidden_size, gh = FusedRnnGates(p.mode) * h;
  for (int l = 0; l < p.num_layers; ++l) {
    const int64_t in = l == 0 ? p.input_size : d_count * h;
    for (int d = 0; d < d_count; ++d) {
      const std::string where = " of layer " + Str(l) + " direction " + Str(d);
      struct Want {
        const Tensor* t;
        const char* name;
        DDim dims;
      };
      for (const Want& w :
           {Want{p.w_ih(l, d), "w_ih", {gh, in}}, Want{p.w_hh(l, d), "w_hh", {gh, h}},
            Want{p.b_ih(l, d), "b_ih", {gh}}, Want{p.b_hh(l, d), "b_hh", {gh}}}) {
        if (w.t->dims() != w.dims) {
          return OpError(std::string("WeightList ") + w.name + where + " must be " +
                         DimsToString(w.dims) + " (gates x hidden_size = " + Str(gh) +
                         (l == 0 ? ", input_size" : "") + "), got " + DimsToString(w.t->dims()));
        }
      }
    }
  }
  return Status::OK();
}

Status FusedRnnOp::InferShape() {
  const FusedRnnParam& p = param_;
  const DDim& in = p.input->dims();
  if (in.size() != 3) {
    return OpError("Input must be [T, N, input_size] (time major), got " + DimsToString(in));
  }
  if (in[2] != p.input_size) {
    return OpError("Input " + DimsToString(in) + " does not match attribute input_size " +
                   Str(p.input_size));
  }
  const DDim state_dims{static_cast<int64_t>(p.num_layers) * p.directions(), in[1], p.hidden_size};
  for (size_t i = 0; i < p.pre_state.size(); ++i) {
    if (p.pre_state[i]->dims() != state_dims) {
      return OpError(std::string("PreState ") + (i == 0 ? "h0" : "c0") + " must be " +
                     DimsToString(state_dims) + " (num_layers * directions, N, hidden_size), got " +
                     DimsToString(p.pre_state[i]->dims()));
    }
  }
  if (p.sequence_length) {
    const Tensor& len = *p.sequence_length;
    if (len.dims() != DDim{in[1]}) {
      return OpError("SequenceLength must be [N] = [" + Str(in[1]) + "], got " +
                     DimsToString(len.dims()));
    }
    if (len.dtype() != DataType::kInt32 && len.dtype() != DataType::kInt64) {
      return OpError(std::string("SequenceLength must be int32 or int64, got ") +
                     DataTypeName(len.dtype()));
    }
  }
  p.out->Resize({in[0], in[1], static_cast<int64_t>(p.directions()) * p.hidden_size});
  for (Tensor* s : p.state) s->Resize(state_dims);
  if (p.reserve) {
    p.reserve->Resize({0});
    p.reserve->set_dtype(DataType::kFloat32);
  }
  if (p.dropout_state) {
    p.dropout_state->Resize({0});
    p.dropout_state->set_dtype(DataType::kUInt8);
  }
  return Status::OK();
}

int64_t FusedRnnOp::Flops() const {
  const FusedRnnParam& p = param_;
  if (p.input->dims().size() != 3) return 0;
  const int64_t rows = p.input->dims()[0] * p.input->dims()[1];
  const int64_t gh = FusedRnnGates(p.mode) * static_cast<int64_t>(p.hidden_size);
  int64_t macs = 0;
  for (int l = 0; l < p.num_layers; ++l) {
    const int64_t in = l == 0 ? p.input_size : int64_t{p.directions()} * p.hidden_size;
    macs += p.directions() * rows * gh * (in + p.hidden_size);
  }
  return 2 * macs;
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(rnn, lite::operators::FusedRnnOp);
DECLARE_LITE_OP_ATTR_VALUES(rnn, mode, "GRU", "LSTM", "RNN_RELU", "RNN_TANH");
