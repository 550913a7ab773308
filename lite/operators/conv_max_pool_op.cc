#include "lite/operators/conv_max_pool_op.h"

#include "lite/operators/op_with_param.h"

namespace lite {
namespace operators {

namespace {

class ConvMaxPoolOp : public OpWithParam<ConvMaxPoolParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;
  int64_t Flops() const override { return conv_ ? conv_->Flops() : 0; }

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  std::unique_ptr<OpLite> conv_, pool_;
};

}  // namespace

Status ConvMaxPoolOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  // The fused op's own bindings (the runtime watches these for dims changes).
  RETURN_IF_ERROR(Input("Input").status());
  RETURN_IF_ERROR(Input("Filter").status());
  OptionalInput("Bias");
  RETURN_IF_ERROR(Output("Out").status());
  const std::string pooled = desc.Output("Out")[0];
  const std::string conv_out = pooled + "@conv";

  cpp::OpDesc conv("conv2d");
  for (const char* in : {"Input", "Filter", "Bias"}) {
    if (desc.HasInput(in)) conv.SetInput(in, desc.Input(in));
  }
  conv.SetOutput("Output", {conv_out});
  cpp::OpDesc pool("pool2d");
  pool.SetInput("X", {conv_out});
  pool.SetOutput("Out", {pooled});
  pool.SetAttr("pooling_type", std::string("max"));
  for (const auto& kv : desc.attrs()) {
    bool pool_attr = false;
    for (const auto& names : kPoolAttrs) {
      if (kv.first == names[1]) {
        pool.SetRawAttr(names[0], kv.second);
        pool_attr = true;
      }
    }
    if (!pool_attr) conv.SetRawAttr(kv.first, kv.second);
  }
  conv_ = std::make_unique<ConvOp>("conv2d");
  pool_ = std::make_unique<PoolOp>("pool2d", PoolOpKind::kPool2d);
  RETURN_IF_ERROR(conv_->Attach(conv, scope));
  RETURN_IF_ERROR(pool_->Attach(pool, scope));
  param_.conv = static_cast<ConvParam*>(conv_->param());
  param_.pool = static_cast<PoolParam*>(pool_->param());
  return Status::OK();
}

Status ConvMaxPoolOp::CheckShape() const {
  RETURN_IF_ERROR(conv_->CheckShape());
  // The pool's input dims come from the conv's shape rule.
  return Status::OK();
}

Status ConvMaxPoolOp::InferShape() {
  RETURN_IF_ERROR(conv_->InferShape());
  RETURN_IF_ERROR(pool_->CheckShape());
  return pool_->InferShape();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(conv2d_max_pool, lite::operators::ConvMaxPoolOp);
