// LayerNorm over the innermost extent of float data laid out as [rows, n]
// (row-major): each row becomes (x - mean) / sqrt(var + epsilon), then times
// scale[j] and plus bias[j] where given (Paddle's layer_norm with
// begin_norm_axis splitting the dims into rows and n; also LayerNorm over
// the channels of an NHWC activation, where C is innermost). The mean and
// the population variance are two passes over the row (the deviations
// summed, not E[x^2] - mean^2, which cancels for rows far from zero); with
// AVX-512 each pass runs 16 values per vector with masked tails, without it
// the same loops run on scalars. Optional per-row outputs: the mean and the
// variance (as Paddle's Mean / Variance outputs hold them).
#pragma once

#include <cstdint>

namespace lite {
namespace x86 {

void LayerNormRows(const float* x, float* y, int64_t rows, int64_t n, const float* scale,
                   const float* bias, float epsilon, float* mean_out, float* var_out);

}  // namespace x86
}  // namespace lite
