// NchwInputConv: a dense convolution whose input has few channels (an
// image's 1-4) that reads the input straight from NCHW and writes NHWC.
//
// Why: a model's first conv reads the fed image, which arrives in NCHW. The
// x86 target otherwise reorders the image to NHWC first (a pass of its own
// over the whole image) and then runs oneDNN's direct kernel, which has
// little to vectorize over with 3 input channels (far from the FMA roof on
// squeezenet's 3 -> 64 and det's 3 -> 8; docs/performance.md, x86 target).
//
// How: output channels lie in vector lanes: 16 per zmm, or 8 per ymm when
// the conv has at most 8 (a zmm would idle half its lanes; a ymm does the
// same work in as many instructions). Per output row, the ic * kh input
// rows it reads are copied into a zero-padded patch (so borders need no
// checks); a register block of P pixels x NV vectors then accumulates
// bias + sum over (c, ky, kx) of one broadcast input value per pixel times
// the filter's vectors, applies the activation (in registers for relu,
// relu6, leaky_relu and hard_swish; the others per element afterwards) and
// stores NHWC pixels (or, with a max pool fused, pools rows kept in a small
// ring). Rows are split over the predictor's threads with
// OpenMP (the runtime oneDNN's kernels use). Without AVX-512 (build or CPU)
// a scalar loop computes the same sums. The object owns its repacked filter
// and bias; scratch is per thread.
#pragma once

#include <cstdint>
#include <vector>

#include "lite/base/fused_activation.h"

namespace lite {
namespace x86 {

class NchwInputConv {
 public:
  // Window geometry of one run (Paddle's conv2d attributes resolved).
  struct Shape {
    int64_t n = 1, ih = 0, iw = 0, oh = 0, ow = 0;
    int stride_h = 1, stride_w = 1, pad_top = 0, pad_left = 0, dilation_h = 1, dilation_w = 1;
  };

  // True when this build has the AVX-512 code and the CPU runs it (else Run
  // takes the scalar loop).
  static bool Available();

  // filter: [oc, ic, kh, kw] (OIHW); bias: oc values or null.
  void SetWeights(const float* filter, const float* bias, int64_t oc, int64_t ic, int64_t kh,
                  int64_t kw);
  bool has_weights() const { return !w_.empty(); }

  // in: NCHW [n, ic, ih, iw]; out: NHWC [n, oh, ow, oc].
  void Run(const Shape& s, const float* in, const operators::FusedActivation& act, float* out,
           int threads) const;

  // A max pool over the conv's output (after the activation), fused: conv
  // rows are computed into a per-thread ring of kh rows and pooled from
  // there, so the conv output is never written out whole. Windows as
  // Paddle's (lite/kernels/host/pool_compute.cc): rows [o * stride - pad,
  // + k) clipped to the conv output (likewise columns); an empty window
  // gives -FLT_MAX.
  struct Pool {
    int64_t oh = 0, ow = 0;  // pooled dims
    int kh = 1, kw = 1, stride_h = 1, stride_w = 1, pad_top = 0, pad_left = 0;
  };
  // out: NHWC [n, pool.oh, pool.ow, oc].
  void RunMaxPooled(const Shape& s, const Pool& pool, const float* in,
                    const operators::FusedActivation& act, float* out,
                    int threads) const;

  // Tests run the scalar loop on AVX-512 machines too (process-wide).
  static void ForceScalarForTesting(bool on);

 private:
  // Conv output row `row` (of n * oh) into out_row (ow * oc values).
  void RunRow(const Shape& s, const float* in, const operators::FusedActivation& act,
              int64_t row, std::vector<float>* patch, float* out_row) const;
  // Pooled rows [r0, r1) of n * pool.oh.
  void RunPooledRows(const Shape& s, const Pool& pool, const float* in,
                     const operators::FusedActivation& act, int64_t r0, int64_t r1,
                     float* out) const;

  // Filter per chunk of output channels (64 wide, or 8 when oc <= 8; the
  // last chunk rounded up to the vector width, zero-padded):
  // [chunk][ic * kh][kw][chunk width].
  std::vector<float> w_;
  std::vector<float> bias_;  // oc rounded up like the chunks, zero-padded
  int64_t oc_ = 0, ic_ = 0, kh_ = 0, kw_ = 0, lanes_ = 16, chunk_ = 64;
};

}  // namespace x86
}  // namespace lite
