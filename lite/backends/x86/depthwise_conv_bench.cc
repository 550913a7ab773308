// Microbenchmark: DepthwiseConv (the own fp32 depthwise conv on NHWC, its
// AVX-512 and AVX2 instantiations) against oneDNN's convolution set up as
// lite/kernels/x86/conv_dnnl_strategy.cc sets it up (NHWC in and out,
// weights format_tag::any, bias, the activation as a post-op), on 3x3, 5x5
// and 7x7 kernels at stride 1 and 2, dilation 1 and 2, with "same" padding,
// at map sizes real models use. Each with bias and relu6 (hard_swish for
// the 5x5 and 7x7, as in MobileNetV3-like nets). One thread; the three
// alternate run by run, best and median of `runs` each; GFLOP/s of the
// medians (2 FLOP per multiply-add) to hold against tools/roof's fp32 line.
//   bazel run //lite/backends/x86:depthwise_conv_bench [-- runs [shape index | c,h,w,k,s[,sh]]]
// (an index runs one of the listed shapes; c,h,w,k,s[,sh] one not listed, at dilation 1)
#include <omp.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <oneapi/dnnl/dnnl.hpp>

#include "lite/backends/x86/depthwise_conv.h"
#include "lite/backends/x86/kernel_bench_util.h"
#include "lite/backends/x86/post_ops.h"

