// ConvInt8Smalln: int8 convolution (groups 1, stride_w 1, any kernel, pad,
// stride_h and dilation) on NHWC activations holding s8 or u8 levels, for
// few output channels, with AVX512-VNNI (compiled only when the build
// targets it; Available() says so at run time). Used by the x86 int8 conv
// (lite/kernels/x86/conv_int8_compute.cc) where oneDNN 2.6's brgconv, whose
// vector lanes run over output channels, leaves lanes idle (24 channels).
//
// Algorithm: lanes over 16 output pixels of a row. Input rows are reordered
// into padded rows [ic / 4][columns][4 bytes], once each into a per-thread
// ring of the rows a window spans (a whole reordered map, 2.7 MB for det's
// 96-channel 160x160, leaves the caches and is slower). ic is rounded up to 4; s8 levels are shifted to u8
// by xor 0x80 and the padding rows, columns and channels hold the shifted
// zero 128; u8 levels stay as they are, padding 0. Per output row and block
// of 16 output columns, one int32 accumulator per output channel (all in
// registers: oc <= kMaxRegs) and for each kernel row, input quad and kernel
// column:
// vpdpbusd(acc[oc], 64 bytes of the 16 columns, broadcast of the filter's 4
// levels of (oc, quad, tap)). s8 input: the shift adds 128 * sum of the
// channel's filter levels, subtracted from the sums. The int32 sums are
// exact; the epilogue (int8_epilogue.h) starts from float(sum).
// The [oc][16 pixels] results are transposed to NHWC in registers
// (lanes16.h; a gather per 16 values through an L1 scratch was slower).
// Output rows are split over the context's thread count with OpenMP;
// results do not depend on the split.
#pragma once

#include <cstdint>
#include <vector>

#include "lite/backends/x86/int8_epilogue.h"
#include "lite/base/fused_activation.h"

namespace lite {
namespace x86 {

class ConvInt8Smalln {
 public:
  enum class Levels { kS8, kU8 };
  enum class Out { kFloat, kS8, kU8 };
  static constexpr int kMaxRegs = 28;

  struct Geometry {
    int64_t n = 1, h = 0, w = 0, ic = 0;  // input (NHWC)
    int64_t oh = 0, ow = 0;
    int stride_h = 1;  // stride_w is 1
    int pad_top = 0, pad_left = 0;  // bottom / right follow from oh / ow
    int dilation_h = 1, dilation_w = 1;
  };

  // True when this build has the AVX512-VNNI code and the CPU runs it.
  static bool Available();
  // True for the activations the epilogue computes (int8_epilogue.h).
  static bool Supports(const operators::FusedActivation& act);

  // filter: int8 levels [oc][ic][kh][kw] (Paddle's OIHW); oc <= kMaxRegs.
  void SetFilter(const int8_t* filter, int64_t oc, int64_t ic, int kh, int kw);
  // Per-channel scale (oc values) and optional bias (oc values or null).
  void SetEpilogue(const float* scale, const float* bias, const operators::FusedActivation& act,
                   Out out, float out_factor, int out_round_type);

  // in: n x h x w x ic levels; out: n x oh x ow x oc floats or levels.
  void Run(const Geometry& g, const void* in, Levels in_type, void* out, int threads) const;

 private:
  int64_t oc_ = 0, ic_ = 0, quads_ = 0;
  int kh_ = 0, kw_ = 0;
  int m_ = 0;  // accumulators: the compiled count >= oc (channels oc .. m_ zero)
  std::vector<int32_t> w_;     // [kh][quad][kw][m_] 4 levels each
  std::vector<int32_t> comp_;  // m_ values: 128 * sum of the channel's levels
  int8_epilogue::Params<Out> ep_;  // scale / bias: m_ values each
};

}  // namespace x86
}  // namespace lite
