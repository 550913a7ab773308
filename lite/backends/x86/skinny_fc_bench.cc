// Microbenchmark: the GEMMs of the fc ops of ppocr_rec_ch_PP-OCRv4_from_onnx
// at its reference line (M = 76 sequence positions: short, "skinny" row
// counts), with the x86 fc kernel's oneDNN matmul (W [k, n] plain, bias
// operand) and with PointwiseConv (the own 1x1 GEMM, W packed from [n, k]),
// alternated call by call so both see the same machine; then the batch-1
// fcs of the dqn and googlenet stand-ins (M = 1), where the third column is
// the own GEMV (gemv.h) the fc kernel runs on one row. One thread; best and
// median of `runs` each, GFLOP/s of the best (2 FLOP per multiply-add) to
// hold against tools/roof's fp32 line.
//   bazel run -c opt //lite/backends/x86:skinny_fc_bench [-- runs]
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "lite/backends/x86/dnnl_util.h"
#include "lite/backends/x86/gemv.h"
#include "lite/backends/x86/kernel_bench_util.h"
#include "lite/backends/x86/pointwise_conv.h"

namespace {

using lite::x86::bench::Median;
using lite::x86::bench::Seconds;

struct Shape {
  int64_t m, k, n;
};

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::atoi(argv[1]) : 400;
  omp_set_num_threads(1);
  if (!lite::x86::PointwiseConv::Available()) {
    std::printf("no AVX-512\n");
    return 0;
  }
  // m x k x n: the CTC head (120 -> 6625 classes), the attention's qkv, the
  // MLP's two layers and the attention's output projection.
  const std::vector<Shape> shapes = {
      {76, 120, 6625}, {76, 120, 360}, {76, 120, 240}, {76, 240, 120}, {76, 120, 120},
      {1, 3136, 512},  {1, 512, 6},    {1, 1024, 1000}};
  std::printf("%3s %4s %5s | %8s %8s %7s | %8s %8s %7s | %8s %8s\n", "m", "k", "n", "dnnl min",
              "med us", "GFLOP/s", "own min", "med us", "GFLOP/s", "gemv min", "med us");
  const dnnl::engine& engine = lite::x86::CpuEngine();
  dnnl::stream stream(engine);
  for (const Shape& s : shapes) {
    std::vector<float> in(s.m * s.k), w(s.k * s.n), wt(s.n * s.k), bias(s.n), out(s.m * s.n);
    uint32_t seed = 7;
    auto rnd = [&]() {
      seed = seed * 1103515245u + 12345u;
      return static_cast<float>(seed >> 8) / (1 << 24) - 0.5f;
    };
    for (auto& x : in) x = rnd();
    for (auto& x : bias) x = rnd();
    for (int64_t i = 0; i < s.k; ++i) {
      for (int64_t j = 0; j < s.n; ++j) w[i * s.n + j] = wt[j * s.k + i] = rnd();
    }
    using lite::x86::PlainDesc;
    const lite::DDim src{s.m, s.k}, wd{s.k, s.n}, dst{s.m, s.n}, bd{1, s.n};
    dnnl::matmul matmul(dnnl::matmul::primitive_desc(
        dnnl::matmul::desc(PlainDesc(src), PlainDesc(wd), PlainDesc(bd), PlainDesc(dst)),
        engine));
    dnnl::memory src_m(PlainDesc(src), engine, in.data()), w_m(PlainDesc(wd), engine, w.data()),
        bias_m(PlainDesc(bd), engine, bias.data()), dst_m(PlainDesc(dst), engine, out.data());
    lite::x86::PointwiseConv own;
    own.SetFilter(wt.data(), s.n, s.k);
    const lite::operators::FusedActivation none;
    std::vector<double> t_dnnl, t_own, t_gemv;
    lite::x86::Gemv gemv;
    if (s.m == 1) gemv.SetWeights(w.data(), s.k, s.n);
    for (int i = 0; i < runs + 3; ++i) {
      const double t0 = Seconds();
      matmul.execute(stream, {{DNNL_ARG_SRC, src_m},
                              {DNNL_ARG_WEIGHTS, w_m},
                              {DNNL_ARG_BIAS, bias_m},
                              {DNNL_ARG_DST, dst_m}});
      stream.wait();
      const double t1 = Seconds();
      own.Run(s.m, in.data(), s.k, bias.data(), none, out.data(), s.n, 1);
      const double t2 = Seconds();
      if (s.m == 1) gemv.Run(in.data(), bias.data(), out.data(), 1);
      const double t3 = Seconds();
      if (i >= 3) {
        t_dnnl.push_back((t1 - t0) * 1e6);
        t_own.push_back((t2 - t1) * 1e6);
        t_gemv.push_back((t3 - t2) * 1e6);
      }
    }
    const double mflop = 2.0 * s.m * s.k * s.n / 1e3;
    const double best_dnnl = *std::min_element(t_dnnl.begin(), t_dnnl.end());
    const double best_own = *std::min_element(t_own.begin(), t_own.end());
    std::printf("%3ld %4ld %5ld | %8.1f %8.1f %7.1f | %8.1f %8.1f %7.1f | %8.1f %8.1f\n",
                (long)s.m, (long)s.k, (long)s.n, best_dnnl, Median(t_dnnl), mflop / best_dnnl,
                best_own, Median(t_own), mflop / best_own,
                *std::min_element(t_gemv.begin(), t_gemv.end()), Median(t_gemv));
  }
  return 0;
}
