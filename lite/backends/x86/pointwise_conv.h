// PointwiseConv: 1x1 stride-1 convolution on NHWC fp32 activations, i.e. the
// GEMM out[pixels x oc] = in[pixels x ic] * W^T[ic x oc] (+ bias, activation),
// with AVX-512 (compiled only when the build targets it; Available() says so
// at run time).
//
// Why not oneDNN's: rows of an NHWC map are already a GEMM's rows, so a
// plain register-blocked GEMM needs no reorder and can write a channel slice
// of a wider (concat) output in place; and on one Zen 4 core it is slightly
// faster on squeezenet's conv10 (169 x 512 -> 1000), near the core's roof,
// and about even on the small squeeze / expand shapes
// (docs/performance.md, x86 target).
//
// Algorithm: the filter is packed once into panels of 64 output channels,
// [panel][ic][64] (the last panel 16, 32, 48 or 64 wide, zero-padded to a
// multiple of 16). A microkernel keeps R pixels x V vectors of 16 channels
// in registers (V = 4 or 3: R = 6; V = 2: 5; V = 1: 8), broadcasts one input
// value per pixel and streams the panel over all of ic; bias seeds the
// accumulators; the activation (a clamp, or hard_swish) and masked stores (never outside
// [0, oc) of a row) close it. Pixels go in blocks whose input rows stay in
// L2 while every panel passes over them; each panel stays in L2 while the
// block's tiles pass over it, so the filter is read from memory once per
// block, and the next panel is prefetched during the current one (as is
// each tile's next input rows). (block, panel) tasks are split over the
// context's thread count with OpenMP (the runtime oneDNN's x86 kernels use);
// each output is the same chain of FMAs in input-channel order whatever the
// split or tile, so outputs do not depend on the thread count. The object
// owns its packed filter; Run keeps no state and needs no scratch.
#pragma once

#include <cstdint>

#include "lite/base/fused_activation.h"
#include "lite/base/tensor.h"

namespace lite {
namespace x86 {

class PointwiseConv {
 public:
  // True when this build has the AVX-512 code and the CPU runs it.
  static bool Available();
  // True for the fused activations Run applies: none, relu, relu6 and
  // hard_swish (FusedActivation::Apply's formula).
  static bool Supports(const operators::FusedActivation& act) {
    using K = operators::FusedActivation;
    return act.kind == K::kNone || act.kind == K::kRelu || act.kind == K::kRelu6 ||
           act.kind == K::kHardSwish;
  }

  // filter: [oc][ic] (Paddle's OIHW with a 1x1 kernel). Packs it (owned).
  void SetFilter(const float* filter, int64_t oc, int64_t ic);
  bool has_filter() const { return !w_.dims().empty(); }

  // in: `pixels` rows of ic floats, row r at in + r * ldi (ldi >= ic);
  // out: `pixels` rows of oc floats, row r at out + r * ldo (ldo >= oc).
  // Columns of out outside [0, oc) are never written (a concat's channel
  // slice can be written in place). bias: oc values or null; act: one
  // Supports() takes; residual (or null): `pixels` rows of oc floats, row r
  // at residual + r * ldr, added before the activation; post_scale and
  // post_bias: an affine map after the activation (a * v + b). Requires
  // Available() and SetFilter.
  void Run(int64_t pixels, const float* in, int64_t ldi, const float* bias,
           const operators::FusedActivation& act, float* out, int64_t ldo, int threads,
           const float* residual = nullptr, int64_t ldr = 0, float post_scale = 1.f,
           float post_bias = 0.f) const;

 private:
  // [panel][ic][width], zero-padded columns; a Tensor for its 64-byte
  // alignment (each panel row is one cache line; the kernel loads aligned).
  Tensor w_;
  int64_t ic_ = 0, oc_ = 0, ocp_ = 0;     // ocp_: oc rounded up to 16
};

}  // namespace x86
}  // namespace lite
