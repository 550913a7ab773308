// Microbenchmark: ConvInt8Smalln against oneDNN's int8 convolution set up
// as lite/kernels/x86/conv_int8_compute.cc sets it up (NHWC s8 / u8 levels
// in, per-channel output scales, bias divided by them, the activation and
// the requantization as post-ops, s8 / u8 / f32 out). Shapes: PP-OCRv3 det
// int8's two 96 -> 24 3x3 convs at 160x160 (conv2d_265, batch_norm_47) and
// a few neighbours. One thread; the two alternate, best and median of
// `runs` each.
//   bazel run //lite/backends/x86:conv_int8_smalln_bench [-- runs [shape index]]
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <oneapi/dnnl/dnnl.hpp>

#include "lite/backends/x86/kernel_bench_util.h"
#include "lite/backends/x86/conv_int8_smalln.h"
#include "lite/backends/x86/post_ops.h"

namespace {

using CS = lite::x86::ConvInt8Smalln;
using Act = lite::operators::FusedActivation;
using dnnl::memory;

struct Shape {
  const char* what;
  int64_t ic, oc, h, w;
  int k;
  bool u8;  // u8 in, else s8
  CS::Out out;
  Act::Kind act;
};

using lite::x86::bench::Median;
using lite::x86::bench::Seconds;

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::atoi(argv[1]) : 50;
  const int only = argc > 2 ? std::atoi(argv[2]) : -1;
  omp_set_num_threads(1);
  if (!CS::Available()) {
    std::printf("no AVX512-VNNI\n");
    return 0;
  }
  const std::vector<Shape> shapes = {
      {"det 96->24 s8 f32", 96, 24, 160, 160, 3, false, CS::Out::kFloat, Act::kNone},
      {"det 96->24 s8 s8", 96, 24, 160, 160, 3, false, CS::Out::kS8, Act::kNone},
      {"96->24 u8 u8 relu", 96, 24, 160, 160, 3, true, CS::Out::kU8, Act::kRelu},
      {"96->24 s8 f32 hswish", 96, 24, 160, 160, 3, false, CS::Out::kFloat, Act::kHardSwish},
      {"96->24 80x80", 96, 24, 80, 80, 3, false, CS::Out::kFloat, Act::kNone},
      {"96->24 40x40", 96, 24, 40, 40, 3, false, CS::Out::kFloat, Act::kNone},
      {"96->28 160", 96, 28, 160, 160, 3, false, CS::Out::kFloat, Act::kNone},
      {"96->16 160", 96, 16, 160, 160, 3, false, CS::Out::kFloat, Act::kNone},
      {"96->8 160", 96, 8, 160, 160, 3, false, CS::Out::kFloat, Act::kNone},
      {"96->28 160 u8", 96, 28, 160, 160, 3, true, CS::Out::kFloat, Act::kNone},
      {"96->24 1x1", 96, 24, 160, 160, 1, false, CS::Out::kFloat, Act::kNone},
      {"24->24 160", 24, 24, 160, 160, 3, false, CS::Out::kFloat, Act::kNone},
  };
  dnnl::engine eng(dnnl::engine::kind::cpu, 0);
  dnnl::stream strm(eng);
  std::printf("%-24s | %9s %9s | %9s %9s | %6s  %s\n", "shape", "dnnl min", "med", "own min",
              "med", "own/dnnl", "oneDNN impl");
  uint32_t seed = 7;
  auto rnd = [&]() {
    seed = seed * 1103515245u + 12345u;
    return seed >> 8;
  };
  for (size_t index = 0; index < shapes.size(); ++index) {
    if (only >= 0 && static_cast<int>(index) != only) continue;
    const Shape& s = shapes[index];
    const int pad = s.k / 2;
    const int64_t oh = s.h + 2 * pad - s.k + 1, ow = s.w + 2 * pad - s.k + 1;
    std::vector<int8_t> in(s.h * s.w * s.ic), filter(s.oc * s.ic * s.k * s.k);
    for (auto& x : in) x = static_cast<int8_t>(s.u8 ? rnd() % 128 : rnd() % 256);
    for (auto& x : filter) x = static_cast<int8_t>(rnd() % 255 - 127);
    std::vector<float> scale(s.oc), bias(s.oc);
    for (int64_t c = 0; c < s.oc; ++c) {
      scale[c] = 1e-5f * (1 + rnd() % 100) / 100.f;
      bias[c] = (rnd() % 200) / 100.f - 1.f;
    }
    Act act;
    act.kind = s.act;
    if (s.act == Act::kHardSwish) {
      act.alpha = 6.f;
      act.beta = 6.f;
      act.gamma = 3.f;
    }
    const float out_factor = 127.f / 3.f;
    const size_t out_bytes = oh * ow * s.oc * (s.out == CS::Out::kFloat ? 4 : 1);
    std::vector<char> out_dnnl(out_bytes), out_own(out_bytes);

    const auto nhwc = memory::format_tag::nhwc;
    const auto in_t = s.u8 ? memory::data_type::u8 : memory::data_type::s8;
    const auto out_t = s.out == CS::Out::kFloat ? memory::data_type::f32
                       : s.out == CS::Out::kU8  ? memory::data_type::u8
                                                : memory::data_type::s8;
    memory::desc src_md({1, s.ic, s.h, s.w}, in_t, nhwc);
    memory::desc dst_md({1, s.oc, oh, ow}, out_t, nhwc);
    memory::desc bias_md({s.oc}, memory::data_type::f32, memory::format_tag::x);
    const memory::dims wdims{s.oc, s.ic, s.k, s.k};
    memory::desc w_any(wdims, memory::data_type::s8, memory::format_tag::any);
    dnnl::post_ops ops;
    lite::x86::AppendActivation(act, &ops);
    if (s.out != CS::Out::kFloat) {
      ops.append_eltwise(1.f, dnnl::algorithm::eltwise_linear, out_factor, 0.f);
      ops.append_eltwise(1.f, dnnl::algorithm::eltwise_clip, -127.f, 127.f);
    }
    dnnl::primitive_attr attr;
    attr.set_post_ops(ops);
    attr.set_output_scales(1 << 1, scale);
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    std::vector<float> scaled_bias(s.oc);
    for (int64_t c = 0; c < s.oc; ++c) scaled_bias[c] = bias[c] / scale[c];
    dnnl::convolution_forward::desc desc(
        dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct, src_md, w_any,
        bias_md, dst_md, {1, 1}, {0, 0}, {pad, pad}, {pad, pad});
    dnnl::convolution_forward::primitive_desc pd(desc, attr, eng);
    dnnl::convolution_forward conv(pd);
    memory weights(pd.weights_desc(), eng);
    memory user_w(memory::desc(wdims, memory::data_type::s8, memory::format_tag::oihw), eng,
                  filter.data());
    dnnl::reorder(user_w, weights).execute(strm, user_w, weights);
    memory scratch(pd.scratchpad_desc(), eng);
    memory src(src_md, eng, in.data()), dst(dst_md, eng, out_dnnl.data());
    memory b(bias_md, eng, scaled_bias.data());

    CS cs;
    cs.SetFilter(filter.data(), s.oc, s.ic, s.k, s.k);
    cs.SetEpilogue(scale.data(), bias.data(), act, s.out, out_factor, 1);
    CS::Geometry g;
    g.ic = s.ic;
    g.h = s.h;
    g.w = s.w;
    g.oh = oh;
    g.ow = ow;
    g.pad_top = g.pad_left = pad;

    std::vector<double> t_dnnl, t_own;
    for (int i = 0; i < runs + 3; ++i) {
      double t0 = Seconds();
      conv.execute(strm, {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, weights},
                          {DNNL_ARG_BIAS, b}, {DNNL_ARG_DST, dst},
                          {DNNL_ARG_SCRATCHPAD, scratch}});
      strm.wait();
      double t1 = Seconds();
      cs.Run(g, in.data(), s.u8 ? CS::Levels::kU8 : CS::Levels::kS8, out_own.data(), 1);
      double t2 = Seconds();
      if (i >= 3) {
        t_dnnl.push_back((t1 - t0) * 1e3);
        t_own.push_back((t2 - t1) * 1e3);
      }
    }
    // Agreement (levels may differ by one at near-halves: the bias order).
    int64_t worse = 0;
    for (size_t i = 0; i < (s.out == CS::Out::kFloat ? out_bytes / 4 : out_bytes); ++i) {
      if (s.out == CS::Out::kFloat) {
        const float a = reinterpret_cast<float*>(out_dnnl.data())[i];
        const float o = reinterpret_cast<float*>(out_own.data())[i];
        worse += std::abs(a - o) > 1e-4f * (1.f + std::abs(a));
      } else {
        worse += std::abs(int(out_dnnl[i]) - int(out_own[i])) > 1;
      }
    }
    const double md = *std::min_element(t_dnnl.begin(), t_dnnl.end());
    const double mo = *std::min_element(t_own.begin(), t_own.end());
    const double gop = 2.0 * oh * ow * s.oc * s.ic * s.k * s.k * 1e-9;
    std::printf("%-24s | %9.4f %9.4f | %9.4f %9.4f | %6.2f  %s%s  (own %.0f GOP/s)\n", s.what, md,
                Median(t_dnnl), mo, Median(t_own), Median(t_own) / Median(t_dnnl),
                pd.impl_info_str(), worse ? " MISMATCH" : "", gop / (Median(t_own) * 1e-3));
  }
  return 0;
}
