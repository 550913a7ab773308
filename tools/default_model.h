// The default model of the quickstart: a small deterministic CNN generated
// in code (no download), saved as a Paddle combined model. The tools' LCG
// (LcgUniform) lives in tools/tool_util.h, included here.
//
//   x [-1,3,32,32] -> conv2d 3x3 (8) -> batch_norm -> relu -> pool2d max 2x2
//   -> conv2d 1x1 (16) -> elementwise_add bias (axis 1) -> hard_swish
//   -> pool2d avg global -> flatten_contiguous_range -> matmul_v2 [16,10]
//   -> elementwise_add bias -> softmax -> "prob" [-1,10]
//
// Owned by tools/ (make_default_model, the light predictor test). Every call
// returns fresh values owned by the caller.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "lite/base/scope.h"
#include "lite/base/program_desc.h"
#include "lite/utils/status.h"
#include "tools/program_builder.h"
#include "tools/tool_util.h"  // LcgUniform

namespace lite {
namespace tools {

using DefaultModel = BuiltProgram;  // the program and its weights

inline constexpr const char* kDefaultModelInput = "x";
inline constexpr const char* kDefaultModelOutput = "prob";

DefaultModel MakeDefaultModel();

// Writes `dir`/__model__ and `dir`/__params__, creating `dir` (and missing
// parents). Errors name the path.
Status WriteDefaultModel(const std::string& dir);

}  // namespace tools
}  // namespace lite
