// Microbenchmark: PointwiseInt8 (the own int8 1x1 conv) on the 1x1 shapes
// ppocr_cls_mobile_v2.0_slim_quant (48x192) and ppocr_det_ch_PP-OCRv3_slim_quant
// (640x640) run on it, with their epilogues (relu -> u8, hard_swish -> s8,
// none -> f32). One thread; best and median of `runs` each, GOP/s of the
// median (2 ops per multiply-add) to hold against tools/roof's int8 line.
//   bazel run -c opt //lite/backends/x86:pointwise_int8_bench [-- runs [shape index]]
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "lite/backends/x86/kernel_bench_util.h"
#include "lite/backends/x86/pointwise_int8.h"

namespace {

using PW = lite::x86::PointwiseInt8;
using Act = lite::operators::FusedActivation;

struct Shape {
  const char* model;
  int64_t pixels, ic, oc;
  PW::Levels in;
  PW::Out out;
};

using lite::x86::bench::Median;
using lite::x86::bench::Seconds;

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::atoi(argv[1]) : 500;
  const int only = argc > 2 ? std::atoi(argv[2]) : -1;
  omp_set_num_threads(1);
  if (!PW::Available()) {
    std::printf("no AVX512-VNNI\n");
    return 0;
  }
  const PW::Levels s8 = PW::Levels::kS8, u8 = PW::Levels::kU8;
  const std::vector<Shape> shapes = {
      {"cls", 2304, 8, 8, s8, PW::Out::kU8},
      {"cls", 1152, 8, 24, s8, PW::Out::kU8},
      {"cls", 576, 24, 8, u8, PW::Out::kFloat},
      {"cls", 576, 8, 32, s8, PW::Out::kU8},
      {"cls", 288, 16, 88, s8, PW::Out::kS8},
      {"cls", 288, 16, 40, s8, PW::Out::kS8},
      {"cls", 288, 16, 48, s8, PW::Out::kS8},
      {"cls", 288, 16, 104, s8, PW::Out::kS8},
      {"cls", 192, 32, 200, s8, PW::Out::kS8},
      {"cls", 192, 32, 200, s8, PW::Out::kFloat},
      {"det", 102400, 8, 8, u8, PW::Out::kU8},
      {"det", 25600, 16, 64, s8, PW::Out::kS8},
      {"det", 6400, 24, 96, s8, PW::Out::kS8},
      {"det", 1600, 40, 240, s8, PW::Out::kS8},
  };
  std::printf("%-4s %7s %4s %4s %3s %3s | %9s %9s | %7s\n", "", "pixels", "ic", "oc", "in", "out",
              "min us", "med us", "GOP/s");
  uint32_t seed = 11;
  auto rnd = [&]() {
    seed = seed * 1103515245u + 12345u;
    return seed >> 8;
  };
  double sum = 0;
  for (size_t index = 0; index < shapes.size(); ++index) {
    if (only >= 0 && static_cast<int>(index) != only) continue;
    const Shape& s = shapes[index];
    std::vector<int8_t> in(s.pixels * s.ic), filter(s.oc * s.ic);
    for (auto& x : in) x = static_cast<int8_t>(s.in == u8 ? rnd() % 128 : rnd() % 256);
    for (auto& x : filter) x = static_cast<int8_t>(rnd() % 255 - 127);
    std::vector<float> scale(s.oc), bias(s.oc);
    for (int64_t c = 0; c < s.oc; ++c) {
      scale[c] = 1e-4f * (1 + rnd() % 100) / 100.f;
      bias[c] = (rnd() % 200) / 100.f - 1.f;
    }
    Act act;
    if (s.out == PW::Out::kU8) {
      act.kind = Act::kRelu;
    } else if (s.out == PW::Out::kS8) {
      act.kind = Act::kHardSwish;
      act.alpha = 6.f;
      act.beta = 6.f;
      act.gamma = 3.f;
    }
    PW pw;
    pw.SetFilter(filter.data(), s.oc, s.ic);
    pw.SetEpilogue(scale.data(), bias.data(), act, s.out, 127.f / 3.f, 1);
    std::vector<char> out(s.pixels * s.oc * (s.out == PW::Out::kFloat ? 4 : 1));
    std::vector<double> t;
    for (int i = 0; i < runs + 3; ++i) {
      const double t0 = Seconds();
      pw.Run(s.pixels, in.data(), s.in, out.data(), 1);
      const double t1 = Seconds();
      if (i >= 3) t.push_back((t1 - t0) * 1e6);
    }
    const double med = Median(t);
    sum += med;
    std::printf("%-4s %7ld %4ld %4ld %3s %3s | %9.2f %9.2f | %7.1f\n", s.model, (long)s.pixels,
                (long)s.ic, (long)s.oc, s.in == u8 ? "u8" : "s8",
                s.out == PW::Out::kFloat ? "f32" : s.out == PW::Out::kU8 ? "u8" : "s8",
                *std::min_element(t.begin(), t.end()), med,
                2.0 * s.pixels * s.ic * s.oc / (med * 1e3));
  }
  std::printf("sum of medians: %.2f us\n", sum);
  return 0;
}
