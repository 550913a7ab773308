#include "lite/operators/reshape_ops.h"

#include "lite/operators/op_with_param.h"
#include "lite/operators/tensor_util.h"

namespace lite {
namespace operators {

namespace {

// The op types ReshapeLikeOp serves.
enum class ReshapeLikeOpKind {
    kReshape, kReshape2, kFlatten, kFlatten2, kFlattenContiguousRange, kSqueeze, kSqueeze2,
    kUnsqueeze, kUnsqueeze2,
};

class ReshapeLikeOp : public OpWithParam<ReshapeParam> {
 public:
  ReshapeLikeOp(std::string type, ReshapeLikeOpKind kind)
      : OpWithParam<ReshapeParam>(std::move(type)), kind_(kind) {}
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  const ReshapeLikeOpKind kind_;
};

}  // namespace

namespace {

std::vector<const Tensor*> AsConst(const std::vector<Tensor*>& v) {
  return std::vector<const Tensor*>(v.begin(), v.end());
}

// Paddle's ReshapeOp::ValidateShape.
StatusOr<DDim> ReshapeDims(const std::vector<int64_t>& shape, const DDim& in) {
  const int64_t in_size = Product(in);
  DDim out(shape.size());
  int unk = -1;
  int64_t capacity = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      if (unk != -1) {
        return InvalidArgument("only one dimension of shape may be -1, got " +
                               DimsToString(shape));
      }
      unk = static_cast<int>(i);
      out[i] = -1;
      continue;
    }
    if (shape[i] == 0) {
      if (i >= in.size()) {
        return InvalidArgument("shape[" + std::to_string(i) +
                               "] is 0 (copy input dim) but input rank is " +
                               std::to_string(in.size()));
      }
      out[i] = in[i];
    } else if (shape[i] < 0) {
      return InvalidArgument("shape[" + std::to_string(i) + "] = " +
                             std::to_string(shape[i]) +
                             " is negative (only -1 is allowed)");
    } else {
      out[i] = shape[i];
    }
    capacity *= out[i];
  }
  if (unk != -1) {
    if (capacity == 0 || in_size % capacity != 0) {
      return InvalidArgument("cannot reshape " + DimsToString(in) + " to " +
                             DimsToString(shape) + ": -1 cannot be inferred");
    }
    out[unk] = in_size / capacity;
  } else if (capacity != in_size) {
    return InvalidArgument("cannot reshape " + DimsToString(in) + " (" +
                           std::to_string(in_size) + " elements) to " +
                           DimsToString(out));
  }
  return out;
}

StatusOr<DDim> SqueezeDims(const std::vector<int64_t>& axes, const DDim& in) {
  const int64_t rank = static_cast<int64_t>(in.size());
  std::vector<bool> drop(in.size(), false);
  if (axes.empty()) {
    for (size_t i = 0; i < in.size(); ++i) drop[i] = in[i] == 1;
  } else {
    for (int64_t a : axes) {
      ASSIGN_OR_RETURN(int c, NormalizeAxis(a, rank, "squeeze axis"));
      // Listed axes whose size is not 1 are ignored (Paddle runtime rule).
      if (in[c] == 1) drop[c] = true;
    }
  }
  DDim out;
  for (size_t i = 0; i < in.size(); ++i) {
    if (!drop[i]) out.push_back(in[i]);
  }
  return out;
}

// Paddle's GetUnsqueezeShape: axes are inserted one after another, each
// relative to the rank reached so far.
StatusOr<DDim> UnsqueezeDims(const std::vector<int64_t>& axes, const DDim& in) {
  const int64_t out_rank = static_cast<int64_t>(in.size() + axes.size());
  std::vector<int> is_new(out_rank + 1, 0);
  int64_t cur = static_cast<int64_t>(in.size());
  for (int64_t a : axes) {
    const int64_t c = a < 0 ? a + cur + 1 : a;
    if (c < 0 || c > cur) {
      return InvalidArgument("unsqueeze axis " + std::to_string(a) +
                             " is out of range for rank " + std::to_string(cur));
    }
    for (int64_t i = cur; i >= c; --i) {
      if (is_new[i]) {
        is_new[i + 1] = 1;
        is_new[i] = 0;
      }
    }
    is_new[c] = 1;
    ++cur;
  }
  DDim out(out_rank);
  size_t in_idx = 0;
  for (int64_t i = 0; i < out_rank; ++i) out[i] = is_new[i] ? 1 : in[in_idx++];
  return out;
}

StatusOr<DDim> FlattenRangeDims(int start, int stop, const DDim& in) {
  const int rank = static_cast<int>(in.size());
  if (rank == 0) return DDim{1};
  if (start < 0) start += rank;
  if (stop < 0) stop += rank;
  if (start < 0 || start >= rank || stop < 0 || stop >= rank) {
    return InvalidArgument("start_axis/stop_axis out of range for rank " +
                           std::to_string(rank));
  }
  if (stop < start) {
    return InvalidArgument("stop_axis must be >= start_axis");
  }
  DDim out(in.begin(), in.begin() + start);
  int64_t outer = 1;
  for (int i = start; i <= stop; ++i) {
    outer = (in[i] < 0 || outer < 0) ? -1 : outer * in[i];
  }
  out.push_back(outer);
  out.insert(out.end(), in.begin() + stop + 1, in.end());
  return out;
}

}  // namespace

