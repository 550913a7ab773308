// NchwInputInt8: int8 convolution (groups 1) of a model's first conv, read
// straight from the fed float image in NCHW (1-4 channels) and written NHWC,
// with AVX512-VNNI and AVX512-VBMI (compiled only when the build targets
// them; Available() says so at run time). Used by the x86 int8 conv
// (lite/kernels/x86/conv_int8_compute.cc) in place of quantizing the image
// to NHWC levels and running oneDNN 2.6's `jit_int8`, which has little to
// put in its vector lanes with 3 input and 8 output channels (PP-OCRv3 det's
// 3 -> 8 3x3 stride-2 conv at 640x640), and pays a separate quantize pass.
//
// Algorithm: lanes over 16 output pixels of a row. First the whole image is
// quantized by the caller's rule (QuantizeRow), plane by plane, shifted to
// u8 (s8 levels + 128) and kept as padded rows in a per-thread buffer
// (quantizing each row as the conv first needs it leaves the reads of the
// image waiting on memory; one sequential pass streams); rows
// and columns in the padding hold the shifted zero 128. For channel c and
// kernel row ky, a quad per output pixel holds
// the 4 input columns from its window's first (kw <= 4; taps past kw have
// weight 0): one 64-byte load of the row and a byte permutation give the
// 16 pixels' quads (stride_w 1 or 2), and vpdpbusd adds them times the
// broadcast quad of filter levels to one int32 accumulator per output
// channel (oc <= 16). The shift adds 128 * the channel's level sum, which
// the sums start below. The int32 sums are exact; the epilogue
// (int8_epilogue.h: scale, bias, the activation, float or s8 / u8 levels)
// starts from float(sum). The [oc][16 pixels] results are transposed to
// NHWC in registers. Output rows are split over the thread count with
// OpenMP; results do not depend on the split.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "lite/backends/x86/int8_epilogue.h"
#include "lite/base/fused_activation.h"

namespace lite {
namespace x86 {

class NchwInputInt8 {
 public:
  enum class Out { kFloat, kS8, kU8 };
  static constexpr int64_t kMaxIc = 4, kMaxOc = 16;
  static constexpr int kMaxKh = 16, kMaxKw = 4;

  struct Geometry {
    int64_t n = 1, ic = 0, h = 0, w = 0;  // input (NCHW)
    int64_t oh = 0, ow = 0;
    int stride_h = 1, stride_w = 1;
    int pad_top = 0, pad_left = 0;  // bottom / right follow from oh / ow
  };

  // Quantizes n floats of one input row to s8 levels (the conv's rule).
  using QuantizeRow = std::function<void(const float* x, int64_t n, int8_t* levels)>;

  // True when this build has the code and the CPU runs it.
  static bool Available();
  // True for the geometries it computes: 1-4 input and 1-16 output
  // channels, kh <= 16, kw <= 4, stride_w 1 or 2, dilation 1, one group.
  static bool Fits(int64_t ic, int64_t oc, int kh, int kw, int stride_w, int dilation_h,
                   int dilation_w, int groups);
  // True for the activations the epilogue computes (int8_epilogue.h).
  static bool Supports(const operators::FusedActivation& act) { return int8_epilogue::Supports(act); }

  // filter: int8 levels [oc][ic][kh][kw] (Paddle's OIHW).
  void SetFilter(const int8_t* filter, int64_t oc, int64_t ic, int kh, int kw);
  // Per-channel scale (oc values) and optional bias (oc values or null);
  // out_factor / out_round_type only for levels output.
  void SetEpilogue(const float* scale, const float* bias, const operators::FusedActivation& act,
                   Out out, float out_factor, int out_round_type);

  // in: NCHW floats [n, ic, h, w]; out: NHWC [n, oh, ow, oc] floats or
  // levels. Requires Available(), SetFilter and SetEpilogue.
  void Run(const Geometry& g, const float* in, const QuantizeRow& quantize, void* out,
           int threads) const;

 private:
  int64_t oc_ = 0, ic_ = 0;
  int kh_ = 0, kw_ = 0;
  std::vector<int32_t> w_;     // [ic][kh][16]: 4 levels (kx 0-3) each, 0 past oc / kw
  std::vector<int32_t> comp_;  // 16 values: 128 * sum of the channel's levels
  int8_epilogue::Params<Out> ep_;  // scale / bias: 16 values each (0 past oc)
};

}  // namespace x86
}  // namespace lite
