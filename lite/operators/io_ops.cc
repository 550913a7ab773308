#include "lite/operators/io_ops.h"

#include "lite/operators/op_with_param.h"

namespace lite {
namespace operators {

namespace {

class FeedOp : public OpWithParam<FeedFetchParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

class FetchOp : public OpWithParam<FeedFetchParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override { return Status::OK(); }

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

}  // namespace

Status FeedOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  const auto& x = desc.Input("X");
  if (x.empty()) return OpError("missing input 'X' (the feed list)");
  param_.feed_list = scope->Var(x.front())->GetMutableTensorList();
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  param_.col = desc.GetAttr<int32_t>("col", 0);
  if (param_.col < 0) return OpError("negative col");
  return Status::OK();
}

Status FeedOp::CheckShape() const {
  if (param_.col >= static_cast<int>(param_.feed_list->size())) {
    return FailedPrecondition("feed column " + std::to_string(param_.col) +
                              " was not set (input not fed)");
  }
  return Status::OK();
}

Status FeedOp::InferShape() {
  // The feed kernel copies dims with the data; nothing to infer up front.
  return CheckShape();
}

Status FetchOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  const auto& out = desc.Output("Out");
  if (out.empty()) return OpError("missing output 'Out' (the fetch list)");
  param_.fetch_list = scope->Var(out.front())->GetMutableTensorList();
  param_.col = desc.GetAttr<int32_t>("col", 0);
  if (param_.col < 0) return OpError("negative col");
  return Status::OK();
}

Status FetchOp::CheckShape() const { return Status::OK(); }

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(feed, lite::operators::FeedOp);
REGISTER_LITE_OP(fetch, lite::operators::FetchOp);
