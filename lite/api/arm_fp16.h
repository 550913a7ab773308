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
//
// One conv kind stays float32 (no enable_fp16, float filter): a filter that
// holds more than kFp16FlushedShareLimit of its magnitude (sum of |w|) in
// nonzero values below half's smallest normal number 2^-14. XNNPACK's
// operators run with denormals flushed to zero (pthreadpool sets FPCR.FZ16
// on arm64), so arm64's f16 arithmetic reads those weights as 0 (measured
// under QEMU_CPU=max); x86-64's F16C kernels widen them to float and keep
// them. ppocr_det_en_PP-OCRv3's head conv (BN folded into a
// filter whose largest value is 5.9e-4) holds 34% of its magnitude there and
// lost the text map on arm64 (docs/arm.md, "fp16"); every other conv of the
// shared models holds at most 0.1%.
#pragma once

#include <cstdint>
#include <vector>

#include "lite/base/program_desc.h"
#include "lite/base/scope.h"
#include "lite/base/types.h"
#include "lite/utils/status.h"

namespace lite {

Status CheckArmFp16(const std::vector<Place>& valid_places);

// Above this share of a filter's magnitude in half subnormals, the conv
// stays float32 (see above; 10x above the largest share of the fp16-safe
// convs measured, 30x below the one that failed).
inline constexpr double kFp16FlushedShareLimit = 0.01;

// The share of sum |w| over `n` values held by nonzero |w| < 2^-14.
double HalfSubnormalShare(const float* w, size_t n);

// What ApplyArmFp16 did: convs marked fp16, and arm convs kept float32
// because of their filter (HalfSubnormalShare > kFp16FlushedShareLimit).
struct ArmFp16Summary {
  int64_t fp16_convs = 0;
  int64_t kept_f32_subnormal_filter = 0;
};

// Marks block `block` of `program` and converts its filters in `scope`.
StatusOr<ArmFp16Summary> ApplyArmFp16(cpp::ProgramDesc* program, int block, Scope* scope);

}  // namespace lite
