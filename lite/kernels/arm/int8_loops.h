// The element-wise loops of the arm int8 conv's float form and of its qc8
// input (conv_int8_compute.cc): quantizing float activations to levels,
// quant-dequantizing them, dequantizing s8 / u8 levels, and requantizing
// float outputs to x86's output levels, and a table lookup on levels.
//
// Each gives bit for bit the values of the scalar rule it replaces
// (lite/base/quant_math.h's Quantizer, level * scale / 127, and x86's output
// rounding), so the simulation's arithmetic does not change. On aarch64
// they run NEON, 4 to 8 values a step: GCC's -O2 leaves these loops scalar
// there (its cheap vectorizer takes no loop that needs a remainder), and
// under the float form they cost about as many instructions as the
// convolutions themselves. Elsewhere they call quant_math.h's loops (with
// their AVX-512 forms) or plain loops. bin_cnt is 127 throughout.
#pragma once

#include <cstddef>
#include <cstdint>

namespace lite {
namespace kernels {
namespace arm {

// q[i] = Quantizer(scale, 127, round_type).Level(x[i]) as int8.
void QuantizeLevels(const float* x, int8_t* q, size_t n, float scale, int round_type);

// QuantizeLevels of x[p * c + i] * g[i] (one float product, as a multiply
// operator computes it) for pixels p < `pixels`: a gate per channel scaling
// NHWC activations, quantized as it is written (squeeze_excitation's
// levels output).
void GateQuantizeLevels(const float* x, const float* g, int8_t* q, size_t pixels, size_t c,
                        float scale, int round_type);

// y[i] = Quantizer(scale, 127, round_type).QuantDequant(x[i]).
void QuantDequantLevels(const float* x, float* y, size_t n, float scale, int round_type);

// y[i] = l[i] * scale / 127 (Quantizer::Dequantize) of s8 / u8 levels.
void DequantizeLevels(const int8_t* l, float* y, size_t n, float scale);
void DequantizeLevels(const uint8_t* l, float* y, size_t n, float scale);

// x86's output levels: y[i] * factor clipped to [lo, 127] (NaN -> lo),
// rounded to nearest even, as int8.
void RequantizeLevels(const float* y, int8_t* q, size_t n, float factor, float lo);

// y[i] = lut[x[i] + 128]: a function of s8 levels as a 256-entry table
// (y may be x).
void LookupLevels(const int8_t* x, int8_t* y, size_t n, const int8_t* lut);

}  // namespace arm
}  // namespace kernels
}  // namespace lite
