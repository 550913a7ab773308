#include "lite/operators/conv_transpose_pair_op.h"

#include "lite/operators/op_with_param.h"

namespace lite {
namespace operators {

namespace {

class ConvTransposePairOp : public OpWithParam<ConvTransposePairParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;
  // The two transposes' sum; 0 when either is not known.
  int64_t Flops() const override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  std::unique_ptr<OpLite> first_, second_;
};

}  // namespace

namespace {
std::string Prefix(int i) { return "conv" + std::to_string(i) + "_"; }
std::string Param(const char* name, int i) { return name + std::to_string(i); }
}  // namespace

cpp::OpDesc MakeConvTransposePair(const cpp::OpDesc& first, const cpp::OpDesc& second) {
  cpp::OpDesc fused("conv2d_transpose_pair");
  fused.SetInput("Input", first.Input("Input"));
  const cpp::OpDesc* parts[] = {&first, &second};
  for (int i = 0; i < 2; ++i) {
    fused.SetInput(Param("Filter", i), parts[i]->Input("Filter"));
    if (parts[i]->HasInput("Bias")) fused.SetInput(Param("Bias", i), parts[i]->Input("Bias"));
    for (const auto& kv : parts[i]->attrs()) fused.SetRawAttr(Prefix(i) + kv.first, kv.second);
  }
  fused.SetOutput("Out", second.Output("Output"));
  return fused;
}

cpp::OpDesc ConvTransposePairPart(const cpp::OpDesc& fused, int i) {
  cpp::OpDesc part("conv2d_transpose");
  const std::string mid = fused.Output("Out")[0] + "@0";
  part.SetInput("Input", i == 0 ? fused.Input("Input") : std::vector<std::string>{mid});
  part.SetInput("Filter", fused.Input(Param("Filter", i)));
  if (fused.HasInput(Param("Bias", i))) part.SetInput("Bias", fused.Input(Param("Bias", i)));
  part.SetOutput("Output", i == 0 ? std::vector<std::string>{mid} : fused.Output("Out"));
  const std::string prefix = Prefix(i);
  for (const auto& kv : fused.attrs()) {
    if (kv.first.compare(0, prefix.size(), prefix) == 0) {
      part.SetRawAttr(kv.first.substr(prefix.size()), kv.second);
    }
  }
  return part;
}

Status ConvTransposePairOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  // The fused op's own bindings (the runtime watches these for dims changes).
  RETURN_IF_ERROR(Input("Input").status());
  RETURN_IF_ERROR(Input("Filter0").status());
  RETURN_IF_ERROR(Input("Filter1").status());
  OptionalInput("Bias0");
  OptionalInput("Bias1");
  RETURN_IF_ERROR(Output("Out").status());
  first_ = std::make_unique<ConvTransposeOp>("conv2d_transpose");
  second_ = std::make_unique<ConvTransposeOp>("conv2d_transpose");
  RETURN_IF_ERROR(first_->Attach(ConvTransposePairPart(desc, 0), scope));
  RETURN_IF_ERROR(second_->Attach(ConvTransposePairPart(desc, 1), scope));
  param_.first = static_cast<ConvTransposeParam*>(first_->param());
  param_.second = static_cast<ConvTransposeParam*>(second_->param());
  return Status::OK();
}

Status ConvTransposePairOp::CheckShape() const {
  // The second's input dims come from the first's shape rule.
  return first_->CheckShape();
}

Status ConvTransposePairOp::InferShape() {
  RETURN_IF_ERROR(first_->InferShape());
  RETURN_IF_ERROR(second_->CheckShape());
  return second_->InferShape();
}

int64_t ConvTransposePairOp::Flops() const {
  const int64_t a = first_ ? first_->Flops() : 0, b = second_ ? second_->Flops() : 0;
  return a > 0 && b > 0 ? a + b : 0;
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(conv2d_transpose_pair, lite::operators::ConvTransposePairOp);
