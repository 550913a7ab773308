// DepthwiseInt8Nhwc: int8 depthwise convolution (groups == C_in == C_out) on
// NHWC activations holding s8 or u8 levels, with AVX-512 (compiled only when
// the build targets it; Available() says so at run time). Used by the x86
// int8 conv (lite/kernels/x86/conv_int8_compute.cc) in place of oneDNN 2.6's
// depthwise kernels, whose s8 form (`jit_int8` with s8 compensation) is
// slower than its own float32 depthwise on small maps.
//
// Exact sums in float32: a product of two levels has |x * w| <= 128 * 128
// (s8 input) or 255 * 128 (u8), so a window of kh * kw <= 1024 (s8) / 512
// (u8) products keeps every partial sum an integer of magnitude <= 2^24,
// which float32 holds exactly, in any order. ExactSums() says whether a
// window qualifies; the caller keeps oneDNN for the others.
//
// Algorithm: channels are split into blocks of 64 and a last block of the
// rest rounded up to the vector lanes (16, or 8 when C <= 8), so a block is
// 16-64 channels wide, or 8. The filter levels are converted to float once
// ([block][kh * kw][block width]). Input rows are converted to float,
// [block][columns][block width], (sign- / zero-extend 16 levels, convert;
// a whole row as one run when its pixels are exactly one block wide) once
// each into a per-thread ring of (kh - 1) * dilation_h + 1 rows, zero
// columns for the left / right padding, so an input level is converted once
// and read by every tap that needs it. Taps whose row lies in the top /
// bottom padding are skipped (the padding's columns are computed as zeros).
// A tile keeps R pixels x V vectors of 16 channels in registers (V = 4:
// R = 6, V = 3: 8, V = 2 or 1: 12) and accumulates tap by tap with FMAs; the
// tile for stride 1 and 2 has the column width and pixel stride compiled in,
// so every load is an immediate offset from one pointer (a run-time stride
// keeps 6 offsets in spilled registers). C <= 8 sums in 8-lane (ymm)
// vectors, R = 16 pixels, and runs the epilogue on pixel pairs in 16-lane
// vectors: on AMD Zen 4, where a 512-bit op is two 256-bit ones, 8 of 16
// lanes busy in 64-channel blocks would waste half of each op; a row whose
// pixels are exactly one block wide is converted as one run. With 16 or
// more channels at stride 2 the float form stays slower than oneDNN (a
// converted level feeds only 2-3 taps). Tried and left out: int16 pairs
// of taps summed in int32 by AVX512-VNNI's vpdpwssd (two taps per
// instruction): the pairing of the input rows cost more than it saved.
// Measurements: docs/performance.md, "Own int8 kernels against oneDNN".
// Quads (CPUs with AVX512-VNNI and AVX512-VBMI, dilation_w 1, stride_w 1 or
// 2; UsesQuads() says where): the sums are int32 dot products of four horizontal taps
// per instruction (vpdpbusd: u8 x s8, 64 products per zmm) instead of one
// float FMA per tap. Each input row is first laid out per 16 channels as
// [column][16] bytes with the zero-level padding columns (s8 levels + 128,
// so they are u8; the window's 128 * sum of its valid taps' weights is
// subtracted back: the sums start at minus it), then as quads: for every
// column x a window can start at (every stride_w-th), 16 channels x the 4
// bytes of columns x .. x + 3 (one 64-byte load and a vpermb). A kernel row
// of kw taps is ceil(kw / 4) quads (the weights of columns >= kw are 0), so
// 3x3 needs 3 instructions per pixel and vector where floats need 9, 5x5
// 10 where floats need 25. The quads of a row take the ring's place (the
// same 4 bytes per level as a float). The int32 sums are exact and are
// converted to float before the same epilogue, so both forms give the same
// bits.
// Epilogue per output value, channel c (the order of float operations is
// fixed; the unit test computes it the same way in scalar code):
//   v = fma(sum, scale[c], bias[c])                  (bias 0 without bias)
//   v = act(v)    FusedActivation::Apply's formula for none, relu, relu6,
//                 leaky_relu, hard_sigmoid; hard_swish multiplies by 1 /
//                 beta instead of dividing (int8_epilogue.h) (Supports())
//   float output: v
//   levels output: q = v * out_factor (the caller's 127 / Output_scale, as
//                  quant_math.h's InverseScale computes it), clipped to
//                  [-127, 127] ([-128, 127] for out_round_type 0; [0, 127]
//                  for u8), rounded to nearest even, stored as s8 / u8 (as
//                  oneDNN's post-ops and conversion do in the oneDNN path).
// Output rows are split over the context's thread count with OpenMP (the
// runtime oneDNN's kernels use); results do not depend on the split.
#pragma once

