// xnnpack_first_conv: times det's first convolution (3 -> 8 channels, 3x3,
// stride 2, padding 1, relu6) in the two XNNPACK operator forms that take
// an NHWC image, at new sizes, to see whether a first sight's setup can be
// cut without slowing repeats (docs/memory.md, "Where a first sight's
// setups go (npu, xnnpack)").
//
// The NHWC form (what the xnnpack driver's operator path runs) rebuilds an
// indirection buffer, one pointer per output pixel and tap, at each setup
// of a new size. The NCHW form with XNN_FLAG_INPUT_NHWC (XNNPACK's hwc2chw
// kernel for 3-channel images) has no per-size buffer but writes NCHW, so
// it is timed with the transpose back to NHWC the driver would need. The
// driver's own FewChannelConv (what the operator path runs for this conv)
// has neither: no setup, NHWC in and out. Each size is run in turn on all
// three (interleaved); the sums over all rounds are printed, with the
// largest difference between each form's output and the NHWC form's.
//
//   bazel run -c opt //tools:xnnpack_first_conv -- [rounds]
#include <xnnpack.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "lite/backends/npu/xnnpack/few_channel_conv.h"

namespace {

using Clock = std::chrono::steady_clock;

double Ms(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 5;
  if (xnn_initialize(nullptr) != xnn_status_success) return 1;
  constexpr int kOut = 8, kIn = 3;
  std::vector<float> w(kOut * 9 * kIn), b(kOut);  // OHWI, both forms
  for (size_t i = 0; i < w.size(); ++i) w[i] = std::sin(0.37f * i);
  for (int i = 0; i < kOut; ++i) b[i] = 0.1f * i;
  xnn_operator_t nhwc = nullptr, nchw = nullptr;
  if (xnn_create_convolution2d_nhwc_f32(1, 1, 1, 1, 3, 3, 2, 2, 1, 1, 1, kIn, kOut, kIn, kOut,
                                        w.data(), b.data(), 0.f, 6.f, 0, &nhwc) !=
          xnn_status_success ||
      xnn_create_convolution2d_nchw_f32(1, 1, 1, 1, 3, 3, 2, 2, 1, 1, 1, kIn, kOut, kIn, kOut,
                                        w.data(), b.data(), 0.f, 6.f, XNN_FLAG_INPUT_NHWC,
                                        &nchw) != xnn_status_success) {
    std::fprintf(stderr, "xnn_create_convolution2d_*_f32 failed\n");
    return 1;
  }
  std::vector<float> oihw(w.size());
  for (int o = 0; o < kOut; ++o) {
    for (int t = 0; t < 9; ++t) {
      for (int c = 0; c < kIn; ++c) oihw[(o * kIn + c) * 9 + t] = w[(o * 9 + t) * kIn + c];
    }
  }
  const lite::npu::FewChannelConv own(oihw.data(), b.data(), kOut, kIn, 3, 3, 0.f, 6.f);
  // Sizes of det's soak (seed 1's among them).
  const int sizes[][2] = {{960, 800}, {672, 1280}, {256, 384}, {992, 1216}, {544, 384}};
  double setup_nhwc = 0, first_nhwc = 0, repeat_nhwc = 0, setup_nchw = 0, run_nchw = 0,
         transpose = 0, first_own = 0, repeat_own = 0;
  float max_diff = 0, max_diff_own = 0;
  for (int r = 0; r < rounds; ++r) {
    for (const auto& sz : sizes) {
      const size_t h = sz[0], wd = sz[1], pixels = (h / 2) * (wd / 2);
      std::vector<float> x(h * wd * kIn + 16), y(pixels * kOut + 16), chw(y.size()), y2(y.size()),
          y3(y.size());
      for (size_t i = 0; i < x.size(); ++i) x[i] = std::cos(0.01f * i);
      const auto t0 = Clock::now();
      xnn_setup_convolution2d_nhwc_f32(nhwc, 1, h, wd, x.data(), y.data(), nullptr);
      const auto t1 = Clock::now();
      xnn_run_operator(nhwc, nullptr);
      const auto t2 = Clock::now();
      xnn_run_operator(nhwc, nullptr);
      const auto t3 = Clock::now();
      xnn_setup_convolution2d_nchw_f32(nchw, 1, h, wd, x.data(), chw.data(), nullptr);
      const auto t4 = Clock::now();
      xnn_run_operator(nchw, nullptr);
      const auto t5 = Clock::now();
      for (size_t p = 0; p < pixels; ++p) {
        for (int o = 0; o < kOut; ++o) y2[p * kOut + o] = chw[o * pixels + p];
      }
      const auto t6 = Clock::now();
      lite::npu::FewChannelConv::Geometry g;
      g.ih = h, g.iw = wd, g.oh = h / 2, g.ow = wd / 2, g.stride_h = g.stride_w = 2;
      g.pad_top = g.pad_left = 1;
      own.Run(g, x.data(), y3.data(), nullptr);
      const auto t7 = Clock::now();
      own.Run(g, x.data(), y3.data(), nullptr);
      const auto t8 = Clock::now();
      for (size_t i = 0; i < pixels * kOut; ++i) {
        max_diff = std::max(max_diff, std::fabs(y[i] - y2[i]));
        max_diff_own = std::max(max_diff_own, std::fabs(y[i] - y3[i]));
      }
      first_own += Ms(t6, t7), repeat_own += Ms(t7, t8);
      setup_nhwc += Ms(t0, t1), first_nhwc += Ms(t1, t2), repeat_nhwc += Ms(t2, t3);
      setup_nchw += Ms(t3, t4), run_nchw += Ms(t4, t5), transpose += Ms(t5, t6);
    }
  }
  std::printf("%d rounds x 5 sizes, sums (ms)\n", rounds);
  std::printf("NHWC: setup %.1f, first run %.1f, repeat %.1f\n", setup_nhwc, first_nhwc,
              repeat_nhwc);
  std::printf("NCHW (input NHWC): setup %.1f, run %.1f, transpose to NHWC %.1f\n", setup_nchw,
              run_nchw, transpose);
  std::printf("own FewChannelConv: first run %.1f, repeat %.1f\n", first_own, repeat_own);
  std::printf("largest difference from the NHWC form: NCHW %g, own %g\n", max_diff, max_diff_own);
  xnn_delete_operator(nhwc);
  xnn_delete_operator(nchw);
  return 0;
}
