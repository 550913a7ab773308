#include "lite/operators/beam_search_ops.h"

#include "lite/operators/op_with_param.h"

namespace lite {
namespace operators {

namespace {

class BeamSearchOp : public OpWithParam<BeamSearchParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

class BeamSearchDecodeOp : public OpWithParam<BeamSearchDecodeParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

}  // namespace

Status BeamSearchOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * pre_ids, Input("pre_ids"));
  ASSIGN_OR_RETURN(Tensor * pre_scores, Input("pre_scores"));
  ASSIGN_OR_RETURN(Tensor * scores, Input("scores"));
  param_.pre_ids = pre_ids;
  param_.pre_scores = pre_scores;
  param_.scores = scores;
  param_.ids = OptionalInput("ids");
  ASSIGN_OR_RETURN(param_.selected_ids, Output("selected_ids"));
  ASSIGN_OR_RETURN(param_.selected_scores, Output("selected_scores"));
  param_.parent_idx = OptionalOutput("parent_idx");
  param_.level = desc.GetAttr<int32_t>("level", 0);
  param_.beam_size = desc.GetAttr<int32_t>("beam_size", 1);
  param_.end_id = desc.GetAttr<int32_t>("end_id", 0);
  param_.is_accumulated = desc.GetAttr<bool>("is_accumulated", true);
  return Status::OK();
}

Status BeamSearchOp::CheckShape() const {
  if (param_.beam_size < 1) return OpError("attribute beam_size must be >= 1");
  if (param_.level < 0) return OpError("attribute level must be >= 0");
  if (param_.pre_ids->dtype() != DataType::kInt64) return OpError("pre_ids must be int64");
  if (param_.pre_scores->dtype() != DataType::kFloat32) {
    return OpError("pre_scores must be float32");
  }
  if (param_.scores->dtype() != DataType::kFloat32) return OpError("scores must be float32");
  if (param_.ids && param_.ids->dtype() != DataType::kInt64) return OpError("ids must be int64");
  if (param_.scores->dims().size() < 1) return OpError("scores must have rows");
  const int64_t rows = param_.scores->dims()[0];
  if (param_.pre_ids->numel() != rows || param_.pre_scores->numel() != rows) {
    return OpError("pre_ids and pre_scores must hold one element per row of scores (" +
                   std::to_string(rows) + "), have " +
                   std::to_string(param_.pre_ids->numel()) + " and " +
                   std::to_string(param_.pre_scores->numel()));
  }
  if (param_.ids && param_.ids->dims() != param_.scores->dims()) {
    return OpError("ids " + DimsToString(param_.ids->dims()) + " and scores " +
                   DimsToString(param_.scores->dims()) + " must have the same dims");
  }
  return Status::OK();
}

Status BeamSearchOp::InferShape() {
  // The number of selected candidates depends on the data: the kernel sizes
  // the outputs.
  param_.selected_ids->set_dtype(DataType::kInt64);
  param_.selected_scores->set_dtype(DataType::kFloat32);
  if (param_.parent_idx) param_.parent_idx->set_dtype(DataType::kInt32);
  return Status::OK();
}

Status BeamSearchDecodeOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  for (const char* name : {"Ids", "Scores"}) {
    const auto& vars = desc.Input(name);
    if (vars.size() != 1) return OpError(std::string("'") + name + "' must name one tensor array");
    const Variable* v = scope->FindVar(vars[0]);
    if (!v) {
      return OpError("tensor array '" + vars[0] + "' (input " + name + ") is not in the scope");
    }
    (std::string(name) == "Ids" ? param_.ids : param_.scores) = v;
  }
  ASSIGN_OR_RETURN(param_.sentence_ids, Output("SentenceIds"));
  ASSIGN_OR_RETURN(param_.sentence_scores, Output("SentenceScores"));
  param_.beam_size = desc.GetAttr<int32_t>("beam_size", 1);
  param_.end_id = desc.GetAttr<int32_t>("end_id", 0);
  return Status::OK();
}

Status BeamSearchDecodeOp::CheckShape() const {
  if (param_.beam_size < 1) return OpError("attribute beam_size must be >= 1");
  return Status::OK();
}

Status BeamSearchDecodeOp::InferShape() {
  param_.sentence_ids->set_dtype(DataType::kInt64);
  param_.sentence_scores->set_dtype(DataType::kFloat32);
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(beam_search, lite::operators::BeamSearchOp);
REGISTER_LITE_OP(beam_search_decode, lite::operators::BeamSearchDecodeOp);
