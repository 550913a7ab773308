// opt --enable_fp16 (CxxConfig::enable_fp16) on the optimized program.
//
// CheckArmFp16 refuses the switch where it could do nothing: without the arm
// target among the valid places, or on a CPU without the half arithmetic
// XNNPACK's f16 operators need (the error names the feature). ApplyArmFp16
// runs after lowering: every conv2d / depthwise_conv2d whose picked kernel is
// arm's gets the attribute enable_fp16 (its kernel then runs
// convolution2d_nhwc_f16), and each filter read only by such ops is stored
// as float16 in the scope and the var desc, so the .nb holds half the filter
// bytes and the kernel packs the half values without a second copy.
#pragma once

#include <vector>

#include "lite/base/program_desc.h"
#include "lite/base/scope.h"
#include "lite/base/types.h"
#include "lite/utils/status.h"

namespace lite {

Status CheckArmFp16(const std::vector<Place>& valid_places);

// Marks block `block` of `program` and converts its filters in `scope`.
Status ApplyArmFp16(cpp::ProgramDesc* program, int block, Scope* scope);

}  // namespace lite
