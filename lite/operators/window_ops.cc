#include "lite/operators/window_ops.h"

#include <algorithm>

#include "lite/operators/op_with_param.h"
#include "lite/operators/tensor_util.h"

namespace lite {
namespace operators {

namespace {

// The op types WindowOp serves.
enum class WindowOpKind { kStridedSlice, kCrop, kCropTensor };

class WindowOp : public OpWithParam<WindowParam> {
 public:
  WindowOp(std::string type, WindowOpKind kind)
      : OpWithParam<WindowParam>(std::move(type)), kind_(kind) {}
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  const WindowOpKind kind_;
};

}  // namespace

namespace {

// Tensor > list of 1-element tensors > attribute.
StatusOr<std::vector<int64_t>> Pick(const Tensor* t, const std::vector<const Tensor*>& list,
                                    const std::vector<int64_t>& attr, const std::string& what) {
  if (t) return ReadIntTensor(*t, what);
  if (!list.empty()) return ReadIntTensorList(list, what + " list");
  return attr;
}

// Python slicing of one axis of extent `dim`.
void SliceAxis(int64_t dim, int64_t start, int64_t end, int64_t stride, int64_t* first,
               int64_t* count) {
  if (start < 0) start += dim;
  if (end < 0) end += dim;
  if (stride > 0) {
    start = std::min(std::max<int64_t>(start, 0), dim);
    end = std::min(std::max<int64_t>(end, 0), dim);
    *count = end > start ? (end - start + stride - 1) / stride : 0;
  } else {
    start = std::min(std::max<int64_t>(start, -1), dim - 1);
    end = std::min(std::max<int64_t>(end, -1), dim - 1);
    *count = start > end ? (start - end - stride - 1) / -stride : 0;
  }
  *first = *count > 0 ? start : 0;
}

StatusOr<StridedWindow> StridedSlice(const std::string& op, const WindowParam& p) {
  const DDim& in = p.x->dims();
  const int64_t rank = static_cast<int64_t>(in.size());
  ASSIGN_OR_RETURN(auto starts, Pick(p.starts_tensor, p.starts_list, p.starts, op + " StartsTensor"));
  ASSIGN_OR_RETURN(auto ends, Pick(p.ends_tensor, p.ends_list, p.ends, op + " EndsTensor"));
  ASSIGN_OR_RETURN(auto strides,
                   Pick(p.strides_tensor, p.strides_list, p.strides, op + " StridesTensor"));
  const size_t n = p.axes.size();
  if (starts.size() != n || ends.size() != n || strides.size() != n) {
    return InvalidArgument(op + " has " + std::to_string(n) + " axes but " +
                           std::to_string(starts.size()) + " starts, " +
                           std::to_string(ends.size()) + " ends and " +
                           std::to_string(strides.size()) + " strides");
  }
  StridedWindow w;
  w.begin.assign(rank, 0);
  w.step.assign(rank, 1);
  w.dims = in;
  for (size_t i = 0; i < n; ++i) {
    ASSIGN_OR_RETURN(int axis, NormalizeAxis(p.axes[i], rank, op + " axis"));
    if (strides[i] == 0) {
      return InvalidArgument(op + ": stride of axis " + std::to_string(axis) + " is 0");
    }
    w.step[axis] = strides[i];
    SliceAxis(in[axis], starts[i], ends[i], strides[i], &w.begin[axis], &w.dims[axis]);
  }
  std::vector<bool> drop(rank, false);
  for (int64_t a : p.decrease_axis) {
    ASSIGN_OR_RETURN(int axis, NormalizeAxis(a, rank, op + " decrease_axis"));
    if (w.dims[axis] != 1) {
      return InvalidArgument(op + ": decrease_axis " + std::to_string(axis) + " has size " +
                             std::to_string(w.dims[axis]) + ", must be 1");
    }
    drop[axis] = true;
  }
  for (int64_t k = 0; k < rank; ++k) {
    if (!drop[k]) w.out_dims.push_back(w.dims[k]);
  }
  if (!p.decrease_axis.empty() && w.out_dims.empty()) w.out_dims = {1};
  return w;
}

StatusOr<StridedWindow> Crop(const std::string& op, const WindowParam& p) {
  const DDim& in = p.x->dims();
  const size_t rank = in.size();
  ASSIGN_OR_RETURN(auto offsets, Pick(p.starts_tensor, p.starts_list, p.starts, op + " Offsets"));
  std::vector<int64_t> shape;
  if (p.reference) {
    shape = p.reference->dims();
  } else {
    ASSIGN_OR_RETURN(shape, Pick(p.ends_tensor, p.ends_list, p.ends, op + " Shape"));
  }
  if (offsets.empty()) offsets.assign(rank, 0);
  if (shape.size() != rank || offsets.size() != rank) {
    return InvalidArgument(op + ": shape " + DimsToString(shape) + " and offsets " +
                           DimsToString(offsets) + " must both have rank " +
                           std::to_string(rank) + " of X " + DimsToString(in));
  }
  StridedWindow w;
  w.begin = offsets;
  w.step.assign(rank, 1);
  w.dims = shape;
  for (size_t k = 0; k < rank; ++k) {
    if (w.dims[k] == -1 && op == "crop_tensor") w.dims[k] = in[k] - offsets[k];
    if (offsets[k] < 0 || w.dims[k] < 0 || offsets[k] + w.dims[k] > in[k]) {
      return InvalidArgument(op + ": window offsets " + DimsToString(offsets) + " shape " +
                             DimsToString(shape) + " is outside X " + DimsToString(in) +
                             " at dim " + std::to_string(k));
    }
  }
  w.out_dims = w.dims;
  return w;
}

}  // namespace

StatusOr<StridedWindow> ComputeWindow(const std::string& op, const WindowParam& p) {
  if (p.strided) return StridedSlice(op, p);
  return Crop(op, p);
}

Status WindowOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  const bool strided = kind_ == WindowOpKind::kStridedSlice;
  param_.strided = strided;
  ASSIGN_OR_RETURN(Tensor * x, Input(strided ? "Input" : "X"));
  param_.x = x;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  auto list = [this](const char* name) {
    std::vector<const Tensor*> out;
    for (Tensor* t : InputList(name)) out.push_back(t);
    return out;
  };
  if (strided) {
    param_.axes = desc.GetAttr<std::vector<int64_t>>("axes", {});
    param_.starts = desc.GetAttr<std::vector<int64_t>>("starts", {});
    param_.ends = desc.GetAttr<std::vector<int64_t>>("ends", {});
    param_.strides = desc.GetAttr<std::vector<int64_t>>("strides", {});
    param_.decrease_axis = desc.GetAttr<std::vector<int64_t>>("decrease_axis", {});
    param_.starts_tensor = OptionalInput("StartsTensor");
    param_.ends_tensor = OptionalInput("EndsTensor");
    param_.strides_tensor = OptionalInput("StridesTensor");
    param_.starts_list = list("StartsTensorList");
    param_.ends_list = list("EndsTensorList");
    param_.strides_list = list("StridesTensorList");
    return Status::OK();
  }
  param_.starts = desc.GetAttr<std::vector<int64_t>>("offsets", {});
  param_.ends = desc.GetAttr<std::vector<int64_t>>("shape", {});
  param_.starts_tensor = OptionalInput("Offsets");
  if (kind_ == WindowOpKind::kCrop) {
    param_.reference = OptionalInput("Y");
  } else {
    param_.ends_tensor = OptionalInput("Shape");
    param_.ends_list = list("ShapeTensor");
    param_.starts_list = list("OffsetsTensor");
  }
  return Status::OK();
}

Status WindowOp::CheckShape() const {
  if (kind_ == WindowOpKind::kCrop && !param_.reference && param_.ends.empty()) {
    return OpError("needs input Y or attribute shape");
  }
  return Status::OK();
}

Status WindowOp::InferShape() {
  auto w = ComputeWindow(Type(), param_);
  if (!w.ok()) return OpError(w.status().message());
  param_.out->Resize(w->out_dims);
  param_.out->set_dtype(param_.x->dtype());
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP_KIND(strided_slice, lite::operators::WindowOp,
                      lite::operators::WindowOpKind::kStridedSlice);
REGISTER_LITE_OP_KIND(crop, lite::operators::WindowOp, lite::operators::WindowOpKind::kCrop);
REGISTER_LITE_OP_KIND(crop_tensor, lite::operators::WindowOp,
                      lite::operators::WindowOpKind::kCropTensor);
