#include "lite/operators/lod_array_ops.h"

#include "lite/operators/op_with_param.h"

namespace lite {
namespace operators {

namespace {

// The op types LodArrayOp serves.
enum class LodArrayOpKind { kLodRankTable, kMaxSequenceLen, kLodTensorToArray, kArrayToLodTensor };

class LodArrayOp : public OpWithParam<LodArrayParam> {
 public:
  LodArrayOp(std::string type, LodArrayOpKind kind)
      : OpWithParam<LodArrayParam>(std::move(type)), kind_(kind) {}
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  const LodArrayOpKind kind_;
};

}  // namespace

StatusOr<std::vector<RankItem>> RankItems(const Tensor& table, const std::string& what) {
  if (table.dtype() != DataType::kInt64 || table.dims().size() != 2 || table.dims()[1] != 2 ||
      !table.raw_data()) {
    return InvalidArgument(what + " is not a rank table (lod_rank_table's output): has dims " +
                           DimsToString(table.dims()));
  }
  std::vector<RankItem> items(table.dims()[0]);
  const int64_t* d = table.data<int64_t>();
  for (size_t i = 0; i < items.size(); ++i) items[i] = {d[2 * i], d[2 * i + 1]};
  return items;
}

Status LodArrayOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  if (kind_ == LodArrayOpKind::kLodRankTable || kind_ == LodArrayOpKind::kLodTensorToArray) {
    ASSIGN_OR_RETURN(Tensor * x, Input("X"));
    param_.x = x;
  }
  if (kind_ != LodArrayOpKind::kLodRankTable) {
    ASSIGN_OR_RETURN(Tensor * table, Input("RankTable"));
    param_.rank_table = table;
  }
  if (kind_ == LodArrayOpKind::kArrayToLodTensor) {
    const auto& names = desc.Input("X");
    if (names.size() != 1) return OpError("'X' must name one tensor array");
    param_.x_array = scope->FindVar(names[0]);
    if (!param_.x_array) return OpError("tensor array '" + names[0] + "' is not in the scope");
  }
  if (kind_ == LodArrayOpKind::kLodTensorToArray) {
    const auto& names = desc.Output("Out");
    if (names.size() != 1) return OpError("'Out' must name one tensor array");
    param_.out_array = scope->Var(names[0]);
  } else {
    ASSIGN_OR_RETURN(param_.out, Output("Out"));
  }
  param_.level = desc.GetAttr<int32_t>("level", 0);
  return Status::OK();
}

Status LodArrayOp::CheckShape() const {
  // X's LoD arrives with the data: the kernel checks the level against it.
  if (kind_ == LodArrayOpKind::kLodRankTable && param_.level < 0) {
    return OpError("attribute level must be >= 0, is " + std::to_string(param_.level));
  }
  return Status::OK();
}

Status LodArrayOp::InferShape() {
  // Row counts depend on the LoD values: the kernels size their outputs.
  if (kind_ == LodArrayOpKind::kMaxSequenceLen) {
    param_.out->Resize({1});
    param_.out->set_dtype(DataType::kInt64);
  }
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP_KIND(lod_rank_table, lite::operators::LodArrayOp,
                      lite::operators::LodArrayOpKind::kLodRankTable);
REGISTER_LITE_OP_KIND(max_sequence_len, lite::operators::LodArrayOp,
                      lite::operators::LodArrayOpKind::kMaxSequenceLen);
REGISTER_LITE_OP_KIND(lod_tensor_to_array, lite::operators::LodArrayOp,
                      lite::operators::LodArrayOpKind::kLodTensorToArray);
REGISTER_LITE_OP_KIND(array_to_lod_tensor, lite::operators::LodArrayOp,
                      lite::operators::LodArrayOpKind::kArrayToLodTensor);
