// Softmax over one extent of float data laid out as [outer, axis, inner]
// (row-major): for every outer index and inner index, the `axis` values at
// stride `inner` become exp(x - max) / sum. Used by the x86 softmax kernel,
// which maps the op's logical axis to this memory view (NHWC activations
// included). With AVX-512 the inner == 1 case (the axis innermost: a CTC
// head's classes, attention rows) runs 16 values of a row per vector (rows
// shorter than 16, a channel softmax of an NHWC map, one row per lane), and
// inner > 1 runs 16 inner positions per vector (the axis at a stride, e.g.
// W of an NHWC tensor), each with a vector exp (Cephes' polynomial, within
// 2 ulp of expf); without AVX-512 the same loops run on std::exp.
#pragma once

#include <cstdint>

namespace lite {
namespace x86 {

void Softmax(const float* x, float* y, int64_t outer, int64_t axis, int64_t inner);

}  // namespace x86
}  // namespace lite
