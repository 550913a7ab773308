// Google Benchmark cases for the fused rnn op's host kernel
// (lite/kernels/host/fused_rnn_impl.h, FusedRnnForward) on random weights,
// in the shapes of text recognisers: a two-layer bidirectional LSTM as in
// CRNN recognisers (hidden 48 and 256, 80 time steps, one image) and a
// bidirectional GRU over a batch of 16. One thread (no pool), so the CPU
// time is the op's cost even on a shared machine; the "GFLOP/s" counter is
// per CPU second, multiply-adds counting 2. Registered by
// tools/model_benchmarks.
#pragma once

namespace lite {
namespace tools {

void RegisterRnnBenchmarks();

}  // namespace tools
}  // namespace lite
