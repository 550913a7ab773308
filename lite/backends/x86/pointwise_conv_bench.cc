// Microbenchmark: PointwiseConv (the own fp32 1x1 conv on NHWC) on the 1x1
// shapes of ppocr_rec_ch_PP-OCRv4_from_onnx at its reference line (48 x 608),
// each with the model's epilogue (bias, hard_swish, then the learnable
// affine map). One thread; best and median of `runs` each, GFLOP/s of the
// median (2 FLOP per multiply-add) to hold against tools/roof's fp32 line.
//   bazel run -c opt //lite/backends/x86:pointwise_conv_bench [-- runs [shape index]]
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "lite/backends/x86/kernel_bench_util.h"
#include "lite/backends/x86/pointwise_conv.h"

namespace {

using PC = lite::x86::PointwiseConv;
using Act = lite::operators::FusedActivation;
using lite::x86::bench::Median;
using lite::x86::bench::Seconds;

struct Shape {
  int64_t pixels, ic, oc;
};

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::atoi(argv[1]) : 200;
  const int only = argc > 2 ? std::atoi(argv[2]) : -1;
  omp_set_num_threads(1);
  if (!PC::Available()) {
    std::printf("no AVX-512\n");
    return 0;
  }
  // M x ic x oc of the model's 14 pointwise convs (M = H * W of its NHWC map),
  // by stage.
  const std::vector<Shape> shapes = {
      {7296, 16, 32},   {7296, 32, 64},   {7296, 64, 64},   {3648, 64, 128},  {3648, 128, 128},
      {1824, 128, 240}, {1824, 240, 240}, {1824, 240, 240}, {1824, 240, 240}, {1824, 240, 240},
      {912, 240, 480},  {912, 480, 480},  {456, 480, 480},  {456, 480, 480},
      // pplcnet_x0_25_textline_ori's first 1x1 convs (80 x 160 input)
      {6400, 8, 8},     {3200, 8, 16},    {3200, 16, 16},   {1600, 16, 32},
  };
  Act act;
  act.kind = Act::kHardSwish;
  act.alpha = 6.f;
  act.beta = 6.f;
  act.gamma = 3.f;
  std::printf("%5s %4s %4s | %9s %9s | %7s\n", "M", "ic", "oc", "min us", "med us", "GFLOP/s");
  uint32_t seed = 7;
  auto rnd = [&]() {
    seed = seed * 1103515245u + 12345u;
    return static_cast<float>(seed >> 8) / (1 << 24) - 0.5f;
  };
  double sum = 0, flop = 0;
  for (size_t index = 0; index < shapes.size(); ++index) {
    if (only >= 0 && static_cast<int>(index) != only) continue;
    const Shape& s = shapes[index];
    std::vector<float> in(s.pixels * s.ic), filter(s.oc * s.ic), bias(s.oc), out(s.pixels * s.oc);
    for (auto& x : in) x = rnd();
    for (auto& x : filter) x = rnd();
    for (auto& x : bias) x = rnd();
    PC pc;
    pc.SetFilter(filter.data(), s.oc, s.ic);
    std::vector<double> t;
    for (int i = 0; i < runs + 3; ++i) {
      const double t0 = Seconds();
      pc.Run(s.pixels, in.data(), s.ic, bias.data(), act, out.data(), s.oc, 1, nullptr, 0, 0.6f,
             0.1f);
      const double t1 = Seconds();
      if (i >= 3) t.push_back((t1 - t0) * 1e6);
    }
    const double med = Median(t);
    sum += med;
    flop += 2.0 * s.pixels * s.ic * s.oc;
    std::printf("%5ld %4ld %4ld | %9.2f %9.2f | %7.1f\n", (long)s.pixels, (long)s.ic, (long)s.oc,
                *std::min_element(t.begin(), t.end()), med,
                2.0 * s.pixels * s.ic * s.oc / (med * 1e3));
  }
  std::printf("sum of medians: %.2f us, %.1f GFLOP/s\n", sum, flop / (sum * 1e3));
  return 0;
}
