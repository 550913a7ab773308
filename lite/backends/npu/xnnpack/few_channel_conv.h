// FewChannelConv: the xnnpack driver's own NHWC convolution for inputs of
// one to four channels (a model's first conv, which reads the image).
//
// Why: XNNPACK's NHWC convolution builds an indirection buffer at each
// setup of a new input size, one pointer per output pixel and tap. With 3
// input channels each pointer serves 3 floats, so on det the first conv's
// setup took 1.3-2.3x its own run and more than a third of all setups of a
// first sight (docs/memory.md, "Where a first sight's setups go"). This
// kernel keeps no per-size state: a new size costs nothing before it runs.
//
// How: filters are packed once into blocks of 8 output channels, one
// vector per (tap row, tap column, input channel), the last block
// zero-padded. Output columns whose taps all lie inside the input read the
// input rows in place (a row above or below the image reads a zero row):
// a block of 8 output pixels accumulates bias + sum over taps and channels
// of one input value times a filter vector, is clamped to [lo, hi] and
// stored. A border pixel first gathers its taps, zeros outside, into a
// small buffer. Vectors are the compiler's generic 8-float vectors (two
// NEON registers on aarch64, one AVX register or two SSE ones on x86), so
// the same code serves both builds. Output rows are split over the pthreadpool.
#pragma once

#include <pthreadpool.h>

#include <cstdint>
#include <vector>

#include "lite/backends/npu/xnnpack/conv_geometry.h"
#include "lite/backends/npu/xnnpack/vec8.h"

namespace lite {
namespace npu {

class FewChannelConv {
 public:
  // The largest input channel count this kernel takes.
  static constexpr int64_t kMaxChannels = 4;
  // The tallest and widest kernel it takes.
  static constexpr int64_t kMaxKernel = 16;

  using Geometry = ConvGeometry;

  // filter: OIHW [oc, ic, kh, kw] with ic <= kMaxChannels and kh, kw <=
  // kMaxKernel; bias: oc values
  // or null. Outputs are clamped to [lo, hi].
  FewChannelConv(const float* filter, const float* bias, int64_t oc, int64_t ic, int64_t kh,
                 int64_t kw, float lo, float hi);

  // in: NHWC [n, ih, iw, ic]; out: NHWC [n, oh, ow, oc].
  void Run(const Geometry& g, const float* in, float* out, pthreadpool_t pool) const;

 private:
  struct Row;
  void RunRow(const Geometry& g, const float* in, float* out, int64_t row,
              std::vector<float>* scratch) const;
  template <int IC, int KW>
  void Interior(const Geometry& g, const float* const* in_rows, int64_t x0, int64_t x1,
                float* out) const;
  template <int P, int IC, int KW>
  void Block(const float* const* rows, int64_t pixel_step, int64_t tap_step, float* out) const;

  int64_t oc_, ic_, kh_, kw_, blocks_;
  float lo_, hi_;
  std::vector<Vec8> w_;     // [block][ky][kx][c]
  std::vector<Vec8> bias_;  // [block]
};

}  // namespace npu
}  // namespace lite
