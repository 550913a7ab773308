// The device-neutral NN IR: what op bridges write and device drivers read.
//
// A Model is a list of operands (tensors: their element type, dims, lifetime
// and, for constants, their data) and a list of operations in execution
// order (a closed enum of types with typed attributes) that read and write
// operands by index. Nothing here knows about Paddle ops, scopes or drivers:
// bridges (lite/kernels/npu/bridges) translate Paddle ops into it, drivers
// (lite/backends/npu/<driver>) compile and run it. A Model owns its operands
// and their constant data; it is a plain value (copyable; copies share
// constants' bytes, copy on write: shared_bytes.h).
//
// Layout: every operand is in Paddle's order (images NCHW, conv filters
// OIHW, conv_transpose filters IOHW, fc weights [K, N]). A driver that wants
// another layout converts at its own boundaries and at compile time.
//
// Semantics of every operation type are stated at its enum value below; the
// reference driver (lite/backends/npu/reference) is their executable
// definition. Output operand dims are always given (computed by the bridge
// from Paddle's InferShape); operations never infer shapes themselves. Dims
// may hold -1 only in a model built in check mode (shapes not yet known).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "lite/backends/npu/nn_ir_operations.h"
#include "lite/backends/npu/shared_bytes.h"

namespace lite {
namespace npu {

// kInt8 holds quantized levels (an Operand with `quant`; see Quantization).
enum class ElementType : int { kFloat32 = 0, kInt32, kInt64, kInt8 };
const char* ElementTypeName(ElementType t);
size_t ElementSize(ElementType t);

enum class Lifetime : int {
  kModelInput = 0,   // fed by the caller of Execute, in Model::inputs order
  kModelOutput,      // written for the caller, in Model::outputs order
  kConstant,         // data below, known at compile time
  kTemporary,        // produced and consumed inside the model
};
const char* LifetimeName(Lifetime l);

// How the levels of an int8 operand stand for real values: real = scale *
// (level - zero_point), with one scale for the tensor (kPerTensor) or one
// per index of dimension `axis` (kPerChannel, zero_point 0: conv filters
// along 0 (O), fully-connected weights [K, N] along 1). kNone on every
// other operand.
struct Quantization {
  enum Kind : int { kNone = 0, kPerTensor, kPerChannel };
  Kind kind = kNone;
  std::vector<float> scales;  // 1 (kPerTensor) or dims[axis] (kPerChannel)
  int32_t zero_point = 0;     // kPerTensor only
  int32_t axis = 0;           // kPerChannel only
  // "" when consistent with an operand of `dims` (-1 dims not checked):
  // scales finite and > 0, their count, the axis in range.
  std::string Check(const std::vector<int64_t>& dims) const;
};

struct Operand {
  ElementType type = ElementType::kFloat32;
  Quantization quant;         // kInt8 operands only
  std::vector<int64_t> dims;
  Lifetime lifetime = Lifetime::kTemporary;
  SharedBytes data;           // kConstant: row-major; empty in check mode (shared by copies)
  std::string name;           // the Paddle variable it stands for (reports)

