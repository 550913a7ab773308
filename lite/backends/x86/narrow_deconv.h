// NarrowDeconv: conv2d_transpose on NHWC fp32 activations whose windows do
// not overlap (kernel == stride, no padding, dilation 1, one group) and whose
// output block per input pixel is narrow: kh * kw * C_out <= kMaxColumns
// values. PP-OCR's DB detection heads end with one (24 -> 1 channel, 2x2
// stride 2, 320x320 -> 640x640, sigmoid). AVX-512, compiled only when the
// build targets it; Available() says so at run time.
//
// Why not oneDNN's: such a layer is a matmul [pixels, C_in] x [C_in, cols]
// with cols = kh * kw * C_out of 1-16, whose result is scattered to the
// output's kh rows. oneDNN 2.6's matmul is slow on 4 columns and its
// scattering reorder makes another pass over the output (together far from
// the core's roof; docs/performance.md, x86 target).
//
// Algorithm: vector lanes over 16 input pixels of a row. The 16 pixels x 16
// channels of NHWC input are loaded (masked at the tails) and transposed in
// registers, so each input channel is one vector; one accumulator per output
// column (i, j, o), seeded with bias[o], sums FMAs of that vector with the
// broadcast filter value, in input-channel order. Per kernel row i the
// kw * C_out accumulators are transposed back to [pixel][j][o], which is
// contiguous in output row y * kh + i, and stored (never outside the
// output). Input rows are split over the context's thread count with OpenMP
// (the runtime oneDNN's kernels use); outputs do not depend on the split.
// The activation is the caller's (the x86 kernel runs it afterwards). The
// object owns its packed filter; Run keeps no state.
#pragma once

#include <cstdint>
#include <vector>

namespace lite {
namespace x86 {

class NarrowDeconv {
 public:
  static constexpr int kMaxColumns = 16;

  // True when this build has the AVX-512 code and the CPU runs it.
  static bool Available();
  // True when kh * kw * c_out fits the accumulators.
  static bool Fits(int64_t c_out, int64_t kh, int64_t kw) {
    return c_out > 0 && kh > 0 && kw > 0 && kh * kw * c_out <= kMaxColumns;
  }

  // filter: Paddle's [c_in, c_out, kh, kw]; bias: c_out values or null.
  // Requires Fits(c_out, kh, kw).
  void SetFilter(const float* filter, const float* bias, int64_t c_in, int64_t c_out, int kh,
                 int kw);

  // in: NHWC [n, h, w, c_in]; out: NHWC [n, h * kh, w * kw, c_out].
  // Requires Available() and SetFilter.
  void Run(int64_t n, int64_t h, int64_t w, const float* in, float* out, int threads) const;

 private:
  std::vector<float> w_;     // [c_in][kMaxColumns], columns (i, j, o), zero-padded
  std::vector<float> bias_;  // [kMaxColumns]: bias[o] of column (i, j, o)
  int64_t c_in_ = 0, c_out_ = 0;
  int kh_ = 0, kw_ = 0;
};

}  // namespace x86
}  // namespace lite