#include <cstdint>
#include <vector>

#include "lite/backends/x86/int8_epilogue.h"
#include "lite/base/fused_activation.h"

namespace lite {
namespace x86 {

class DepthwiseInt8Nhwc {
 public:
  enum class Levels { kS8, kU8 };
  enum class Out { kFloat, kS8, kU8 };

  struct Geometry {
    int64_t n = 1, h = 0, w = 0, c = 0;  // input (NHWC); output has c channels too
    int64_t oh = 0, ow = 0;
    int kh = 1, kw = 1;
    int stride_h = 1, stride_w = 1;
    int pad_top = 0, pad_left = 0;  // bottom / right follow from oh / ow
    int dilation_h = 1, dilation_w = 1;
  };

  // True when this build has the AVX-512 code and the CPU runs it.
  static bool Available();
  // True for the activations the epilogue computes (see above).
  static bool Supports(const operators::FusedActivation& act);
  // True when float32 sums of a kh x kw window are exact for `in` levels.
  static bool ExactSums(int kh, int kw, Levels in);

  // filter: int8 levels [c][kh][kw] (Paddle's [C, 1, kh, kw]).
  void SetFilter(const int8_t* filter, int64_t c, int kh, int kw);
  // Per-channel scale (c values) and optional bias (c values or null), the
  // activation and the output form; out_factor / out_round_type only for
  // levels output.
  void SetEpilogue(const float* scale, const float* bias, const operators::FusedActivation& act,
                   Out out, float out_factor, int out_round_type);

  // True when Run sums `g` in quads (above): the CPU has the instructions,
  // dilation_w is 1, stride_w 1 or 2, not at most 8 channels at stride_h > 1
  // (there the float form is as fast), and ForceFloatSums is off.
  bool UsesQuads(const Geometry& g) const;
  // Sums in floats even where quads could (tests and the benchmark compare
  // the two forms).
  void ForceFloatSums(bool on) { force_float_ = on; }

  // in: n x h x w x c levels (s8 or u8 per `in_type`); out: n x oh x ow x c
  // floats or levels per SetEpilogue. Requires Available(), SetFilter and
  // SetEpilogue with the same c and kernel as `g`.
  void Run(const Geometry& g, const void* in, Levels in_type, void* out, int threads) const;

 private:
  void RunQuads(const Geometry& g, const int8_t* in, bool u8, char* out, int threads) const;

  int64_t c_ = 0, cp_ = 0;  // cp_: c rounded up to the vector lanes (8 or 16)
  int kh_ = 0, kw_ = 0;
  std::vector<float> w_;  // [block][kh * kw][block width], zero-padded channels
  // The quad form's filter: [block][kh][groups][block width][4] levels, taps
  // past kw 0; its 128 * row sums [kh][cp] for s8 input.
  int groups_ = 0;  // quads per kernel row: ceil(kw / 4)
  std::vector<int8_t> wq_;
  std::vector<int32_t> row_sums_;
  bool force_float_ = false;
  int8_epilogue::Params<Out> ep_;  // scale / bias: cp_ values each
};

}  // namespace x86
}  // namespace lite
