#include "lite/operators/pixel_shuffle_ops.h"

#include "lite/operators/channel_last.h"
#include "lite/operators/op_with_param.h"

namespace lite {
namespace operators {

namespace {

// The op types PixelShuffleOp serves.
enum class PixelShuffleOpKind { kPixelShuffle, kPixelUnshuffle, kSpaceToDepth };

class PixelShuffleOp : public OpWithParam<PixelShuffleParam> {
 public:
  PixelShuffleOp(std::string type, PixelShuffleOpKind kind)
      : OpWithParam<PixelShuffleParam>(std::move(type)), kind_(kind) {}
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  const PixelShuffleOpKind kind_;
};

}  // namespace

Status PixelShuffleOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  const bool reorg = kind_ == PixelShuffleOpKind::kSpaceToDepth;
  param_.unshuffle = reorg || kind_ == PixelShuffleOpKind::kPixelUnshuffle;
  param_.reorg = reorg;
  param_.factor = desc.GetAttr<int32_t>(
      reorg ? "blocksize" : (param_.unshuffle ? "downscale_factor" : "upscale_factor"), 1);
  if (reorg && param_.factor < 2) {
    return OpError("attribute blocksize must be > 1, got " + std::to_string(param_.factor));
  }
  const std::string fmt = desc.GetAttr<std::string>("data_format", "NCHW");
  if (fmt != "NCHW") {
    return ChannelLastUnsupported(DebugName(), "data_format", fmt);
  }
  return Status::OK();
}

Status PixelShuffleOp::CheckShape() const {
  if (param_.factor < 1) {
    return OpError("the scale factor must be >= 1, got " + std::to_string(param_.factor));
  }
  return Status::OK();
}

Status PixelShuffleOp::InferShape() {
  const DDim& xd = param_.x->dims();
  if (xd.size() != 4) return OpError("X must be 4-D NCHW, got " + DimsToString(xd));
  const int64_t r = param_.factor;
  auto scale = [](int64_t d, int64_t by) { return d < 0 ? d : d * by; };
  DDim out = xd;
  if (param_.reorg && xd[1] >= 0 && xd[1] % (r * r) != 0) {
    return OpError("X " + DimsToString(xd) + ": channels must be a multiple of blocksize^2 " +
                   std::to_string(r * r));
  }
  if (param_.unshuffle) {
    for (int i : {2, 3}) {
      if (xd[i] >= 0 && xd[i] % r != 0) {
        return OpError("X " + DimsToString(xd) + ": H and W must be multiples of " +
                       std::to_string(r));
      }
      out[i] = xd[i] < 0 ? -1 : xd[i] / r;
    }
    out[1] = scale(xd[1], r * r);
  } else {
    if (xd[1] >= 0 && xd[1] % (r * r) != 0) {
      return OpError("X " + DimsToString(xd) + ": channels must be a multiple of " +
                     std::to_string(r * r));
    }
    out[1] = xd[1] < 0 ? -1 : xd[1] / (r * r);
    out[2] = scale(xd[2], r);
    out[3] = scale(xd[3], r);
  }
  param_.out->Resize(out);
  param_.out->set_dtype(param_.x->dtype());
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP_KIND(pixel_shuffle, lite::operators::PixelShuffleOp,
                      lite::operators::PixelShuffleOpKind::kPixelShuffle);
REGISTER_LITE_OP_KIND(pixel_unshuffle, lite::operators::PixelShuffleOp,
                      lite::operators::PixelShuffleOpKind::kPixelUnshuffle);
REGISTER_LITE_OP_KIND(space_to_depth, lite::operators::PixelShuffleOp,
                      lite::operators::PixelShuffleOpKind::kSpaceToDepth);
