// DepthwiseConv: the xnnpack driver's own NHWC depthwise convolution (one
// filter per channel, as many outputs as inputs).
//
// Why: XNNPACK's depthwise convolution, like its dense one, builds an
// indirection buffer at each setup of a new input size, one pointer per
// output pixel and tap. On det the depthwise convs' setups were more than
// half of all setups of a first sight, the 3x3 over 8 channels at half
// the image's size the largest of them (docs/memory.md, "Where a first
// sight's setups go"). This kernel keeps no per-size state: a new size
// costs nothing before it runs.
//
// How: filters and bias are packed once into blocks of 8 channels, one
// vector per (block, tap row, tap column), the last block zero-padded.
// Output columns whose taps all lie inside the input read the input rows
// in place (a row in the padding reads a zero row), four pixels at a time
// per block; the border columns read a patch of their input columns with
// zeros outside, the same way. A last block of fewer than 8 channels goes
// pixel by pixel, loading and storing only its lanes. Vectors are the compiler's
// generic 8-float vectors, as in FewChannelConv, so the same code runs as
// NEON on aarch64. Output rows are split over the pthreadpool.
#pragma once

#include <pthreadpool.h>

#include <cstdint>
#include <vector>

#include "lite/backends/npu/xnnpack/conv_geometry.h"
#include "lite/backends/npu/xnnpack/vec8.h"

namespace lite {
namespace npu {

class DepthwiseConv {
 public:
  // The tallest and widest kernel it takes.
  static constexpr int64_t kMaxKernel = 16;

  // filter: OIHW [channels, 1, kh, kw] with kh, kw <= kMaxKernel; bias:
  // `channels` values or null. Outputs are clamped to [lo, hi].
  DepthwiseConv(const float* filter, const float* bias, int64_t channels, int64_t kh, int64_t kw,
                float lo, float hi);

  // in: NHWC [n, ih, iw, channels]; out: NHWC [n, oh, ow, channels].
  void Run(const ConvGeometry& g, const float* in, float* out, pthreadpool_t pool) const;

 private:
  struct Rows;
  // A thread's buffers: a zero input row, the border columns' patch.
  struct Scratch {
    std::vector<float> zeros, patch;
  };
  void RunRow(const ConvGeometry& g, const float* in, float* out, int64_t row,
              Scratch* scratch) const;
  template <int KH, int KW>
  void Row(const ConvGeometry& g, const float* const* rows, int64_t x0, int64_t x1,
           std::vector<float>* patch, float* out) const;
  template <int KH, int KW>
  void Columns(const ConvGeometry& g, const float* const* rows, int64_t origin, int64_t x0,
               int64_t x1, float* out) const;
  template <int KH, int KW>
  void Border(const ConvGeometry& g, const float* const* rows, int64_t x0, int64_t x1,
              std::vector<float>* patch, float* out) const;
  template <int P, int KH, int KW>
  void FullBlocks(const float* const* rows, int64_t first, int64_t pixel_step, int64_t tap_step,
                  float* out) const;

  int64_t c_, kh_, kw_, full_blocks_, tail_;
  float lo_, hi_;
  std::vector<Vec8> w_;     // [block][ky][kx]
  std::vector<Vec8> bias_;  // [block]
};

}  // namespace npu
}  // namespace lite
