// Bridge of pool2d: kPool2D with Paddle's window (effective ksize and
// paddings resolve global pooling and SAME/VALID; ceil_mode is in the output
// dims). Adaptive average pooling is bridged only when it is global (1x1).
#include "lite/kernels/npu/bridges/bridge_util.h"
#include "lite/operators/pool_op.h"

namespace lite {
namespace npu {

namespace {

Status PoolBridge(OpLite* op, BridgeContext* ctx) {
  auto& p = *static_cast<operators::PoolParam*>(op->param());
  const std::string name = op->DebugName();
  if (p.data_format != "NCHW" && p.data_format != "AnyLayout") {
    return Unimplemented(name + ": data_format " + p.data_format + " is not supported");
  }
  if (p.pooling_type != "max" && p.pooling_type != "avg") {
    return Unimplemented(name + ": pooling_type " + p.pooling_type + " is not supported");
  }
  const bool max = p.pooling_type == "max";
  if (p.adaptive && !max &&
      (p.global_pooling || !(p.ksize.size() == 2 && p.ksize[0] == 1 && p.ksize[1] == 1))) {
    return Unimplemented(name + ": adaptive average pooling to " +
                         std::to_string(p.ksize.empty() ? 0 : p.ksize[0]) +
                         "x... is not supported (only to 1x1)");
  }
  ASSIGN_OR_RETURN(int x, ctx->InputOf(*op, "X"));
  int out = ctx->Output(OutVar(*op, "Out"));
  if (ctx->check_mode()) {
    // What is known before shapes: the attribute paddings and exclusive.
    ctx->AddOperation(*op, OperationType::kPool2D, {x}, {out},
                      {{"pool_type", int64_t(max ? 0 : 1)},
                       {"paddings", ToInt64(p.paddings)},
                       {"exclusive", int64_t(p.exclusive || p.adaptive ? 1 : 0)}});
    return Status::OK();
  }
  std::vector<int> ksize = p.eff_ksize, strides = p.strides, pads = p.eff_paddings;
  bool exclusive = p.exclusive;
  if (p.adaptive && !max) {  // adaptive to 1x1: the global average
    const auto& d = ctx->Dims(InVar(*op, "X"));
    ksize = {static_cast<int>(d[2]), static_cast<int>(d[3])};
    strides = {1, 1};
    pads = {0, 0, 0, 0};
    exclusive = true;
  }
  ctx->AddOperation(*op, OperationType::kPool2D, {x}, {out},
                    {{"pool_type", int64_t(max ? 0 : 1)},
                     {"ksize", ToInt64(ksize)},
                     {"strides", ToInt64(strides)},
                     {"paddings", ToInt64(pads)},
                     {"exclusive", int64_t(exclusive ? 1 : 0)}});
  return Status::OK();
}

}  // namespace

}  // namespace npu
}  // namespace lite

REGISTER_NPU_BRIDGE(pool2d, lite::npu::PoolBridge);
