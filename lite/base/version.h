// The engine version: written into every optimized model (.nb header) and
// printed by the tools. Bump it with each release; the naive-buffer format
// version (lite/model_parser/naive_buffer/naive_buffer.h) is separate and only
// changes when the file layout does. Owned by the release process.
#pragma once

namespace lite {

inline constexpr const char* kEngineVersion = "0.1.0";

}  // namespace lite
