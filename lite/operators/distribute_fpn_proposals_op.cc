#include "lite/operators/distribute_fpn_proposals_op.h"

#include "lite/operators/op_with_param.h"

namespace lite {
namespace operators {

namespace {

class DistributeFpnProposalsOp : public OpWithParam<DistributeFpnProposalsParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

}  // namespace

Status DistributeFpnProposalsOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * rois, Input("FpnRois"));
  param_.fpn_rois = rois;
  param_.rois_num = OptionalInput("RoisNum");
  param_.multi_fpn_rois = OutputList("MultiFpnRois");
  param_.multi_level_rois_num = OutputList("MultiLevelRoIsNum");
  ASSIGN_OR_RETURN(param_.restore_index, Output("RestoreIndex"));
  for (const char* required : {"min_level", "max_level", "refer_level", "refer_scale"}) {
    if (!desc.HasAttr(required)) {
      return OpError(std::string("missing required attribute '") + required + "'");
    }
  }
  param_.min_level = desc.GetAttr<int32_t>("min_level", 2);
  param_.max_level = desc.GetAttr<int32_t>("max_level", 5);
  param_.refer_level = desc.GetAttr<int32_t>("refer_level", 4);
  param_.refer_scale = desc.GetAttr<int32_t>("refer_scale", 224);
  param_.pixel_offset = desc.GetAttr<bool>("pixel_offset", true);
  return Status::OK();
}

Status DistributeFpnProposalsOp::CheckShape() const {
  const auto& p = param_;
  if (p.min_level < 0 || p.max_level < p.min_level) {
    return OpError("needs 0 <= min_level <= max_level, got " + std::to_string(p.min_level) +
                   " and " + std::to_string(p.max_level));
  }
  if (p.refer_scale <= 0) return OpError("refer_scale must be > 0");
  const size_t levels = static_cast<size_t>(p.max_level - p.min_level + 1);
  if (p.multi_fpn_rois.size() != levels) {
    return OpError("MultiFpnRois has " + std::to_string(p.multi_fpn_rois.size()) +
                   " outputs but levels " + std::to_string(p.min_level) + ".." +
                   std::to_string(p.max_level) + " need " + std::to_string(levels));
  }
  if (!p.multi_level_rois_num.empty() && p.multi_level_rois_num.size() != levels) {
    return OpError("MultiLevelRoIsNum must be empty or have one output per level (" +
                   std::to_string(levels) + "), got " +
                   std::to_string(p.multi_level_rois_num.size()));
  }
  return Status::OK();
}

Status DistributeFpnProposalsOp::InferShape() {
  const DDim& rd = param_.fpn_rois->dims();
  if (rd.size() != 2 || rd[1] != 4) {
    return OpError("FpnRois must be [R, 4], got " + DimsToString(rd));
  }
  // Placeholders: a level's size is known only after the kernel ran.
  for (Tensor* t : param_.multi_fpn_rois) {
    t->Resize({0, 4});
    t->set_dtype(DataType::kFloat32);
  }
  for (Tensor* t : param_.multi_level_rois_num) {
    if (param_.rois_num) t->Resize(param_.rois_num->dims());
    t->set_dtype(DataType::kInt32);
  }
  param_.restore_index->Resize({rd[0], 1});
  param_.restore_index->set_dtype(DataType::kInt32);
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(distribute_fpn_proposals, lite::operators::DistributeFpnProposalsOp);
