#include "lite/base/types.h"

#include <algorithm>
#include <cctype>
#include <tuple>

namespace lite {

size_t DataTypeSize(DataType t) {
  switch (t) {
    case DataType::kBool:
    case DataType::kInt8:
    case DataType::kUInt8: return 1;
    case DataType::kInt16:
    case DataType::kFloat16: return 2;
    case DataType::kInt32:
    case DataType::kFloat32: return 4;
    case DataType::kInt64:
    case DataType::kFloat64: return 8;
    case DataType::kUnknown: return 0;
  }
  return 0;
}

const char* DataTypeName(DataType t) {
  switch (t) {
    case DataType::kBool: return "bool";
    case DataType::kInt8: return "int8";
    case DataType::kUInt8: return "uint8";
    case DataType::kInt16: return "int16";
    case DataType::kInt32: return "int32";
    case DataType::kInt64: return "int64";
    case DataType::kFloat16: return "float16";
    case DataType::kFloat32: return "float32";
    case DataType::kFloat64: return "float64";
    case DataType::kUnknown: return "unknown";
  }
  return "unknown";
}

const char* TargetName(TargetType t) {
  switch (t) {
    case TargetType::kHost: return "host";
    case TargetType::kX86: return "x86";
    case TargetType::kNPU: return "npu";
    case TargetType::kARM: return "arm";
    case TargetType::kAny: return "any";
    case TargetType::kUnk: return "unk";
  }
  return "unk";
}

const char* PrecisionName(PrecisionType p) {
  switch (p) {
    case PrecisionType::kFloat: return "float";
    case PrecisionType::kInt8: return "int8";
    case PrecisionType::kInt32: return "int32";
    case PrecisionType::kInt64: return "int64";
    case PrecisionType::kBool: return "bool";
    case PrecisionType::kAny: return "any";
    case PrecisionType::kUnk: return "unk";
  }
  return "unk";
}

const char* LayoutName(DataLayoutType l) {
  switch (l) {
    case DataLayoutType::kNCHW: return "NCHW";
    case DataLayoutType::kNHWC: return "NHWC";
    case DataLayoutType::kAny: return "any";
    case DataLayoutType::kUnk: return "unk";
  }
  return "unk";
}

TargetType ParseTarget(const std::string& name) {
  std::string s = name;
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  if (s == "host") return TargetType::kHost;
  if (s == "arm") return TargetType::kARM;
  if (s == "x86") return TargetType::kX86;
  if (s == "npu") return TargetType::kNPU;
  if (s == "any") return TargetType::kAny;
  return TargetType::kUnk;
}

bool Place::operator<(const Place& o) const {
  return std::make_tuple(target, precision, layout) <
         std::make_tuple(o.target, o.precision, o.layout);
}

std::string Place::DebugString() const {
  return std::string(TargetName(target)) + "/" + PrecisionName(precision) +
         "/" + LayoutName(layout);
}

bool TargetCompatible(TargetType from, TargetType to) {
  if (from == to || from == TargetType::kAny || to == TargetType::kAny) {
    return true;
  }
  auto host_memory = [](TargetType t) {
    return t == TargetType::kHost || t == TargetType::kX86 || t == TargetType::kARM;
  };
  return host_memory(from) && host_memory(to);
}

}  // namespace lite
