// Reads the JSON form of a Paddle 3 PIR program (`inference.json`) into a
// pir::Program. The JSON is parsed with RapidJSON (Debian's rapidjson-dev):
// it is header-only, parses a multi-MB file into one compact DOM arena in a
// single pass several times faster than nlohmann-json, and has an
// iterative mode so hostile nesting cannot exhaust the stack.
//
// Accepted: base_code.magic "pir" and versions 0..kMaxPirVersion (every
// version a released Paddle 3.x wrote; patches between versions only change
// attribute widths and add attributes, and the translator reads attributes
// by name and converts numeric widths). A newer version is Unimplemented
// naming both versions. Malformed JSON or structure is InvalidArgument
// naming `name_for_errors` and, where there is one, the op.
#pragma once

#include <string>

#include "lite/model_parser/pir/pir_program.h"
#include "lite/utils/status.h"

namespace lite {
namespace pir {

constexpr int64_t kMaxPirVersion = 4;

// True when `bytes` look like a PIR JSON program (first non-blank byte is
// '{' and "base_code" occurs near the start): used to detect the format
// from the content rather than the file name.
bool LooksLikePirJson(const std::string& bytes);

StatusOr<Program> ParsePirJson(const std::string& bytes,
                               const std::string& name_for_errors);

}  // namespace pir
}  // namespace lite
