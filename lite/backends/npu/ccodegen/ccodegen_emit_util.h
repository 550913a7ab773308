// What ccodegen_emit.cc's emitter computes besides the code it writes:
// exact C literals for numbers and lists, row-major and broadcast strides,
// the kernels' operation codes (the CCG_* enums of ccodegen_kernels.h and
// ccodegen_kernels_misc.h) and the scratch a conv needs. Internal to the
// ccodegen driver.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "lite/backends/npu/nn_ir.h"

namespace lite {
namespace npu {
namespace ccg_emit {


constexpr int64_t kAlignFloats = 16;  // 64 bytes; CCG_LANES of ccodegen_kernels.h

inline int64_t AlignUp(int64_t n) { return (n + kAlignFloats - 1) / kAlignFloats * kAlignFloats; }

inline int64_t Product(const std::vector<int64_t>& dims, size_t begin, size_t end) {
  int64_t n = 1;
  for (size_t i = begin; i < end && i < dims.size(); ++i) n *= dims[i];
  return n;
}

inline std::string Ints(const std::vector<int64_t>& v) {
  std::string s = "{";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "}";
}

// An exact C literal for `f` (hex float), INFINITY / NAN where needed.
inline std::string FloatLiteral(float f) {
  if (std::isnan(f)) return "NAN";
  if (std::isinf(f)) return f > 0 ? "INFINITY" : "-INFINITY";
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%af", static_cast<double>(f));
  return buf;
}

inline std::vector<int64_t> RowMajorStrides(const std::vector<int64_t>& dims) {
  std::vector<int64_t> s(dims.size(), 1);
  for (size_t i = dims.size(); i-- > 1;) s[i - 1] = s[i] * dims[i];
  return s;
}

// Strides of `dims` right-aligned to `rank`, 0 where broadcast.
inline std::vector<int64_t> BroadcastStrides(const std::vector<int64_t>& dims, size_t rank) {
  std::vector<int64_t> strides(rank, 0);
  int64_t s = 1;
  for (size_t i = 0; i < dims.size(); ++i) {
    const size_t d = dims.size() - 1 - i, r = rank - 1 - i;
    strides[r] = dims[d] == 1 ? 0 : s;
    s *= dims[d];
  }
  return strides;
}

inline int BinaryCode(OperationType t) {
  switch (t) {
    case OperationType::kAdd: return 0;
    case OperationType::kSub: return 1;
    case OperationType::kMul: return 2;
    case OperationType::kDiv: return 3;
    case OperationType::kMax: return 4;
    case OperationType::kMin: return 5;
    default: return 6;  // kPRelu
  }
}

// CCG_RELU... in the order of ccodegen_kernels.h; -1 when not unary.
inline int UnaryCode(OperationType t) {
  static const OperationType kOrder[] = {
      OperationType::kRelu,      OperationType::kRelu6,    OperationType::kLeakyRelu,
      OperationType::kSigmoid,   OperationType::kTanh,     OperationType::kSwish,
      OperationType::kHardSwish, OperationType::kHardSigmoid, OperationType::kClip,
      OperationType::kScale,     OperationType::kExp,      OperationType::kAbs};
  for (size_t i = 0; i < sizeof(kOrder) / sizeof(kOrder[0]); ++i) {
    if (kOrder[i] == t) return static_cast<int>(i);
  }
  return -1;
}

// The floats ccg_conv2d of ccodegen_kernels.h needs in `col`: the padded,
// stride-phased plane and accumulator row of ccg_depthwise, else im2col rows
// padded to kAlignFloats (ccg_padded).
inline int64_t ConvBufferFloats(const Operation& op, const std::vector<int64_t>& x,
                         const std::vector<int64_t>& f, const std::vector<int64_t>& y) {
  const int64_t groups = std::max<int64_t>(1, op.Int("groups", 1));
  if (x[1] == groups && y[1] == groups) {
    auto strides = op.Ints("strides"), dil = op.Ints("dilations");
    if (dil.size() != 2) dil = {1, 1};
    if (strides.size() != 2 || strides[0] < 1 || strides[1] < 1) return 0;  // EmitConv refuses it
    const int64_t rows = (y[2] - 1) * strides[0] + (f[2] - 1) * dil[0] + 1;
    const int64_t cols = (AlignUp(y[3]) - 1) * strides[1] + (f[3] - 1) * dil[1] + 1;
    const int64_t phase_cols = (cols + strides[1] - 1) / strides[1];
    return rows * strides[1] * phase_cols + AlignUp(y[3]);
  }
  return f[1] * f[2] * f[3] * AlignUp(y[2] * y[3]);
}

}  // namespace ccg_emit
}  // namespace npu
}  // namespace lite
