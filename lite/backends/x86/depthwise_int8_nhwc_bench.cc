// Microbenchmark: DepthwiseInt8Nhwc against oneDNN's int8 depthwise
// convolution set up as lite/kernels/x86/conv_int8_compute.cc sets it up
// (NHWC s8 / u8 levels in, per-channel output scales, the activation and the
// requantization as post-ops, s8 / u8 / f32 out), on the depthwise shapes of
// ppocr_det_ch_PP-OCRv3_slim_quant (640x640) and ppocr_cls_mobile_v2.0_slim_quant
// (48x192); the own kernel also with ForceFloatSums ("float": its float
// form where the quad form runs). One thread; the three alternate, best and
// median of `runs` each.
//   bazel run //lite/backends/x86:depthwise_int8_nhwc_bench [-- runs [shape index]]
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <oneapi/dnnl/dnnl.hpp>

#include "lite/backends/x86/kernel_bench_util.h"
#include "lite/backends/x86/depthwise_int8_nhwc.h"
#include "lite/backends/x86/post_ops.h"

namespace {

using DW = lite::x86::DepthwiseInt8Nhwc;
using Act = lite::operators::FusedActivation;
using dnnl::memory;

struct Shape {
  const char* model;
  int64_t c, h, w;
  int k, sh, sw;
  bool u8;   // u8 in (after relu), else s8 (after hard_swish)
  DW::Out out;
};

using lite::x86::bench::Median;
using lite::x86::bench::Seconds;

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::atoi(argv[1]) : 200;
  const int only = argc > 2 ? std::atoi(argv[2]) : -1;
  omp_set_num_threads(1);
  if (!DW::Available()) {
    std::printf("no AVX-512\n");
    return 0;
  }
  const std::vector<Shape> shapes = {
      {"det", 8, 320, 320, 3, 1, 1, true, DW::Out::kU8},
      {"det", 32, 320, 320, 3, 2, 2, true, DW::Out::kU8},
      {"det", 40, 160, 160, 3, 1, 1, true, DW::Out::kU8},
      // Small channel counts at det's first maps (not in the model).
      {"-", 16, 320, 320, 3, 1, 1, true, DW::Out::kU8},
      {"-", 16, 320, 320, 3, 2, 2, true, DW::Out::kU8},
      {"-", 24, 160, 160, 3, 1, 1, true, DW::Out::kU8},
      {"-", 24, 160, 160, 3, 2, 2, true, DW::Out::kU8},
      {"-", 8, 160, 160, 3, 2, 2, true, DW::Out::kU8},
      {"-", 8, 160, 160, 5, 1, 1, true, DW::Out::kU8},
      {"-", 8, 160, 160, 3, 1, 1, false, DW::Out::kS8},
      {"-", 8, 160, 160, 3, 2, 2, false, DW::Out::kS8},
      {"-", 8, 320, 320, 3, 2, 2, true, DW::Out::kU8},
      {"-", 4, 160, 160, 3, 1, 1, true, DW::Out::kU8},
      {"-", 8, 160, 160, 3, 2, 1, true, DW::Out::kFloat},
      {"det", 40, 160, 160, 5, 2, 2, true, DW::Out::kU8},
      {"det", 64, 80, 80, 5, 1, 1, true, DW::Out::kU8},
      {"det", 120, 80, 80, 3, 2, 2, false, DW::Out::kS8},
      {"det", 104, 40, 40, 3, 1, 1, false, DW::Out::kS8},
      {"det", 96, 40, 40, 3, 1, 1, false, DW::Out::kS8},
      {"det", 240, 40, 40, 3, 1, 1, false, DW::Out::kS8},
      {"det", 336, 40, 40, 3, 1, 1, false, DW::Out::kS8},
      {"det", 336, 40, 40, 5, 2, 2, false, DW::Out::kS8},
      {"det", 480, 20, 20, 5, 1, 1, false, DW::Out::kS8},
      {"cls", 8, 24, 96, 3, 2, 1, true, DW::Out::kFloat},
      {"cls", 24, 12, 96, 3, 2, 1, true, DW::Out::kU8},
      {"cls", 32, 6, 96, 3, 1, 1, true, DW::Out::kU8},
      {"cls", 32, 6, 96, 5, 2, 1, false, DW::Out::kFloat},
      {"cls", 88, 3, 96, 5, 1, 1, false, DW::Out::kFloat},
      {"cls", 40, 3, 96, 5, 1, 1, false, DW::Out::kFloat},
      {"cls", 48, 3, 96, 5, 1, 1, false, DW::Out::kFloat},
      {"cls", 104, 3, 96, 5, 2, 1, false, DW::Out::kFloat},
      {"cls", 200, 2, 96, 5, 1, 1, false, DW::Out::kFloat},
  };
  dnnl::engine eng(dnnl::engine::kind::cpu, 0);
  dnnl::stream strm(eng);
  std::printf("%-4s %5s %9s %4s %4s %4s %4s | %9s %9s | %9s %9s | %6s | %9s %6s  %s\n", "", "c",
              "hxw", "k", "s", "in", "out", "dnnl min", "med", "own min", "med", "own/dnnl",
              "float med", "own/fl", "oneDNN impl");
  uint32_t seed = 7;
  auto rnd = [&]() {
    seed = seed * 1103515245u + 12345u;
    return seed >> 8;
  };
  double sum_dnnl = 0, sum_own = 0, sum_float = 0;
  for (size_t index = 0; index < shapes.size(); ++index) {
    if (only >= 0 && static_cast<int>(index) != only) continue;
    const Shape& s = shapes[index];
    const int pad = s.k / 2;
    const int64_t oh = (s.h + 2 * pad - s.k) / s.sh + 1, ow = (s.w + 2 * pad - s.k) / s.sw + 1;
    std::vector<int8_t> in(s.h * s.w * s.c), filter(s.c * s.k * s.k);
    for (auto& x : in) x = static_cast<int8_t>(s.u8 ? rnd() % 128 : rnd() % 256);
    for (auto& x : filter) x = static_cast<int8_t>(rnd() % 255 - 127);
    std::vector<float> scale(s.c), bias(s.c);
    for (int64_t c = 0; c < s.c; ++c) {
      scale[c] = 1e-4f * (1 + rnd() % 100) / 100.f;
      bias[c] = (rnd() % 200) / 100.f - 1.f;
    }
    Act act;
    if (s.u8) {
      act.kind = Act::kRelu;
    } else {
      act.kind = Act::kHardSwish;
      act.alpha = 6.f;
      act.beta = 6.f;
      act.gamma = 3.f;
    }
    const float out_factor = 127.f / 3.f;
    const size_t out_bytes = oh * ow * s.c * (s.out == DW::Out::kFloat ? 4 : 1);
    std::vector<char> out_dnnl(out_bytes), out_own(out_bytes), out_float(out_bytes);

    // oneDNN, as ConvInt8Compute sets it up.
    const auto nhwc = memory::format_tag::nhwc;
    const auto in_t = s.u8 ? memory::data_type::u8 : memory::data_type::s8;
    const auto out_t = s.out == DW::Out::kFloat ? memory::data_type::f32
                       : s.out == DW::Out::kU8  ? memory::data_type::u8
                                                : memory::data_type::s8;
    memory::desc src_md({1, s.c, s.h, s.w}, in_t, nhwc);
    memory::desc dst_md({1, s.c, oh, ow}, out_t, nhwc);
    memory::desc bias_md({s.c}, memory::data_type::f32, memory::format_tag::x);
    const memory::dims wdims{s.c, 1, 1, s.k, s.k};
    memory::desc w_any(wdims, memory::data_type::s8, memory::format_tag::any);
    dnnl::post_ops ops;
    lite::x86::AppendActivation(act, &ops);
    if (s.out != DW::Out::kFloat) {
      ops.append_eltwise(1.f, dnnl::algorithm::eltwise_linear, out_factor, 0.f);
      ops.append_eltwise(1.f, dnnl::algorithm::eltwise_clip, -127.f, 127.f);
    }
    dnnl::primitive_attr attr;
    attr.set_post_ops(ops);
    attr.set_output_scales(1 << 1, scale);
    std::vector<float> scaled_bias(s.c);
    for (int64_t c = 0; c < s.c; ++c) scaled_bias[c] = bias[c] / scale[c];
    dnnl::convolution_forward::desc desc(
        dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct, src_md, w_any,
        bias_md, dst_md, {s.sh, s.sw}, {0, 0}, {pad, pad}, {pad, pad});
    dnnl::convolution_forward::primitive_desc pd(desc, attr, eng);
    dnnl::convolution_forward conv(pd);
    memory weights(pd.weights_desc(), eng);
    memory user_w(memory::desc(wdims, memory::data_type::s8, memory::format_tag::goihw), eng,
                  filter.data());
    dnnl::reorder(user_w, weights).execute(strm, user_w, weights);
    memory src(src_md, eng, in.data()), dst(dst_md, eng, out_dnnl.data());
    memory b(bias_md, eng, scaled_bias.data());

    DW dw;
    dw.SetFilter(filter.data(), s.c, s.k, s.k);
    dw.SetEpilogue(scale.data(), bias.data(), act, s.out, out_factor, 1);
    DW dw_float;
    dw_float.ForceFloatSums(true);
    dw_float.SetFilter(filter.data(), s.c, s.k, s.k);
    dw_float.SetEpilogue(scale.data(), bias.data(), act, s.out, out_factor, 1);
    DW::Geometry g;
    g.c = s.c;
    g.h = s.h;
    g.w = s.w;
    g.oh = oh;
    g.ow = ow;
    g.kh = g.kw = s.k;
    g.stride_h = s.sh;
    g.stride_w = s.sw;
    g.pad_top = g.pad_left = pad;

    std::vector<double> t_dnnl, t_own, t_float;
    for (int i = 0; i < runs + 3; ++i) {
      double t0 = Seconds();
      conv.execute(strm, {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, weights},
                          {DNNL_ARG_BIAS, b}, {DNNL_ARG_DST, dst}});
      strm.wait();
      double t1 = Seconds();
      dw.Run(g, in.data(), s.u8 ? DW::Levels::kU8 : DW::Levels::kS8, out_own.data(), 1);
      double t2 = Seconds();
      dw_float.Run(g, in.data(), s.u8 ? DW::Levels::kU8 : DW::Levels::kS8, out_float.data(), 1);
      double t3 = Seconds();
      if (i >= 3) {
        t_dnnl.push_back((t1 - t0) * 1e3);
        t_own.push_back((t2 - t1) * 1e3);
        t_float.push_back((t3 - t2) * 1e3);
      }
    }
    // Agreement (levels may differ by one at near-halves: the bias order).
    int64_t worse = 0;
    for (size_t i = 0; i < (s.out == DW::Out::kFloat ? out_bytes / 4 : out_bytes); ++i) {
      if (s.out == DW::Out::kFloat) {
        const float a = reinterpret_cast<float*>(out_dnnl.data())[i];
        const float o = reinterpret_cast<float*>(out_own.data())[i];
        worse += std::abs(a - o) > 1e-4f * (1.f + std::abs(a));
      } else {
        worse += std::abs(int(out_dnnl[i]) - int(out_own[i])) > 1;
      }
    }
    const double md = *std::min_element(t_dnnl.begin(), t_dnnl.end());
    const double mo = *std::min_element(t_own.begin(), t_own.end());
    sum_dnnl += Median(t_dnnl);
    sum_own += Median(t_own);
    sum_float += Median(t_float);
    // The two own forms give the same bytes.
    const bool forms_differ = out_own != out_float;
    std::printf(
        "%-4s %5ld %4ldx%-4ld %4d %2d,%d %4s %4s | %9.4f %9.4f | %9.4f %9.4f | %6.2f | %9.4f %6.2f"
        "  %s%s%s\n",
        s.model, (long)s.c, (long)s.h, (long)s.w, s.k, s.sh, s.sw, s.u8 ? "u8" : "s8",
        s.out == DW::Out::kFloat ? "f32" : s.out == DW::Out::kU8 ? "u8" : "s8", md,
        Median(t_dnnl), mo, Median(t_own), Median(t_own) / Median(t_dnnl), Median(t_float),
        Median(t_own) / Median(t_float), pd.impl_info_str(), worse ? " MISMATCH" : "",
        forms_differ ? " FORMS DIFFER" : "");
  }
  std::printf("sum of medians: dnnl %.4f ms, own %.4f ms, own float sums %.4f ms\n", sum_dnnl,
              sum_own, sum_float);
  return 0;
}
