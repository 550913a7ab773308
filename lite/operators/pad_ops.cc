#include "lite/operators/pad_ops.h"

#include "lite/operators/conv_util.h"
#include "lite/operators/op_with_param.h"

namespace lite {
namespace operators {

namespace {

// The op types PadOp serves.
enum class PadOpKind { kPad2d, kPad3d };

class PadOp : public OpWithParam<PadParam> {
 public:
  PadOp(std::string type, PadOpKind kind)
      : OpWithParam<PadParam>(std::move(type)), kind_(kind) {}
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  const PadOpKind kind_;
};

}  // namespace

StatusOr<std::array<int64_t, 6>> ResolvePadding(const PadParam& p,
                                                const std::string& op_name) {
  const size_t want = p.spatial_rank * 2;
  std::vector<int64_t> raw;
  if (const Tensor* t = p.paddings_tensor) {
    if (t->numel() != static_cast<int64_t>(want)) {
      return InvalidArgument("op " + op_name + ": input Paddings must hold " +
                             std::to_string(want) + " values, got dims " +
                             DimsToString(t->dims()));
    }
    for (size_t i = 0; i < want; ++i) {
      if (t->dtype() == DataType::kInt32) {
        raw.push_back(t->data<int32_t>()[i]);
      } else if (t->dtype() == DataType::kInt64) {
        raw.push_back(t->data<int64_t>()[i]);
      } else {
        return InvalidArgument("op " + op_name + ": input Paddings must be int32 or int64, got " +
                               DataTypeName(t->dtype()));
      }
    }
  } else {
    raw.assign(p.paddings.begin(), p.paddings.end());
  }
  std::array<int64_t, 6> pads{};
  if (p.spatial_rank == 2) {  // [top, bottom, left, right]
    pads = {0, 0, raw[0], raw[1], raw[2], raw[3]};
  } else {  // [left, right, top, bottom, front, back]
    pads = {raw[4], raw[5], raw[2], raw[3], raw[0], raw[1]};
  }
  const DDim& in = p.x->dims();
  const char* names[3] = {"depth", "height", "width"};
  for (int d = 3 - p.spatial_rank; d < 3; ++d) {
    const int64_t size = in[in.size() - 3 + d];
    const int64_t b = pads[2 * d], e = pads[2 * d + 1];
    if (size + b + e < 0) {
      return InvalidArgument("op " + op_name + ": padding makes the " + names[d] +
                             " negative (" + std::to_string(size) + " + " + std::to_string(b) +
                             " + " + std::to_string(e) + ")");
    }
    if (p.mode == PadParam::kReflect && (b >= size || e >= size)) {
      return InvalidArgument("op " + op_name + ": reflect padding of the " + names[d] +
                             " must be less than its size " + std::to_string(size) + ", got (" +
                             std::to_string(b) + ", " + std::to_string(e) + ")");
    }
    if (p.mode != PadParam::kConstant && size == 0) {
      return InvalidArgument("op " + op_name + ": non-constant padding needs a non-empty " +
                             names[d]);
    }
  }
  return pads;
}

DDim PaddedDims(const DDim& in, int spatial_rank, const std::array<int64_t, 6>& pads) {
  DDim out = in;
  for (int d = 3 - spatial_rank; d < 3; ++d) {
    out[out.size() - 3 + d] += pads[2 * d] + pads[2 * d + 1];
  }
  return out;
}

Status PadOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  param_.paddings_tensor = OptionalInput("Paddings");
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  const bool is3d = kind_ == PadOpKind::kPad3d;
  param_.spatial_rank = is3d ? 3 : 2;
  param_.paddings =
      desc.GetAttr<std::vector<int>>("paddings", std::vector<int>(param_.spatial_rank * 2, 0));
  const std::string mode = desc.GetAttr<std::string>("mode", "constant");
  param_.value = desc.GetAttr<float>(is3d ? "value" : "pad_value", 0.f);
  const std::string layout = desc.GetAttr<std::string>("data_format", is3d ? "NCDHW" : "NCHW");

  if (mode == "constant") {
    param_.mode = PadParam::kConstant;
  } else if (mode == "reflect") {
    param_.mode = PadParam::kReflect;
  } else if (mode == (is3d ? "replicate" : "edge")) {
    param_.mode = PadParam::kEdge;
  } else if (is3d && mode == "circular") {
    param_.mode = PadParam::kCircular;
  } else {
    return Unimplemented("op " + DebugName() + ": mode '" + mode + "' is not supported");
  }
  if (layout != (is3d ? "NCDHW" : "NCHW") && layout != "AnyLayout") {
    return Unimplemented("op " + DebugName() + ": data_format '" + layout +
                         "' is not supported (channel-first only)");
  }
  if (!param_.paddings_tensor &&
      param_.paddings.size() != static_cast<size_t>(param_.spatial_rank * 2)) {
    return OpError("attribute paddings must have " + std::to_string(param_.spatial_rank * 2) +
                   " values, got " + IntsToString(param_.paddings));
  }
  return Status::OK();
}

Status PadOp::CheckShape() const {
  const size_t rank = param_.spatial_rank + 2;
  if (param_.x->dims().size() != rank) {
    return OpError("input X must be " + std::to_string(rank) + "-D, got " +
                   DimsToString(param_.x->dims()));
  }
  return Status::OK();
}

Status PadOp::InferShape() {
  RETURN_IF_ERROR(CheckShape());
  ASSIGN_OR_RETURN(auto pads, ResolvePadding(param_, DebugName()));
  param_.out->Resize(PaddedDims(param_.x->dims(), param_.spatial_rank, pads));
  param_.out->set_lod(param_.x->lod());
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP_KIND(pad2d, lite::operators::PadOp, lite::operators::PadOpKind::kPad2d);
REGISTER_LITE_OP_KIND(pad3d, lite::operators::PadOp, lite::operators::PadOpKind::kPad3d);