namespace {

using DW = lite::x86::DepthwiseConv;
using Act = lite::operators::FusedActivation;
using dnnl::memory;
using lite::x86::bench::Median;
using lite::x86::bench::Seconds;

struct Shape {
  int64_t c, h, w;
  int k, s, d;
  int sh = 0;  // vertical stride when not s (PP-LCNet's text-line nets: 2 x 1)
};

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::atoi(argv[1]) : 100;
  int only = argc > 2 ? std::atoi(argv[2]) : -1;
  // A shape not listed: "c,h,w,k,s[,sh]" (a comma tells it from an index).
  Shape custom{0, 0, 0, 0, 1, 1};
  const bool custom_given =
      argc > 2 && std::strchr(argv[2], ',') &&
      std::sscanf(argv[2], "%" SCNd64 ",%" SCNd64 ",%" SCNd64 ",%d,%d,%d", &custom.c, &custom.h,
                  &custom.w, &custom.k, &custom.s, &custom.sh) >= 5;
  if (argc > 2 && std::strchr(argv[2], ',') && !custom_given) {
    std::fprintf(stderr, "depthwise_conv_bench: shape \"%s\" is not c,h,w,k,s[,sh]\n", argv[2]);
    return 2;
  }
  omp_set_num_threads(1);
  if (!DW::Available()) {
    std::printf("neither AVX-512 nor AVX2\n");
    return 0;
  }
  const bool avx512 = __builtin_cpu_supports("avx512f");
  std::vector<Shape> shapes = {
      {32, 112, 112, 3, 1, 1}, {32, 112, 112, 3, 2, 1}, {128, 56, 56, 3, 1, 1},
      {128, 56, 56, 3, 2, 1},  {256, 28, 28, 3, 1, 1},  {256, 28, 28, 3, 2, 1},
      {512, 14, 14, 3, 1, 1},  {512, 14, 14, 3, 2, 1},  {128, 56, 56, 3, 1, 2},
      {256, 28, 28, 3, 1, 2},  {96, 64, 64, 5, 1, 1},   {96, 64, 64, 5, 2, 1},
      {96, 64, 64, 5, 1, 2},   {64, 32, 32, 7, 1, 1},   {64, 32, 32, 7, 2, 1},
      {64, 32, 32, 7, 1, 2},   {72, 56, 56, 3, 1, 1},   {120, 28, 28, 5, 1, 1},
      {40, 80, 80, 3, 1, 1},   {24, 112, 112, 3, 2, 1},
      // pplcnet_x0_25_textline_ori's 3x3 convs on its 80 x 160 input
      {8, 80, 80, 3, 1, 1},    {8, 80, 80, 3, 1, 1, 2},  {16, 40, 80, 3, 1, 1},
      {16, 40, 80, 3, 1, 1, 2}, {32, 20, 80, 3, 1, 1},  {32, 20, 80, 3, 1, 1, 2},
      // ppocr_det_en_PP-OCRv3's 3x3 convs wider than 72 channels at a 640 x 640 input
      // (40 x 40 maps) and at 320 x 320 (20 x 20), and ppocr_cls's 24 at stride 2
      {120, 80, 80, 3, 2, 1},  {104, 40, 40, 3, 1, 1}, {96, 40, 40, 3, 1, 1},
      {240, 40, 40, 3, 1, 1},  {336, 40, 40, 3, 1, 1}, {96, 20, 20, 3, 1, 1},
      {336, 20, 20, 3, 1, 1},  {24, 24, 96, 3, 2, 1},
      // ppocr_det_PP-OCRv5_mobile's 3x3 convs wider than 72 channels at 640 x 640, PP-OCRv4
      // rec's 128-channel ones at 48 x 608 (one 1 x 2 strided), det v3's first at 640 x 640
      {96, 80, 80, 3, 1, 1},   {96, 80, 80, 3, 2, 1},   {128, 12, 304, 3, 1, 1},
      {128, 12, 304, 3, 2, 1, 1}, {8, 320, 320, 3, 1, 1},
  };
  if (custom_given) {
    shapes = {custom};
    only = 0;
  }
  dnnl::engine eng(dnnl::engine::kind::cpu, 0);
  dnnl::stream strm(eng);
  std::printf("%4s %9s %2s %3s %2s | %8s %8s %6s | %8s %8s %6s | %8s %8s %6s | %6s  %s\n", "c",
              "hxw", "k", "s", "d", "dnnl min", "med", "GF/s", "512 min", "med", "GF/s",
              "avx2 min", "med", "GF/s", "own/dn", "oneDNN impl");
  uint32_t seed = 7;
  auto rnd = [&]() {
    seed = seed * 1103515245u + 12345u;
    return static_cast<float>(seed >> 8) / (1 << 24) - 0.5f;
  };
  for (size_t index = 0; index < shapes.size(); ++index) {
    if (only >= 0 && static_cast<int>(index) != only) continue;
    const Shape& s = shapes[index];
    const int pad = s.d * (s.k - 1) / 2;
    const int ext = s.d * (s.k - 1) + 1;
    const int sh = s.sh ? s.sh : s.s;
    const int64_t oh = (s.h + 2 * pad - ext) / sh + 1, ow = (s.w + 2 * pad - ext) / s.s + 1;
    std::vector<float> in(s.h * s.w * s.c), filter(s.c * s.k * s.k), bias(s.c);
    for (auto& x : in) x = rnd();
    for (auto& x : filter) x = rnd();
    for (auto& x : bias) x = rnd();
    Act act;
    if (s.k == 3) {
      act.kind = Act::kRelu6;
      act.alpha = 6.f;
    } else {
      act.kind = Act::kHardSwish;
      act.alpha = 6.f;
      act.beta = 6.f;
      act.gamma = 3.f;
    }
    std::vector<float> out_dnnl(oh * ow * s.c), out_own(oh * ow * s.c), out_avx2(oh * ow * s.c);
    const auto f32 = memory::data_type::f32;
    const auto nhwc = memory::format_tag::nhwc;
    memory::desc src_md({1, s.c, s.h, s.w}, f32, nhwc);
    memory::desc dst_md({1, s.c, oh, ow}, f32, nhwc);
    memory::desc bias_md({s.c}, f32, memory::format_tag::x);
    const memory::dims wdims{s.c, 1, 1, s.k, s.k};
    memory::desc w_any(wdims, f32, memory::format_tag::any);
    dnnl::post_ops ops;
    lite::x86::AppendActivation(act, &ops);
    dnnl::primitive_attr attr;
    attr.set_post_ops(ops);
    dnnl::convolution_forward::desc desc(dnnl::prop_kind::forward_inference,
                                         dnnl::algorithm::convolution_direct, src_md, w_any,
                                         bias_md, dst_md, {sh, s.s}, {s.d - 1, s.d - 1},
                                         {pad, pad}, {pad, pad});
    dnnl::convolution_forward::primitive_desc pd(desc, attr, eng);
    dnnl::convolution_forward conv(pd);
    memory weights(pd.weights_desc(), eng);
    memory user_w(memory::desc(wdims, f32, memory::format_tag::goihw), eng, filter.data());
    dnnl::reorder(user_w, weights).execute(strm, user_w, weights);
    memory src(src_md, eng, in.data()), dst(dst_md, eng, out_dnnl.data());
    memory b(bias_md, eng, bias.data());
    DW own, own2;
    own.SetFilter(filter.data(), s.c, s.k, s.k);
    own2.SetFilter(filter.data(), s.c, s.k, s.k);
    own2.ForceIsa(DW::Isa::kAvx2);
    DW::Geometry g;
    g.c = s.c;
    g.h = s.h;
    g.w = s.w;
    g.oh = oh;
    g.ow = ow;
    g.kh = g.kw = s.k;
    g.stride_h = sh;
    g.stride_w = s.s;
    g.pad_top = g.pad_left = pad;
    g.dilation_h = g.dilation_w = s.d;
    DW::Epilogue e;
    e.bias = bias.data();
    e.act = act;
    std::vector<double> t_dnnl, t_own, t_avx2;
    for (int i = 0; i < runs + 3; ++i) {
      double t0 = Seconds();
      conv.execute(strm, {{DNNL_ARG_SRC, src},
                          {DNNL_ARG_WEIGHTS, weights},
                          {DNNL_ARG_BIAS, b},
                          {DNNL_ARG_DST, dst}});
      strm.wait();
      double t1 = Seconds();
      if (i >= 3) t_dnnl.push_back((t1 - t0) * 1e3);
      if (avx512) {
        t0 = Seconds();
        own.Run(g, in.data(), e, out_own.data(), s.c, 1);
        t1 = Seconds();
        if (i >= 3) t_own.push_back((t1 - t0) * 1e3);
      }
      t0 = Seconds();
      own2.Run(g, in.data(), e, out_avx2.data(), s.c, 1);
      t1 = Seconds();
      if (i >= 3) t_avx2.push_back((t1 - t0) * 1e3);
    }
    if (!avx512) t_own = t_avx2, out_own = out_avx2;
    double worst = 0;
    for (size_t i = 0; i < out_dnnl.size(); ++i) {
      worst = std::max(worst, static_cast<double>(std::fabs(out_own[i] - out_dnnl[i])));
      worst = std::max(worst, static_cast<double>(std::fabs(out_avx2[i] - out_dnnl[i])));
    }
    const double gflop = 2.0 * oh * ow * s.c * s.k * s.k * 1e-9;
    const double md = Median(t_dnnl), mo = Median(t_own), m2 = Median(t_avx2);
    std::printf(
        "%4ld %4ldx%-4ld %2d %dx%d %2d | %8.4f %8.4f %6.1f | %8.4f %8.4f %6.1f | %8.4f %8.4f %6.1f |"
        " %6.2f  %s%s\n",
        (long)s.c, (long)s.h, (long)s.w, s.k, sh, s.s, s.d,
        *std::min_element(t_dnnl.begin(), t_dnnl.end()), md, gflop / md * 1e3,
        *std::min_element(t_own.begin(), t_own.end()), mo, gflop / mo * 1e3,
        *std::min_element(t_avx2.begin(), t_avx2.end()), m2, gflop / m2 * 1e3, mo / md,
        pd.impl_info_str(), worst > 1e-4 ? " MISMATCH" : "");
  }
  return 0;
}
