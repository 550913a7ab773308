// LevelsOutput: a float op whose output is written as int8 levels.
//
// int8_requantize_pass (lite/optimizer/passes/int8_requantize_pass.cc) gives
// a float producer whose output only int8 convs read (all with one
// Input_scale and rounding) the attributes `Output_dtype` "int8",
// `Output_scale` (the readers' Input_scale) and `Output_round_type`, plus
// `enable_int8` so that only a kInt8 kernel is picked for it. Its kernel then
// quantizes each value by the rule of operators/quant_math.h as it writes it,
// so the readers get exactly the levels they would have computed, and the
// float32 output is never written. The op's param owns one of these; ops
// that support it say so in their header. Without the attributes: float32.
#pragma once

#include "lite/base/program_desc.h"
#include "lite/utils/status.h"

namespace lite {
namespace operators {

struct LevelsOutput {
  bool enabled = false;  // Output holds int8 levels
  float scale = 0.f;     // of these
  int round_type = 1;    // quant_math.h's rounding rule
};

// Reads the attributes above from `desc` (an error message names the bad
// attribute; the caller prefixes the op). Output_dtype "int8" without
// enable_int8 is an error: a float kernel could be picked and ignore it.
StatusOr<LevelsOutput> LevelsOutputFromOpDesc(const cpp::OpDesc& desc);

}  // namespace operators
}  // namespace lite