  int64_t numel() const;      // -1 when a dim is unknown
  const float* f32() const { return reinterpret_cast<const float*>(data.data()); }
};

// The closed set of operations, one row each in nn_ir_operations.h (name,
// arity, attributes, ABI value). Their semantics: "x", "y", ... name inputs
// in order; "out" the single output unless stated. Broadcasting is numpy's:
// dims aligned from the right, each pair equal or one of them 1.
//
// conv2d: inputs x [N,C,H,W], filter [O, C/groups, kh, kw] (constant), bias
//   [O] (constant, optional). attrs: strides [2], paddings [4] = {top,
//   bottom, left, right}, dilations [2], groups. out[n,o,oh,ow] = bias[o] +
//   sum x[n, g*C/groups + c, oh*sh - top + i*dh, ow*sw - left + j*dw] *
//   filter[o, c, i, j] over in-bounds positions (zero padding).
// conv2d_transpose: inputs x [N,C,H,W], filter [C, O/groups, kh, kw]
//   (constant), bias [O] (optional). attrs: strides, paddings [4],
//   dilations, groups. out[n, g*O/groups + o, ih*sh - top + i*dh, iw*sw -
//   left + j*dw] += x[n, g*C/groups + c, ih, iw] * filter[g*C/groups + c, o,
//   i, j] for positions inside out (out dims given; output_padding is in
//   them).
// pool2d: inputs x [N,C,H,W]. attrs: pool_type (0 max, 1 avg), ksize [2],
//   strides [2], paddings [4], exclusive (avg only). Output dims given
//   (ceil_mode is in them). Window of (oh, ow): rows hs = oh*sh - top, he =
//   min(hs + kh, H + top) (Paddle bounds the end by the *top* padding), then
//   clipped to [0, H); columns alike with left. max: max over the clipped
//   window (-FLT_MAX when empty). avg: sum over the clipped window divided by
//   the clipped window size when exclusive, else by (he - hs) * (we - ws)
//   computed before clipping to [0, H) / [0, W).
// fully_connected: inputs x [M, K], w [K, N] (constant), bias [N]
//   (optional). out [M, N].
// add, sub, mul, div, max, min: elementwise binary with broadcasting, out =
//   x op y.
// Elementwise unary, out = f(x): relu max(x, 0); relu6 min(max(x, 0), 6);
//   leaky_relu (alpha) x > 0 ? x : alpha * x; sigmoid 1 / (1 + exp(-x));
//   tanh; swish (beta) x / (1 + exp(-beta * x)); hard_swish (threshold,
//   scale, offset) x * min(max(x + offset, 0), threshold) / scale;
//   hard_sigmoid (slope, offset) min(max(slope * x + offset, 0), 1); clip
//   (min, max) min(max(x, min), max); scale (scale, bias) scale * x + bias;
//   exp; abs.
// prelu: inputs x, alpha (constant, broadcast to x). x > 0 ? x : alpha * x.
// softmax: attrs axis (>= 0). Softmax along axis.
// reshape: out has the given dims, same elements in the same row-major
//   order.
// transpose: attrs perm. out dims[i] = x dims[perm[i]].
// concat: inputs x0..xn-1. attrs axis (>= 0).
// split: inputs x; outputs out0..outn-1 (sizes along axis from their dims).
//   attrs axis (>= 0).
// slice: attrs begins (one per dim). out[i...] = x[begins + i...] (stride 1,
//   out dims give the extents).
// pad: attrs paddings [2 * rank] = {before0, after0, before1, after1, ...},
//   mode (0 constant, 1 reflect, 2 edge), value (constant mode).
// resize_nearest: inputs x [N,C,H,W]; out [N,C,OH,OW]. attrs align_corners,
//   ratio_h, ratio_w (the source step per output pixel, as Paddle computes
//   it); align_mode is ignored. Source row of oh: align_corners ?
//   round(ratio_h * oh) : floor(ratio_h * oh), clamped to H - 1
//   (nearest_interp / nearest_interp_v2).
// resize_bilinear: attrs align_corners, align_mode, ratio_h, ratio_w.
//   half_pixel = (align_mode == 0 && !align_corners): src = half_pixel ?
//   max(ratio * (o + 0.5) - 0.5, 0) : ratio * o; i0 = floor(src), i1 = min(i0
//   + 1, H - 1), weights (1 - (src - i0), src - i0) (bilinear_interp(_v2)).
// batch_norm: inputs x [N,C,...], scale, bias, mean, variance (constants
//   [C]). attrs epsilon. out = (x - mean) / sqrt(variance + epsilon) * scale
//   + bias per channel (dim 1).
// quantize: x float32 -> out int8 with per-tensor quantization (scale q,
//   zero point z). attrs round_type: 1 (Paddle's fake quantization) level =
//   round_half_away(clip(x / q, -127, 127)) + z; 0 level =
//   round_ties_even(x / q) clamped to [-128, 127], + z.
//
// Quantized conv2d and fully_connected: x int8 (per-tensor, scale sx, zero
// point zx), filter / w int8 (per-channel along the output channel: conv
// axis 0, fully connected axis 1, scales sw[c]), bias float32. The sum of
// (x - zx) * w over the window is exact in int32; out float32 = sum * sx *
// sw[c] + bias[c]; out int8 (per-tensor so, zo) = clamp(round_half_away(
// (sum * sx * sw[c] + bias[c]) / so) + zo, -128, 127). Other operations
// take float32 (or int32/int64 where stated) operands only.
enum class OperationType : int {
#define LITE_NPU_OPERATION_ENUM(e, abi, name, in_min, in_max, out_min, out_max, attrs) e,
  LITE_NPU_OPERATIONS(LITE_NPU_OPERATION_ENUM)
#undef LITE_NPU_OPERATION_ENUM
};
const char* OperationTypeName(OperationType t);  // "conv2d", "add", ...
constexpr int kNumOperationTypes = 0
#define LITE_NPU_OPERATION_COUNT(e, abi, name, in_min, in_max, out_min, out_max, attrs) +1
    LITE_NPU_OPERATIONS(LITE_NPU_OPERATION_COUNT);
#undef LITE_NPU_OPERATION_COUNT

// What the table says about one operation type.
enum class AttrKind : int { kInt = 0, kFloat, kInts, kFloats };
struct OperationInfo {
  const char* name;
  int min_inputs, max_inputs;    // max -1: unbounded
  int min_outputs, max_outputs;  // max -1: unbounded
  std::map<std::string, AttrKind> attrs;  // the attributes it may carry
};
// The table row of `t`; CHECK-fails on a value outside the enum.
const OperationInfo& InfoOf(OperationType t);

using AttrValue = std::variant<int64_t, float, std::vector<int64_t>, std::vector<float>>;

struct Operation {
  OperationType type = OperationType::kRelu;
  std::vector<int> inputs;   // operand indices
  std::vector<int> outputs;  // operand indices
  std::map<std::string, AttrValue> attrs;
  // Who asked for it, for reasons and reports: "conv2d (output: x.tmp_0)".
  std::string origin;

  // Typed reads; `fallback` when absent or of another type.
  int64_t Int(const std::string& key, int64_t fallback = 0) const;
  float Float(const std::string& key, float fallback = 0.f) const;
  std::vector<int64_t> Ints(const std::string& key) const;
  std::vector<float> Floats(const std::string& key) const;
};

// "" when `op`'s operand counts and attribute names/kinds fit its row of the
// table, else why not (naming the attribute or the count).
std::string CheckOperationSignature(const Operation& op);

struct Model {
  std::vector<Operand> operands;
  std::vector<Operation> operations;  // execution order
  std::vector<int> inputs;            // kModelInput operands, caller's order
  std::vector<int> outputs;           // kModelOutput operands, caller's order

  int AddOperand(Operand operand);
  int AddOperation(Operation operation);
  // Structural checks every driver may rely on: indices in range, each
  // temporary/output written exactly once before it is read, inputs and
  // constants never written, constants carry numel * size bytes (unless
  // check mode), no -1 dims (unless check mode). Names the operation.
  std::string Validate(bool check_mode) const;  // "" when valid
  // One line per operand and operation (tests, --verbose dumps).
  std::string DebugString() const;
};

}  // namespace npu
}  // namespace lite
