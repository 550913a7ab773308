#include "lite/operators/slice_op.h"

#include <algorithm>

#include "lite/operators/op_with_param.h"
#include "lite/operators/tensor_util.h"

namespace lite {
namespace operators {

namespace {

class SliceOp : public OpWithParam<SliceParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

}  // namespace

namespace {

StatusOr<std::vector<int64_t>> Resolve(const Tensor* t,
                                       const std::vector<const Tensor*>& list,
                                       const std::vector<int64_t>& attr,
                                       const std::string& name) {
  if (t) return ReadIntTensor(*t, name + "Tensor");
  if (!list.empty()) return ReadIntTensorList(list, name + "TensorList");
  return attr;
}

}  // namespace

StatusOr<SliceWindow> ComputeSlice(const SliceParam& p) {
  const DDim& in = p.x->dims();
  const int64_t rank = static_cast<int64_t>(in.size());
  ASSIGN_OR_RETURN(auto starts, Resolve(p.starts_tensor, p.starts_tensor_list,
                                        p.starts, "Starts"));
  ASSIGN_OR_RETURN(auto ends, Resolve(p.ends_tensor, p.ends_tensor_list,
                                      p.ends, "Ends"));
  if (starts.size() != p.axes.size() || ends.size() != p.axes.size()) {
    return InvalidArgument("slice has " + std::to_string(p.axes.size()) +
                           " axes but " + std::to_string(starts.size()) +
                           " starts and " + std::to_string(ends.size()) + " ends");
  }
  SliceWindow w;
  w.begin.assign(rank, 0);
  w.sliced_dims = in;
  for (size_t i = 0; i < p.axes.size(); ++i) {
    ASSIGN_OR_RETURN(int axis, NormalizeAxis(p.axes[i], rank, "slice axis"));
    const int64_t dim = in[axis];
    int64_t start = 0, end = 0;
    if (dim > 0) {
      start = starts[i] < 0 ? starts[i] + dim : starts[i];
      end = ends[i] < 0 ? ends[i] + dim : ends[i];
      start = std::min(std::max<int64_t>(start, 0), dim);
      end = std::max<int64_t>(std::min(end, dim), 0);
      if (end < start) {
        return InvalidArgument("slice axis " + std::to_string(axis) + ": end " +
                               std::to_string(end) + " < start " +
                               std::to_string(start) + " after clamping");
      }
    }
    w.begin[axis] = start;
    w.sliced_dims[axis] = end - start;
  }
  std::vector<bool> drop(rank, false);
  for (int64_t a : p.decrease_axis) {
    ASSIGN_OR_RETURN(int axis, NormalizeAxis(a, rank, "slice decrease_axis"));
    if (w.sliced_dims[axis] != 1) {
      return InvalidArgument("decrease_axis " + std::to_string(axis) +
                             " has size " + std::to_string(w.sliced_dims[axis]) +
                             ", must be 1");
    }
    drop[axis] = true;
  }
  for (int64_t k = 0; k < rank; ++k) {
    if (!drop[k]) w.out_dims.push_back(w.sliced_dims[k]);
  }
  if (!p.decrease_axis.empty() && w.out_dims.empty()) w.out_dims = {1};
  return w;
}

Status SliceOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("Input"));
  param_.x = x;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  param_.axes = desc.GetAttr<std::vector<int64_t>>("axes", {});
  param_.starts = desc.GetAttr<std::vector<int64_t>>("starts", {});
  param_.ends = desc.GetAttr<std::vector<int64_t>>("ends", {});
  param_.decrease_axis = desc.GetAttr<std::vector<int64_t>>("decrease_axis", {});
  param_.infer_flags = desc.GetAttr<std::vector<int64_t>>("infer_flags", {});
  param_.starts_tensor = OptionalInput("StartsTensor");
  param_.ends_tensor = OptionalInput("EndsTensor");
  for (Tensor* t : InputList("StartsTensorList")) param_.starts_tensor_list.push_back(t);
  for (Tensor* t : InputList("EndsTensorList")) param_.ends_tensor_list.push_back(t);
  return Status::OK();
}

Status SliceOp::CheckShape() const {
  if (!param_.x || !param_.out) return OpError("Input and Out must be bound");
  return Status::OK();
}

Status SliceOp::InferShape() {
  auto w = ComputeSlice(param_);
  if (!w.ok()) return OpError(w.status().message());
  param_.out->Resize(w->out_dims);
  param_.out->set_dtype(param_.x->dtype());
  const bool touches_axis0 =
      std::find(param_.axes.begin(), param_.axes.end(), 0) != param_.axes.end();
  param_.out->set_lod(touches_axis0 ? LoD{} : param_.x->lod());
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(slice, lite::operators::SliceOp);
