// DepthwiseConv: fp32 depthwise convolution (groups == C_in == C_out) on
// NHWC activations, any kernel size, stride, dilation and padding, with
// bias, a residual input, the fused activations PointwiseConv computes
// (none, relu, relu6, hard_swish) and a post-activation affine map in its
// epilogue. Used by the x86 conv (conv_depthwise_strategy.cc) where oneDNN
// 2.6 runs its slower depthwise kernels (docs/performance.md, "Own fp32
// depthwise against oneDNN").
//
// Algorithm: the filter is packed once (SetFilter) into [tap][C rounded up
// to 16] rows, zero-padded, so one aligned vector load gives a tap's
// weights for 16 (AVX-512) or 8 (AVX2) channels. Each output row is cut into
// tiles of R pixels x one vector of channels; a tile keeps R accumulators
// (seeded with the bias) in registers and, per tap, loads the weights once
// and one input vector per pixel. Taps that fall into the padding are
// skipped: rows outside the input for the whole output row, columns per
// pixel at the row's ends (interior tiles check nothing). The channel tail
// (C not a multiple of the vector) uses masked loads and stores. Every
// output is the same chain of FMAs in tap order (kh, then kw) whatever the
// tile, ISA or thread split, so it does not depend on the thread count.
// Output rows are split over the context's threads with OpenMP.
//
// Dispatch at run time: an AVX-512 instantiation and an AVX2 + FMA one of
// the same tile code (depthwise_conv_tiles.h), each compiled in its own file
// with its ISA's flags whatever the build's -march; Run picks by the CPU.
#pragma once

#include <cstdint>

#include "lite/base/fused_activation.h"
#include "lite/base/tensor.h"

namespace lite {
namespace x86 {

class DepthwiseConv {
 public:
  // The shape of one run: NCHW-named dims of NHWC data.
  struct Geometry {
    int64_t n = 1, c = 0, h = 0, w = 0, oh = 0, ow = 0;
    int kh = 0, kw = 0;
    int stride_h = 1, stride_w = 1, pad_top = 0, pad_left = 0, dilation_h = 1, dilation_w = 1;
  };
  // What Run adds after the sums.
  struct Epilogue {
    const float* bias = nullptr;      // c values, or null
    const float* residual = nullptr;  // NHWC like the output (c per pixel), or null
    operators::FusedActivation act;   // one Supports() takes
    float post_scale = 1.f, post_bias = 0.f;  // post_scale * v + post_bias, last
  };

  // True when the CPU runs one of the instantiations (AVX-512F, or AVX2 and
  // FMA).
  static bool Available();
  enum class Isa { kAuto, kAvx512, kAvx2 };
  // The instruction set Run uses: the CPU's best ("avx512", "avx2"; "" when
  // neither runs), or the one ForceIsa chose.
  const char* isa_name() const;
  // Runs the given instantiation instead of the CPU's best (tests and the
  // microbenchmark compare the AVX2 code on AVX-512 CPUs); the CPU must run
  // it.
  void ForceIsa(Isa isa) { isa_ = isa; }
  static bool Supports(const operators::FusedActivation& act) {
    using K = operators::FusedActivation;
    return act.kind == K::kNone || act.kind == K::kRelu || act.kind == K::kRelu6 ||
           act.kind == K::kHardSwish;
  }

  // filter: [c][1][kh][kw] (Paddle's depthwise OIHW). Packs it (owned).
  void SetFilter(const float* filter, int64_t c, int kh, int kw);
  bool has_filter() const { return c_ > 0; }

  // in: g.n x g.h x g.w pixels of g.c floats; out: g.n x g.oh x g.ow pixels,
  // pixel i at out + i * ldo (ldo >= g.c; columns outside [0, c) are never
  // written). Requires Available() and SetFilter with g's c, kh and kw.
  void Run(const Geometry& g, const float* in, const Epilogue& e, float* out, int64_t ldo,
           int threads) const;

 private:
  Tensor w_;  // [kh * kw][cp_], 64-byte aligned rows
  int64_t c_ = 0, cp_ = 0;
  int kh_ = 0, kw_ = 0;
  Isa isa_ = Isa::kAuto;
  bool UsesAvx512() const;
};

}  // namespace x86
}  // namespace lite