StatusOr<DDim> ComputeReshapeOutDims(const ReshapeParam& p) {
  const DDim& in = p.x->dims();
  switch (p.kind) {
    case ReshapeKind::kReshape: {
      if (!p.shape_tensor_list.empty()) {
        ASSIGN_OR_RETURN(auto shape,
                         ReadIntTensorList(p.shape_tensor_list, "ShapeTensor"));
        return ReshapeDims(shape, in);
      }
      if (p.shape_tensor) {
        ASSIGN_OR_RETURN(auto shape, ReadIntTensor(*p.shape_tensor, "Shape"));
        return ReshapeDims(shape, in);
      }
      return ReshapeDims(p.shape, in);
    }
    case ReshapeKind::kFlatten: {
      if (p.axis < 0 || p.axis > static_cast<int>(in.size())) {
        return InvalidArgument("flatten axis " + std::to_string(p.axis) +
                               " must be in [0, " + std::to_string(in.size()) + "]");
      }
      DDim outer(in.begin(), in.begin() + p.axis);
      DDim inner(in.begin() + p.axis, in.end());
      return DDim{Product(outer), Product(inner)};
    }
    case ReshapeKind::kFlattenRange:
      return FlattenRangeDims(p.start_axis, p.stop_axis, in);
    case ReshapeKind::kSqueeze:
      return SqueezeDims(p.axes, in);
    case ReshapeKind::kUnsqueeze: {
      if (p.axes_tensor) {
        ASSIGN_OR_RETURN(auto axes, ReadIntTensor(*p.axes_tensor, "AxesTensor"));
        return UnsqueezeDims(axes, in);
      }
      if (!p.axes_tensor_list.empty()) {
        ASSIGN_OR_RETURN(auto axes,
                         ReadIntTensorList(p.axes_tensor_list, "AxesTensorList"));
        return UnsqueezeDims(axes, in);
      }
      return UnsqueezeDims(p.axes, in);
    }
  }
  return Internal("unknown reshape kind");
}

Status ReshapeLikeOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  param_.xshape = OptionalOutput("XShape");
  if (kind_ == ReshapeLikeOpKind::kReshape || kind_ == ReshapeLikeOpKind::kReshape2) {
    param_.kind = ReshapeKind::kReshape;
    param_.shape = desc.GetAttr<std::vector<int64_t>>("shape", {});
    param_.shape_tensor = OptionalInput("Shape");
    param_.shape_tensor_list = AsConst(InputList("ShapeTensor"));
  } else if (kind_ == ReshapeLikeOpKind::kFlatten || kind_ == ReshapeLikeOpKind::kFlatten2) {
    param_.kind = ReshapeKind::kFlatten;
    param_.axis = desc.GetAttr<int32_t>("axis", 1);
  } else if (kind_ == ReshapeLikeOpKind::kFlattenContiguousRange) {
    param_.kind = ReshapeKind::kFlattenRange;
    param_.start_axis = desc.GetAttr<int32_t>("start_axis", 1);
    param_.stop_axis = desc.GetAttr<int32_t>("stop_axis", -1);
  } else if (kind_ == ReshapeLikeOpKind::kSqueeze || kind_ == ReshapeLikeOpKind::kSqueeze2) {
    param_.kind = ReshapeKind::kSqueeze;
    param_.axes = desc.GetAttr<std::vector<int64_t>>("axes", {});
  } else if (kind_ == ReshapeLikeOpKind::kUnsqueeze || kind_ == ReshapeLikeOpKind::kUnsqueeze2) {
    param_.kind = ReshapeKind::kUnsqueeze;
    param_.axes = desc.GetAttr<std::vector<int64_t>>("axes", {});
    param_.axes_tensor = OptionalInput("AxesTensor");
    param_.axes_tensor_list = AsConst(InputList("AxesTensorList"));
  } else {
    return OpError("not a reshape-like op type");
  }
  return Status::OK();
}

Status ReshapeLikeOp::CheckShape() const {
  if (!param_.x || !param_.out) return OpError("X and Out must be bound");
  return Status::OK();
}

Status ReshapeLikeOp::InferShape() {
  auto dims = ComputeReshapeOutDims(param_);
  if (!dims.ok()) return OpError(dims.status().message());
  const DDim& in = param_.x->dims();
  param_.out->Resize(*dims);
  param_.out->set_dtype(param_.x->dtype());
  if (!in.empty() && !dims->empty() && in[0] == (*dims)[0]) {
    param_.out->set_lod(param_.x->lod());
  } else {
    param_.out->set_lod({});
  }
  SetXShape(*param_.x, param_.xshape);
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP_KIND(reshape, lite::operators::ReshapeLikeOp,
                      lite::operators::ReshapeLikeOpKind::kReshape);
REGISTER_LITE_OP_KIND(reshape2, lite::operators::ReshapeLikeOp,
                      lite::operators::ReshapeLikeOpKind::kReshape2);
REGISTER_LITE_OP_KIND(flatten, lite::operators::ReshapeLikeOp,
                      lite::operators::ReshapeLikeOpKind::kFlatten);
REGISTER_LITE_OP_KIND(flatten2, lite::operators::ReshapeLikeOp,
                      lite::operators::ReshapeLikeOpKind::kFlatten2);
REGISTER_LITE_OP_KIND(flatten_contiguous_range, lite::operators::ReshapeLikeOp,
                      lite::operators::ReshapeLikeOpKind::kFlattenContiguousRange);
REGISTER_LITE_OP_KIND(squeeze, lite::operators::ReshapeLikeOp,
                      lite::operators::ReshapeLikeOpKind::kSqueeze);
REGISTER_LITE_OP_KIND(squeeze2, lite::operators::ReshapeLikeOp,
                      lite::operators::ReshapeLikeOpKind::kSqueeze2);
REGISTER_LITE_OP_KIND(unsqueeze, lite::operators::ReshapeLikeOp,
                      lite::operators::ReshapeLikeOpKind::kUnsqueeze);
REGISTER_LITE_OP_KIND(unsqueeze2, lite::operators::ReshapeLikeOp,
                      lite::operators::ReshapeLikeOpKind::kUnsqueeze2);
