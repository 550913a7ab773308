// Int8Depthwise: the exact int8 depthwise convolution of the arm int8
// conv's float form (lite/kernels/arm/conv_int8_compute.cc), NHWC: s8 input
// levels times s8 filter levels summed exactly in int32 per output value,
// then the epilogue of int8_gemm.h:
//   y = min(max(fma(float(sum), scale[c], bias[c]), lo), hi).
// Any window, stride, dilation and padding (padding is level 0, i.e. the
// value 0, as in the simulation).
//
// Run first copies the input into a zero-bordered buffer (channels padded
// to 16; int8_border.h), so the tap loops need no bounds checks (the SDOT
// form: its quad input, written from the input directly); then per output
// pixel and 16 channels:
// - aarch64 (both emulated CPUs): two taps per step, vmull_s8 /
//   vmlal_s8 (two products per int16 lane: exact for levels in
//   [-128, 127] x [-127, 127], so Pack refuses a weight level of -128),
//   widened into four int32x4 sums (int8_depthwise_neon.cc);
// - aarch64 with the dot product extension (cpuinfo_has_arm_neon_dot:
//   QEMU_CPU=max) and a window 4 or more taps wide: 4 taps of 4 channels
//   per SDOT on a "quad" copy of the bordered input (each pixel's levels
//   next to those of the 3 pixels after it, int8_depthwise_dot.cc); Pack
//   gives narrower windows the NEON form, which executes fewer
//   instructions for them (no quad copy);
// - elsewhere (x86-64 builds, the unit test's reference) the scalar loop
//   of int8_depthwise.cc.
// Both give the same bits. Output rows are split over the pthreadpool given
// to Run (null: the calling thread).
#pragma once

#include <pthreadpool.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace lite {
namespace arm {

class Int8Depthwise {
 public:
  struct Geometry {
    size_t channels, kh, kw, sh, sw, dh, dw, top, bottom, left, right;
  };
  enum class Form { kScalar, kNeon, kDot };
  // The best form this CPU runs (kDot with SDOT, kNeon on other aarch64
  // CPUs, else kScalar).
  static Form CpuForm();

  // Packs the filter levels w[c * kh * kw + tap], per-channel `scale` and
  // `bias` (null: 0) and the clamp [lo, hi] for `form` (kDot for a window
  // under 4 taps wide: kNeon). False (nothing packed) when a weight level
  // is -128.
  bool Pack(const int8_t* w, const Geometry& g, const float* scale, const float* bias,
            Form form = CpuForm(), float lo = -std::numeric_limits<float>::infinity(),
            float hi = std::numeric_limits<float>::infinity());

  // y (n x oh x ow x channels floats) of x (n x h x w x channels levels).
  void Run(const int8_t* x, size_t n, size_t h, size_t w, float* y, pthreadpool_t pool);

  Form form() const { return form_; }
  const char* name() const {
    return form_ == Form::kDot ? "int8_dw_dot" : form_ == Form::kNeon ? "int8_dw_neon" : "int8_dw_scalar";
  }

  // What the forms' row loop reads: the bordered input (rows of wp pixels
  // of cp levels), the packed filter ([taps rounded to even][cp], the extra
  // tap zero), each tap's offset in the bordered input, the epilogue. The
  // SDOT form: the quad input (4 bytes per level), the filter as
  // [kh][(kw + 3) / 4 groups][cp][4 taps] and each group's offset in the
  // quad input.
  struct Packed {
    const int8_t *x, *w;
    const size_t* offsets;
    const float *scale, *bias;
    size_t taps, kh, kw, cp, c, hp, wp, oh, ow, sh, sw;
    float lo, hi;
  };

 private:
  Form form_ = Form::kScalar;
  Geometry g_{};
  std::vector<int8_t> w_, x_, quads_;
  std::vector<size_t> offsets_;
  std::vector<float> scale_, bias_;
  size_t cp_ = 0, n_ = 0, h_ = 0, wd_ = 0;
  float lo_ = 0.f, hi_ = 0.f;
};

// The NEON form's loop: output rows [begin, begin + count) (row index
// image * oh + oy).
void Int8DepthwiseRowsNeon(const Int8Depthwise::Packed& p, size_t begin, size_t count, float* y);

// The SDOT form: the quad input of one image (h x w x c levels at x, the
// input ending at `end`) for the interior rows of the bordered input
// (quads: the first one's), every `every`-th column from 0 (the rest stay
// as they are); then its row loop.
void Int8DepthwiseQuads(const int8_t* x, size_t h, size_t w, size_t c, const int8_t* end,
                        size_t left, size_t wp, size_t cp, size_t dw, size_t every,
                        int8_t* quads);
void Int8DepthwiseRowsDot(const Int8Depthwise::Packed& p, size_t begin, size_t count, float* y);

}  // namespace arm
}  // namespace lite
