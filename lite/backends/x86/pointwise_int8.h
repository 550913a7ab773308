// PointwiseInt8: int8 1x1 stride-1 convolution (groups 1, no padding) on
// NHWC activations holding s8 or u8 levels, i.e. the GEMM
// out[pixels x oc] = in[pixels x ic] * W^T[ic x oc], with AVX512-VNNI
// (compiled only when the build targets it; Available() says so at run
// time). Used by the x86 int8 conv (lite/kernels/x86/conv_int8_compute.cc)
// for every 1x1 conv with s8 input (OwnPointwise says which others). On
// shallow inputs oneDNN 2.6's brgconv_1x1 spends more time around its few
// dot products than in them; on deeper ones this kernel wins by keeping its
// sums in registers and broadcasting the input from memory.
//
// Algorithm: the filter is packed once as [ic / 4][oc rounded up to 16][4
// levels] (zero-padded), so one 64-byte load holds 4 input channels' levels
// of 16 output channels. A tile keeps R pixels x V vectors of 16 output
// channels (V <= 4; the vectors split into panels as evenly as they go) of
// int32 sums in registers and adds, per input quad and pixel, the dot
// products of the pixel's 4 levels with each filter vector (vpdpbusd, u8 x
// s8). With s8 input of 32 or more channels the filter is the u8 operand
// (levels + 128) and the pixel's levels the s8 one, broadcast by the
// vpdpbusd from memory; the sums then hold 128 * the pixel's level sum,
// computed once per pixel and subtracted first. Shallower inputs, where
// that per-pixel sum costs more than it saves, and u8 input (which the s8
// operand cannot hold) broadcast the levels into a register, s8 shifted to
// u8 by xor 0x80 in the same vpxord, and subtract 128 * the channel's
// filter sum.
// A last partial quad is loaded with a byte mask (the padded filter levels
// are 0).
// At most 8 output channels and at most 32 input channels, a multiple of 4
// (pair mode): lanes 0-7 hold one pixel's channels and lanes 8-15 the
// next pixel's, each pixel's quads picked out of one masked load of the
// pair's bytes by a lane permutation, so the epilogue does half the
// vectors. With exactly 8 channels (and no residual repeat) a pair's
// residual and output values are contiguous: one plain load and store
// instead of a masked one per pixel. The int32 sums are
// exact; the epilogue (int8_epilogue.h: scale, bias, an optional residual,
// the activation, float or s8 / u8 levels) starts from float(sum). Pixel
// tiles are split over the context's thread count with OpenMP; results do not
// depend on the split.
#pragma once

#include <cstdint>
#include <vector>

#include "lite/backends/x86/int8_epilogue.h"
#include "lite/base/fused_activation.h"

namespace lite {
namespace x86 {

class PointwiseInt8 {
 public:
  enum class Levels { kS8, kU8 };
  enum class Out { kFloat, kS8, kU8 };

  // True when this build has the AVX512-VNNI code and the CPU runs it.
  static bool Available();
  // True for the activations the epilogue computes (int8_epilogue.h).
  static bool Supports(const operators::FusedActivation& act);
  // True when an oc x ic filter runs in pair mode (see above).
  static bool PairMode(int64_t oc, int64_t ic) { return oc <= 8 && ic % 4 == 0 && ic <= 32; }

  // filter: int8 levels [oc][ic] (Paddle's OIHW with a 1x1 kernel).
  void SetFilter(const int8_t* filter, int64_t oc, int64_t ic);
  // Per-channel scale (oc values) and optional bias (oc values or null);
  // out_factor / out_round_type only for levels output.
  void SetEpilogue(const float* scale, const float* bias, const operators::FusedActivation& act,
                   Out out, float out_factor, int out_round_type);

  // in: pixels x ic levels; out: pixels x oc floats or levels; residual
  // (or null): oc floats per pixel added after the bias, before the
  // activation (a conv's ResidualData), pixel p / residual_repeat of it for
  // output pixel p (a row upscaled by that factor: conv2d_resize_add).
  void Run(int64_t pixels, const void* in, Levels in_type, void* out, int threads,
           const float* residual = nullptr, int64_t residual_repeat = 1) const;

 private:
  int64_t oc_ = 0, ic_ = 0, ocp_ = 0, quads_ = 0;  // ocp_: oc rounded up to 16
  std::vector<int32_t> w_;     // [quad][ocp_] 4 levels each (pair mode's source)
  std::vector<int32_t> wu_;    // the same as levels + 128 (u8), 0 past oc / ic
  std::vector<int32_t> comp_;  // ocp_ values: 128 * sum of the channel's levels
  std::vector<int32_t> no_comp_;  // ocp_ zeros (u8 input)
  int8_epilogue::Params<Out> ep_;  // scale / bias: ocp_ values each (0 past oc)
  // Pair mode: the first 8 channels' filter words [quad][16], compensation,
  // scale and bias, each repeated for lanes 8-15.
  std::vector<int32_t> w2_, comp2_;
  std::vector<float> scale2_, bias2_;
};

}  // namespace x86
}  // namespace lite
