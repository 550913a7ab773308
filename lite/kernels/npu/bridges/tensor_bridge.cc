// Bridges of concat, split, slice, pad2d/pad3d, nearest/bilinear
// interpolation and (unfolded) batch_norm. Attributes that only exist at run
// time (axis, sections, starts/ends, sizes or paddings as tensors) are not
// supported unless the tensor is a constant.
#include "lite/kernels/npu/bridges/bridge_util.h"
#include "lite/operators/batch_norm_op.h"
#include "lite/operators/concat_split_ops.h"
#include "lite/operators/interpolate_op.h"
#include "lite/operators/pad_ops.h"
#include "lite/operators/slice_op.h"

namespace lite {
namespace npu {

namespace {

Status RequireStatic(OpLite* op, BridgeContext* ctx, std::initializer_list<const char*> params) {
  for (const char* param : params) {
    for (const auto& var : op->op_desc().Input(param)) {
      if (!ctx->IsConstant(var)) {
        return Unimplemented(op->DebugName() + ": " + param + " '" + var +
                             "' is computed at run time; it must be static");
      }
    }
  }
  return Status::OK();
}

int64_t NormalAxis(int64_t axis, size_t rank) {
  return axis < 0 ? axis + static_cast<int64_t>(rank) : axis;
}

Status ConcatBridge(OpLite* op, BridgeContext* ctx) {
  RETURN_IF_ERROR(RequireStatic(op, ctx, {"AxisTensor"}));
  auto& p = *static_cast<operators::ConcatParam*>(op->param());
  std::vector<int> ins;
  for (const auto& var : op->op_desc().Input("X")) {
    ASSIGN_OR_RETURN(int x, ctx->Input(*op, var));
    ins.push_back(x);
  }
  if (ins.empty()) return InvalidArgument(op->DebugName() + ": no inputs");
  const std::string out_var = OutVar(*op, "Out");
  const int64_t axis = NormalAxis(p.axis, ctx->Dims(out_var).size());
  ASSIGN_OR_RETURN(int out, ctx->OutputOf(*op, "Out"));
  ctx->AddOperation(*op, OperationType::kConcat, ins, {out}, {{"axis", axis}});
  return Status::OK();
}

Status SplitBridge(OpLite* op, BridgeContext* ctx) {
  RETURN_IF_ERROR(RequireStatic(op, ctx, {"AxisTensor", "SectionsTensorList"}));
  auto& p = *static_cast<operators::SplitParam*>(op->param());
  ASSIGN_OR_RETURN(int x, ctx->InputOf(*op, "X"));
  const int64_t axis = NormalAxis(p.axis, ctx->Dims(InVar(*op, "X")).size());
  std::vector<int> outs;
  for (const auto& var : op->op_desc().Output("Out")) outs.push_back(ctx->Output(var));
  ctx->AddOperation(*op, OperationType::kSplit, {x}, outs, {{"axis", axis}});
  return Status::OK();
}

Status SliceBridge(OpLite* op, BridgeContext* ctx) {
  RETURN_IF_ERROR(
      RequireStatic(op, ctx, {"StartsTensor", "EndsTensor", "StartsTensorList", "EndsTensorList"}));
  auto& p = *static_cast<operators::SliceParam*>(op->param());
  ASSIGN_OR_RETURN(int x, ctx->InputOf(*op, "Input"));
  const std::string out_var = OutVar(*op, "Out");
  if (ctx->check_mode()) {
    ASSIGN_OR_RETURN(int out, ctx->OutputOf(*op, "Out"));
    ctx->AddOperation(*op, OperationType::kSlice, {x}, {out});
    return Status::OK();
  }
  ASSIGN_OR_RETURN(operators::SliceWindow w, operators::ComputeSlice(p));
  // Slice to the full-rank window, then drop decreased axes with a reshape.
  const bool decreased = w.sliced_dims != ctx->Dims(out_var);
  int sliced = decreased ? ctx->AddTemporary(out_var + "/sliced", w.sliced_dims)
                         : ctx->Output(out_var);
  ctx->AddOperation(*op, OperationType::kSlice, {x}, {sliced}, {{"begins", w.begin}});
  if (decreased) {
    int out = ctx->Output(out_var);
    ctx->AddOperation(*op, OperationType::kReshape, {sliced}, {out});
  }
  return Status::OK();
}

Status PadBridge(OpLite* op, BridgeContext* ctx) {
  RETURN_IF_ERROR(RequireStatic(op, ctx, {"Paddings"}));
  auto& p = *static_cast<operators::PadParam*>(op->param());
  if (p.mode == operators::PadParam::kCircular) {
    return Unimplemented(op->DebugName() + ": circular padding is not supported");
  }
  ASSIGN_OR_RETURN(int x, ctx->InputOf(*op, "X"));
  ASSIGN_OR_RETURN(int out, ctx->OutputOf(*op, "Out"));
  const int64_t mode = p.mode == operators::PadParam::kConstant ? 0
                       : p.mode == operators::PadParam::kReflect ? 1 : 2;
  std::map<std::string, AttrValue> attrs{{"mode", mode}, {"value", p.value}};
  if (!ctx->check_mode()) {
    const auto xd = ctx->Dims(InVar(*op, "X"));
    ASSIGN_OR_RETURN(auto pads, operators::ResolvePadding(p, op->DebugName()));
    // pads: (begin, end) for depth, height, width; the last spatial_rank
    // dims of X are padded.
    std::vector<int64_t> all(2 * xd.size(), 0);
    for (int s = 0; s < p.spatial_rank; ++s) {
      const size_t dim = xd.size() - p.spatial_rank + s;
      const int k = 3 - p.spatial_rank + s;
      all[2 * dim] = pads[2 * k];
      all[2 * dim + 1] = pads[2 * k + 1];
    }
    attrs["paddings"] = all;
  }
  ctx->AddOperation(*op, OperationType::kPad, {x}, {out}, attrs);
  return Status::OK();
}

Status InterpolateBridge(OpLite* op, BridgeContext* ctx) {
  RETURN_IF_ERROR(RequireStatic(op, ctx, {"OutSize", "SizeTensor", "Scale"}));
  auto& p = *static_cast<operators::InterpolateParam*>(op->param());
  const bool nearest = p.interp_method == "nearest";
  if (!nearest && p.interp_method != "bilinear") {
    return Unimplemented(op->DebugName() + ": interp_method " + p.interp_method);
  }
  ASSIGN_OR_RETURN(int x, ctx->InputOf(*op, "X"));
  ASSIGN_OR_RETURN(int out, ctx->OutputOf(*op, "Out"));
  std::map<std::string, AttrValue> attrs{{"align_corners", int64_t(p.align_corners ? 1 : 0)},
                                         {"align_mode", int64_t(p.align_mode)}};
  if (!ctx->check_mode()) {
    ASSIGN_OR_RETURN(operators::InterpolatePlan plan, operators::ComputeInterpolatePlan(p));
    attrs["ratio_h"] = plan.ratio_h;
    attrs["ratio_w"] = plan.ratio_w;
  }
  ctx->AddOperation(*op, nearest ? OperationType::kResizeNearest : OperationType::kResizeBilinear,
                    {x}, {out}, attrs);
  return Status::OK();
}

Status BatchNormBridge(OpLite* op, BridgeContext* ctx) {
  auto& p = *static_cast<operators::BatchNormParam*>(op->param());
  if (p.data_layout != "NCHW" && p.data_layout != "AnyLayout") {
    return Unimplemented(op->DebugName() + ": data_layout " + p.data_layout);
  }
  if (!p.scale || !p.bias) return Unimplemented(op->DebugName() + ": Scale and Bias are required");
  ASSIGN_OR_RETURN(int x, ctx->InputOf(*op, "X"));
  std::vector<int> ins{x};
  for (const char* param : {"Scale", "Bias", "Mean", "Variance"}) {
    ASSIGN_OR_RETURN(int c, ctx->ConstantOf(*op, param));
    ins.push_back(c);
  }
  ASSIGN_OR_RETURN(int y, ctx->OutputOf(*op, "Y"));
  ctx->AddOperation(*op, OperationType::kBatchNorm, ins, {y}, {{"epsilon", p.epsilon}});
  return Status::OK();
}

}  // namespace

}  // namespace npu
}  // namespace lite

REGISTER_NPU_BRIDGE(concat, lite::npu::ConcatBridge);
REGISTER_NPU_BRIDGE(split, lite::npu::SplitBridge);
REGISTER_NPU_BRIDGE(slice, lite::npu::SliceBridge);
REGISTER_NPU_BRIDGE(pad2d, lite::npu::PadBridge);
REGISTER_NPU_BRIDGE(pad3d, lite::npu::PadBridge);
REGISTER_NPU_BRIDGE(nearest_interp, lite::npu::InterpolateBridge);
REGISTER_NPU_BRIDGE(nearest_interp_v2, lite::npu::InterpolateBridge);
REGISTER_NPU_BRIDGE(bilinear_interp, lite::npu::InterpolateBridge);
REGISTER_NPU_BRIDGE(bilinear_interp_v2, lite::npu::InterpolateBridge);
REGISTER_NPU_BRIDGE(batch_norm, lite::npu::BatchNormBridge);
