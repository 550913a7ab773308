// Google Benchmark cases for the fluid lstm kernel on the rna_bilstm_lod
// model's weights (lstm_0: D = 256, peepholes): the batched kernel
// (lite/kernels/host/lstm_impl.h, one GEMM per time step over the sequences
// still active) against a straightforward per-sequence loop (the same step
// code run on one sequence at a time), for the reference LoD (lengths 12,
// 76, 5) and for 32 shorter sequences. Registered by tools/model_benchmarks.
#pragma once

#include <string>

namespace lite {
namespace tools {

// Registers the cases; they skip with an error when `models_dir` has no
// rna_bilstm_lod.
void RegisterLstmBenchmarks(const std::string& models_dir);

}  // namespace tools
}  // namespace lite
