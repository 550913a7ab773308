// Int8Gemm: the exact int8 GEMM of the arm int8 conv's float form
// (lite/kernels/arm/conv_int8_compute.cc; 1x1 convs on their NHWC input,
// others through the window form below): M rows of K s8 levels times N output channels x
// K s8 weight levels, summed exactly in int32, then per output value of channel c
//   y = min(max(fma(float(sum), scale[c], bias[c]), lo), hi)
// (float(sum) rounds to nearest; fma is one rounding), the arithmetic the
// x86 int8 kernels' epilogue uses (lite/backends/x86/int8_epilogue.h) with
// the clamp of a relu / relu6 folded in. The float form ran XNNPACK's f32
// convolution on dequantized levels instead: the same values up to float
// rounding, at several times SDOT's instruction count (docs/arm.md).
//
// The weights are packed once (Pack) for the form this CPU runs:
// - aarch64 with the dot product extension (cpuinfo_has_arm_neon_dot):
//   SDOT, 8 (then 4, 1) pixels x 8 channels a tile (int8_gemm_dot.cc);
// - elsewhere the scalar loops of int8_gemm.cc (the unit test's reference;
//   the arm conv kernel uses the GEMM only with SDOT: a widening NEON form
//   for Cortex-A72 counted more instructions than XNNPACK's f32 GEMM on the
//   slim models, docs/arm.md).
// Both give the same bits (exact sums, the same epilogue). Pack refuses a
// weight level of -128 (Paddle's symmetric weights have none), as
// Int8Depthwise does, so both loops take the same filters. Rows are split
// over the pthreadpool given to Run (null: the calling thread).
//
// The window form (PackWindow / RunWindow) is a conv with one group and
// any window, stride, dilation and padding without im2col rows: RunWindow
// copies the NHWC input into a zero-bordered buffer with the channels
// padded to 16 (cp), and a row (output pixel) reads, per tap, the cp levels
// at its window's pixel there; the weights are packed with K = taps x cp
// (zero levels for the padded channels). The sums are the same as on the
// im2col rows (the padded levels add 0 x 0).
#pragma once

#include <pthreadpool.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace lite {
namespace arm {

class Int8Gemm {
 public:
  enum class Form { kScalar, kDot };

  // The form this CPU runs (kDot with SDOT, else kScalar).
  static Form CpuForm();

  // Packs `n` rows of `k` weight levels (w[c * k + i]), their per-channel
  // `scale` and `bias` (null: 0) and the clamp [lo, hi], for `form`.
  // False (nothing packed) when a weight level is -128.
  bool Pack(const int8_t* w, size_t n, size_t k, const float* scale, const float* bias,
            Form form = CpuForm(), float lo = -std::numeric_limits<float>::infinity(),
            float hi = std::numeric_limits<float>::infinity());

  // y[p * n + c] for `m` rows of k levels at x (x[p * k + i]).
  void Run(const int8_t* x, size_t m, float* y, pthreadpool_t pool) const;

  // A conv's window over `c` input channels, its stride, dilation and
  // padding (top, bottom, left, right).
  struct Window {
    size_t c, kh, kw, sh, sw, dh, dw, top, bottom, left, right;
  };
  // Packs `n` filters of levels w[o * kh * kw * c + (ky * kw + kx) * c + i]
  // for the window form; as Pack otherwise.
  bool PackWindow(const int8_t* w, size_t n, const Window& g, const float* scale,
                  const float* bias, Form form = CpuForm(),
                  float lo = -std::numeric_limits<float>::infinity(),
                  float hi = std::numeric_limits<float>::infinity());
  // y (batch x oh x ow x n floats) of x (batch x h x w x c levels), after
  // PackWindow.
  void RunWindow(const int8_t* x, size_t batch, size_t h, size_t w, float* y,
                 pthreadpool_t pool);

  Form form() const { return form_; }
  // "int8_gemm_dot" or "int8_gemm_scalar" (the profile's impl).
  const char* name() const;

  // The packed operands the forms' tile loops read.
  // A row's levels are `taps` runs of `seg` levels, run t at
  // RowBase(row) + offsets[t]; the plain form has one run of k levels.
  struct Packed {
    const int8_t* w;             // the form's weight layout (int8_gemm.cc)
    const float *scale, *bias;   // padded with zeros to whole channel blocks
    size_t n, k;
    size_t m;                    // the rows of this Run's x
    float lo, hi;
    const size_t* offsets;
    size_t taps, seg;
    // The window form's row -> pixel map (window false: row * k).
    bool window;
    size_t oh, ow, hp, wp, sh, sw, cp;
  };

 private:
  Form form_ = Form::kScalar;
  std::vector<int8_t> w_;
  std::vector<float> scale_, bias_;
  size_t n_ = 0, k_ = 0;
  float lo_ = 0.f, hi_ = 0.f;
  // The window form: its geometry, the taps' offsets in the bordered input
  // and that buffer (rebuilt when the input's dims change).
  Window g_{};
  size_t cp_ = 0, batch_ = 0, h_ = 0, w_in_ = 0;
  std::vector<size_t> offsets_;
  std::vector<int8_t> x_;
};

// The first level of row `row` of a Run's levels x (the bordered input in
// the window form).
inline const int8_t* RowBase(const Int8Gemm::Packed& p, const int8_t* x, size_t row) {
  if (!p.window) return x + row * p.k;
  const size_t pixel = row % (p.oh * p.ow), image = row / (p.oh * p.ow);
  const size_t oy = pixel / p.ow, ox = pixel % p.ow;
  return x + ((image * p.hp + oy * p.sh) * p.wp + ox * p.sw) * p.cp;
}

// The SDOT form's row loop: rows [begin, begin + count) of x into y.
void Int8GemmRowsDot(const Int8Gemm::Packed& p, const int8_t* x, size_t begin, size_t count,
                     float* y);

}  // namespace arm
}  // namespace lite
