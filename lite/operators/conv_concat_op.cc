#include "lite/operators/conv_concat_op.h"

#include "lite/operators/op_with_param.h"

namespace lite {
namespace operators {

namespace {

class ConvConcatOp : public OpWithParam<ConvConcatParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;
  // The convs' sum; 0 when any of them is not known.
  int64_t Flops() const override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  std::vector<std::unique_ptr<OpLite>> convs_;
  std::unique_ptr<OpLite> concat_;
};

}  // namespace

namespace {
const char* const kDataParams[] = {"Input", "Filter", "Bias"};
std::string Prefix(int i) { return "conv" + std::to_string(i) + "_"; }
}  // namespace

std::string ConvConcatPartOutput(const std::string& out, int i) {
  return out + "@" + std::to_string(i);
}

cpp::OpDesc MakeConvConcat(const std::vector<const cpp::OpDesc*>& convs, const std::string& out) {
  cpp::OpDesc fused("conv2d_concat");
  for (const char* param : kDataParams) {
    std::vector<std::string> vars;
    for (const cpp::OpDesc* c : convs) {
      if (c->HasInput(param) && !c->Input(param).empty()) vars.push_back(c->Input(param)[0]);
    }
    if (!vars.empty()) fused.SetInput(param, vars);
  }
  fused.SetOutput("Out", {out});
  fused.SetAttr("axis", 1);
  fused.SetAttr("conv_count", static_cast<int>(convs.size()));
  for (size_t i = 0; i < convs.size(); ++i) {
    for (const auto& kv : convs[i]->attrs()) fused.SetRawAttr(Prefix(i) + kv.first, kv.second);
  }
  return fused;
}

int ConvConcatCount(const cpp::OpDesc& fused) {
  const int n = fused.GetAttr<int>("conv_count", 0);
  if (n < 1 || !fused.HasInput("Input") || !fused.HasInput("Filter") ||
      fused.Input("Input").size() != static_cast<size_t>(n) ||
      fused.Input("Filter").size() != static_cast<size_t>(n) ||
      (fused.HasInput("Bias") && fused.Input("Bias").size() != static_cast<size_t>(n)) ||
      !fused.HasOutput("Out") || fused.Output("Out").size() != 1) {
    return 0;
  }
  return n;
}

cpp::OpDesc ConvConcatPart(const cpp::OpDesc& fused, int i) {
  cpp::OpDesc conv("conv2d");
  for (const char* param : kDataParams) {
    if (fused.HasInput(param)) conv.SetInput(param, {fused.Input(param)[i]});
  }
  conv.SetOutput("Output", {ConvConcatPartOutput(fused.Output("Out")[0], i)});
  const std::string prefix = Prefix(i);
  for (const auto& kv : fused.attrs()) {
    if (kv.first.compare(0, prefix.size(), prefix) == 0) {
      conv.SetRawAttr(kv.first.substr(prefix.size()), kv.second);
    }
  }
  return conv;
}

Status ConvConcatOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  const int n = ConvConcatCount(desc);
  if (n == 0) {
    return OpError("needs conv_count >= 1 and that many Input, Filter (and Bias, if any) vars, "
                   "and one Out");
  }
  if (desc.GetAttr<int>("axis", 1) != 1) return OpError("axis must be 1");
  // The fused op's own bindings (the runtime watches these for dims changes).
  for (const char* param : kDataParams) InputList(param);
  RETURN_IF_ERROR(Output("Out").status());
  cpp::OpDesc concat("concat");
  std::vector<std::string> parts;
  convs_.clear();
  param_.convs.clear();
  for (int i = 0; i < n; ++i) {
    const cpp::OpDesc conv = ConvConcatPart(desc, i);
    parts.push_back(conv.Output("Output")[0]);
    convs_.push_back(std::make_unique<ConvOp>("conv2d"));
    RETURN_IF_ERROR(convs_.back()->Attach(conv, scope));
    param_.convs.push_back(static_cast<ConvParam*>(convs_.back()->param()));
  }
  concat.SetInput("X", parts);
  concat.SetOutput("Out", desc.Output("Out"));
  concat.SetAttr("axis", 1);
  concat_ = std::make_unique<ConcatOp>("concat");
  RETURN_IF_ERROR(concat_->Attach(concat, scope));
  param_.concat = static_cast<ConcatParam*>(concat_->param());
  return Status::OK();
}

Status ConvConcatOp::CheckShape() const {
  for (const auto& conv : convs_) RETURN_IF_ERROR(conv->CheckShape());
  // The concat's input dims come from the convs' shape rules.
  return Status::OK();
}

Status ConvConcatOp::InferShape() {
  for (const auto& conv : convs_) RETURN_IF_ERROR(conv->InferShape());
  RETURN_IF_ERROR(concat_->CheckShape());
  return concat_->InferShape();
}

}  // namespace operators
}  // namespace lite

namespace lite {
namespace operators {

int64_t ConvConcatOp::Flops() const {
  int64_t flops = 0;
  for (const auto& conv : convs_) {
    const int64_t f = conv->Flops();
    if (f == 0) return 0;
    flops += f;
  }
  return flops;
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(conv2d_concat, lite::operators::ConvConcatOp);
