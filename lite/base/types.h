// Basic engine types: element data types, and the Place (target, precision,
// layout) that kernels are registered under and that passes reason about.
//
// DataType values are our own; model_parser maps them to and from Paddle's
// VarType::Type codes. All enums here are plain values owned by no one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace lite {

enum class DataType : int {
  kUnknown = 0,
  kBool,
  kInt8,
  kUInt8,
  kInt16,
  kInt32,
  kInt64,
  kFloat16,
  kFloat32,
  kFloat64,
};

size_t DataTypeSize(DataType t);
const char* DataTypeName(DataType t);  // "float32", "int64", ...

template <typename T>
constexpr DataType DataTypeOf();
template <> constexpr DataType DataTypeOf<bool>() { return DataType::kBool; }
template <> constexpr DataType DataTypeOf<int8_t>() { return DataType::kInt8; }
template <> constexpr DataType DataTypeOf<uint8_t>() { return DataType::kUInt8; }
template <> constexpr DataType DataTypeOf<int16_t>() { return DataType::kInt16; }
template <> constexpr DataType DataTypeOf<int32_t>() { return DataType::kInt32; }
template <> constexpr DataType DataTypeOf<int64_t>() { return DataType::kInt64; }
template <> constexpr DataType DataTypeOf<float>() { return DataType::kFloat32; }
template <> constexpr DataType DataTypeOf<double>() { return DataType::kFloat64; }

// Where a kernel runs. kHost is portable C++ and the fallback for any target;
// kARM runs XNNPACK's operators (NEON on ARM, its x86 kernels elsewhere).
// The numbers are not stored anywhere (kernel keys and .nb files name targets
// by TargetName), but kARM comes last so that existing values keep theirs.
enum class TargetType : int { kUnk = 0, kHost, kX86, kNPU, kAny, kARM };
// The element type a kernel computes in.
enum class PrecisionType : int { kUnk = 0, kFloat, kInt8, kInt32, kInt64, kBool, kAny };
// Memory layout of a kernel's tensors.
enum class DataLayoutType : int { kUnk = 0, kNCHW, kNHWC, kAny };

const char* TargetName(TargetType t);        // "host", "x86", "npu", "arm", "any"
const char* PrecisionName(PrecisionType p);  // "float", "int8", ...
const char* LayoutName(DataLayoutType l);    // "NCHW", "NHWC", "any"
// Parses "host" / "x86" / "npu" / "arm" / "any" (case-insensitive); kUnk when
// unknown.
TargetType ParseTarget(const std::string& name);

struct Place {
  TargetType target = TargetType::kHost;
  PrecisionType precision = PrecisionType::kFloat;
  DataLayoutType layout = DataLayoutType::kNCHW;

  Place() = default;
  Place(TargetType t, PrecisionType p = PrecisionType::kFloat,
        DataLayoutType l = DataLayoutType::kNCHW)
      : target(t), precision(p), layout(l) {}

  bool operator==(const Place& o) const {
    return target == o.target && precision == o.precision && layout == o.layout;
  }
  bool operator!=(const Place& o) const { return !(*this == o); }
  bool operator<(const Place& o) const;
  std::string DebugString() const;  // "host/float/NCHW"
};

// True when a tensor living on `from` can be read directly by a kernel on
// `to` (same target, or either side is kAny; host, x86 and arm share memory).
bool TargetCompatible(TargetType from, TargetType to);

}  // namespace lite

#define TARGET(x) ::lite::TargetType::x
#define PRECISION(x) ::lite::PrecisionType::x
#define DATALAYOUT(x) ::lite::DataLayoutType::x
