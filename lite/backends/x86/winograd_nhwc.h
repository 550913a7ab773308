// WinogradNhwc: 3x3 stride-1 convolution by Winograd F(4x4, 3x3) straight on
// NHWC fp32 activations, with AVX-512 (compiled only when the build targets
// it; Available() says so at run time).
//
// Why not oneDNN's: its Winograd kernel takes only blocked (nChw16c)
// activations, so an NHWC model pays a reorder of the input and the output
// around every such conv, and on large feature maps that reorder is
// bandwidth-bound (a large share of the conv's own time on PP-OCR det's
// 96 x 160 x 160 input; docs/performance.md, x86 target). Here the input transform reads NHWC tiles directly and
// the output transform writes NHWC rows.
//
// Algorithm (Lavin & Gray): per 4x4 output tile and 16-channel slice,
// V = B^T d B of the 6x6 input patch (copied row by row into a small
// buffer first; the next tile to the right reuses 2 of its 6 columns); per position p of the 36, one GEMM
// M_p = V_p U_p over the input channels with U = G g G^T (filters
// transformed once, in double, at SetFilter); then Y = A^T M A, plus bias and
// the activation, into the output. Tiles go in blocks of kBlock (their V and
// M stay in L2), blocks are split over the predictor's thread count with
// OpenMP (the runtime oneDNN's x86 kernels use, so no second pool competes
// with libgomp's spinning workers); every tile is computed the same way
// whatever the thread count, so outputs do not depend on it. Padding is any 4-value padding (outside reads are zero); output
// size = input + padding - 2. Rounding: about 1e-6 relative to direct
// convolution for unit-scale data (the transforms add terms of similar
// size). The object owns its transformed filter; scratch is per thread.
#pragma once

#include <cstdint>
#include <vector>

namespace lite {
namespace x86 {

class WinogradNhwc {
 public:
  enum class Act { kNone, kRelu, kRelu6 };

  // True when this build has the AVX-512 code and the CPU runs it.
  static bool Available();

  // filter: [oc, ic, 3, 3] (Paddle's OIHW).
  void SetFilter(const float* filter, int64_t oc, int64_t ic);
  bool has_filter() const { return !u_.empty(); }

  // in: NHWC [n, ih, iw, ic]; out: NHWC [n, oh, ow, oc] with
  // oh = ih + pad_top + pad_bottom - 2 (likewise ow), its pixels `ldo`
  // floats apart (ldo >= oc; channels oc..ldo-1 are not written, so a
  // caller can fill a channel slice of a wider tensor); bias: oc values or
  // null; relu6 clips at `relu6_max`. Requires Available() and SetFilter.
  void Run(int64_t n, int64_t ih, int64_t iw, int pad_top, int pad_left, int64_t oh,
           int64_t ow, const float* in, const float* bias, Act act, float relu6_max,
           float* out, int64_t ldo, int threads) const;

 private:
  std::vector<float> u_;  // [36][ocp / 32 panels][ic][32 or 16], zero-padded columns
  int64_t ic_ = 0, oc_ = 0, ocp_ = 0;
};

}  // namespace x86
}  // namespace lite
