#include "tools/lstm_benchmarks.h"

#include <memory>
#include <vector>

#include <benchmark/benchmark.h>

#include "tools/default_model.h"
#include "lite/kernels/host/lstm_impl.h"
#include "lite/utils/file_util.h"
#include "lite/model_parser/tensor_io.h"

namespace lite {
namespace tools {
namespace {

using kernels::host::BatchPlan;
using kernels::host::LstmArgs;
using kernels::host::LstmForward;
using kernels::host::LstmScratch;
using kernels::host::MakeBatchPlan;

Status LoadWeight(const std::string& path, Tensor* out) {
  std::string bytes;
  RETURN_IF_ERROR(ReadFileToString(path, &bytes));
  ByteReader r(bytes);
  return ReadTensorRecord(&r, path, path, out);
}

// One lstm op of the model over `level`, with random input projections.
struct LstmSetup {
  Tensor weight, bias;
  kernels::host::PackedPanels packed;
  std::vector<float> input, hidden, cell, gates, cell_act;
  std::vector<uint64_t> level;
  int64_t d = 0;

  Status Init(const std::string& model_dir, std::vector<uint64_t> lod_level) {
    RETURN_IF_ERROR(LoadWeight(model_dir + "/lstm_0.w_0", &weight));
    RETURN_IF_ERROR(LoadWeight(model_dir + "/lstm_0.b_0", &bias));
    d = weight.dims()[0];
    kernels::host::PackPanels(weight.data<float>(), d, 4 * d, 4 * d, &packed);
    level = std::move(lod_level);
    const int64_t rows = static_cast<int64_t>(level.back());
    input = LcgUniform(rows * 4 * d, 7, -1.0, 1.0);
    hidden.resize(rows * d);
    cell.resize(rows * d);
    gates.resize(rows * 4 * d);
    cell_act.resize(rows * d);
    return Status::OK();
  }
  // Args for rows [begin, ...) of every buffer.
  LstmArgs Args(int64_t begin) {
    LstmArgs a;
    a.input = input.data() + begin * 4 * d;
    a.weight = weight.data<float>();
    a.packed_weight = &packed;
    a.bias = bias.data<float>();
    a.peephole = a.bias + 4 * d;
    a.d = d;
    a.hidden = hidden.data() + begin * d;
    a.cell = cell.data() + begin * d;
    a.batch_gate = gates.data() + begin * 4 * d;
    a.batch_cell_act = cell_act.data() + begin * d;
    return a;
  }
};

std::vector<uint64_t> ManyShortSequences() {
  std::vector<uint64_t> level{0};
  std::vector<float> r = LcgUniform(32, 3, 10.0, 40.0);  // lengths 10..40
  for (float len : r) level.push_back(level.back() + static_cast<uint64_t>(len));
  return level;
}

void RunLstm(benchmark::State& state, const std::string& model_dir,
             const std::vector<uint64_t>& level, bool batched) {
  LstmSetup s;
  Status st = s.Init(model_dir, level);
  if (!st.ok()) {
    state.SkipWithError(st.ToString().c_str());
    return;
  }
  LstmScratch scratch;
  const BatchPlan whole = MakeBatchPlan(level, false);
  std::vector<BatchPlan> alone;
  for (size_t i = 0; i + 1 < level.size(); ++i) {
    alone.push_back(MakeBatchPlan({0, level[i + 1] - level[i]}, false));
  }
  for (auto _ : state) {
    if (batched) {
      LstmForward(s.Args(0), whole, &scratch, nullptr);
    } else {
      for (size_t i = 0; i < alone.size(); ++i) {
        LstmForward(s.Args(static_cast<int64_t>(level[i])), alone[i], &scratch, nullptr);
      }
    }
    benchmark::DoNotOptimize(s.hidden.data());
  }
  state.counters["sequences"] = static_cast<double>(level.size() - 1);
  state.counters["steps"] = static_cast<double>(whole.steps());
}

}  // namespace

void RegisterLstmBenchmarks(const std::string& models_dir) {
  const std::string dir = models_dir + "/rna_bilstm_lod";
  const std::vector<uint64_t> reference{0, 12, 88, 93};
  const std::vector<uint64_t> many = ManyShortSequences();
  struct Case {
    const char* name;
    std::vector<uint64_t> level;
    bool batched;
  };
  for (const Case& c : {Case{"lstm_rna_lod/batched", reference, true},
                        Case{"lstm_rna_lod/per_sequence", reference, false},
                        Case{"lstm_32_short_seqs/batched", many, true},
                        Case{"lstm_32_short_seqs/per_sequence", many, false}}) {
    benchmark::RegisterBenchmark(c.name, [dir, c](benchmark::State& s) {
      RunLstm(s, dir, c.level, c.batched);
    })->Unit(benchmark::kMillisecond);
  }
}

}  // namespace tools
}  // namespace lite
