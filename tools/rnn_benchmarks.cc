#include "tools/rnn_benchmarks.h"

#include <vector>

#include <benchmark/benchmark.h>

#include "lite/kernels/host/fused_rnn_impl.h"
#include "tools/tool_util.h"

namespace lite {
namespace tools {
namespace {

using kernels::host::FusedRnnArgs;
using kernels::host::FusedRnnForward;
using kernels::host::FusedRnnScratch;
using kernels::host::RnnDirectionWeights;
using operators::FusedRnnMode;

struct RnnShape {
  const char* name;
  FusedRnnMode mode;
  int layers;
  int64_t input, hidden, steps, batch;
};

void RunRnn(benchmark::State& state, const RnnShape& shape) {
  const int dirs = 2;
  const int64_t h = shape.hidden, gh = operators::FusedRnnGates(shape.mode) * h;
  std::vector<std::vector<float>> params;  // owns what the weights point at
  std::vector<RnnDirectionWeights> weights(shape.layers * dirs);
  double macs = 0;
  uint32_t seed = 1;
  for (int l = 0; l < shape.layers; ++l) {
    const int64_t in = l == 0 ? shape.input : dirs * h;
    macs += dirs * static_cast<double>(shape.steps * shape.batch) * gh * (in + h);
    for (int d = 0; d < dirs; ++d) {
      params.push_back(LcgUniform(gh * in, seed++, -0.1, 0.1));
      const std::vector<float> w_hh = LcgUniform(gh * h, seed++, -0.1, 0.1);
      const std::vector<float> b = LcgUniform(gh, seed++, -0.1, 0.1);
      weights[l * dirs + d].Prepare(shape.mode, h, in, params.back().data(), w_hh.data(),
                                    b.data(), b.data());
    }
  }
  const int64_t states = shape.layers * dirs * shape.batch * h;
  const std::vector<float> x = LcgUniform(shape.steps * shape.batch * shape.input, 7, -1, 1);
  const std::vector<float> h0 = LcgUniform(states, 8, -1, 1);
  std::vector<float> out(shape.steps * shape.batch * dirs * h), last_h(states), last_c(states);
  FusedRnnArgs a;
  a.steps = shape.steps;
  a.batch = shape.batch;
  a.layers = shape.layers;
  a.directions = dirs;
  a.x = x.data();
  a.h0 = h0.data();
  a.out = out.data();
  a.last_h = last_h.data();
  if (shape.mode == FusedRnnMode::kLstm) {
    a.c0 = h0.data();
    a.last_c = last_c.data();
  }
  FusedRnnScratch scratch;
  for (auto _ : state) {
    FusedRnnForward(weights, a, &scratch, nullptr);
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["GFLOP/s"] =
      benchmark::Counter(2 * macs * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
}

}  // namespace

void RegisterRnnBenchmarks() {
  static const RnnShape kShapes[] = {
      {"rnn_lstm_crnn_h48", FusedRnnMode::kLstm, 2, 288, 48, 80, 1},
      {"rnn_lstm_crnn_h256", FusedRnnMode::kLstm, 2, 512, 256, 80, 1},
      {"rnn_gru_h256_batch16", FusedRnnMode::kGru, 1, 256, 256, 50, 16},
  };
  for (const RnnShape& s : kShapes) {
    benchmark::RegisterBenchmark(s.name, [&s](benchmark::State& st) { RunRnn(st, s); })
        ->Unit(benchmark::kMillisecond);
  }
}

}  // namespace tools
}  // namespace lite
