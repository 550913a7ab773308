// tools/model_benchmarks: Google Benchmark timings of the full predictor's Run() on
// the shared vision models (inputs from their reference folders), with 1 and
// 2 threads, plus the sequence models, the lstm kernel cases of
// tools/lstm_benchmarks.h and the fused rnn cases of tools/rnn_benchmarks.h. Speed targets live here, never in unit tests.
//
//   bazel run -c opt //tools:model_benchmarks -- --models_dir=/path/to/shared/models
//   bazel run -c opt //tools:model_benchmarks -- --benchmark_filter=ppocr_det
//
// Without --models_dir it looks for ../shared/models next to the workspace.
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "lite/api/paddle_api.h"
#include "lite/utils/file_util.h"
#include "lite/model_parser/pir/pir_json.h"
#include "lite/model_parser/pir/pir_loader.h"
#include "tools/lstm_benchmarks.h"
#include "tools/reference.h"
#include "tools/rnn_benchmarks.h"

namespace {

using paddle::lite_api::CreatePaddlePredictor;
using paddle::lite_api::CxxConfig;

void RunModel(benchmark::State& state, const std::string& ref_dir) {
  auto ref = lite::tools::LoadReference(ref_dir);
  if (!ref.ok()) {
    state.SkipWithError(ref.status().ToString().c_str());
    return;
  }
  CxxConfig config;
  lite::tools::ConfigureModel(*ref, &config);
  config.set_threads(static_cast<int>(state.range(0)));
  auto predictor = CreatePaddlePredictor<CxxConfig>(config);
  if (!predictor.ok()) {
    state.SkipWithError(predictor.status().ToString().c_str());
    return;
  }
  auto fed = lite::tools::FeedInputs(*ref, predictor->get());
  if (!fed.ok()) {
    state.SkipWithError(fed.ToString().c_str());
    return;
  }
  for (int i = 0; i < 2; ++i) (void)(*predictor)->Run();  // warm up
  for (auto _ : state) {
    auto s = (*predictor)->Run();
    if (!s.ok()) {
      state.SkipWithError(s.ToString().c_str());
      break;
    }
  }
}

// Reading a Paddle 3 program: JSON parse alone (translate=false) or parse +
// translation into the engine's program (what every load of the model
// pays before the weights).
void ReadPir(benchmark::State& state, const std::string& json_file, bool translate) {
  std::string bytes;
  lite::Status s = lite::ReadFileToString(json_file, &bytes);
  if (!s.ok()) {
    state.SkipWithError(s.ToString().c_str());
    return;
  }
  for (auto _ : state) {
    bool ok = translate ? lite::pir::ReadPirModel(bytes, json_file).ok()
                        : lite::pir::ParsePirJson(bytes, json_file).ok();
    if (!ok) {
      state.SkipWithError("the PIR program does not load");
      break;
    }
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(bytes.size()));
}

std::string FindModelsDir(int* argc, char** argv) {
  std::string dir;
  std::vector<char*> rest;
  for (int i = 0; i < *argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--models_dir=", 0) == 0) {
      dir = a.substr(13);
    } else {
      rest.push_back(argv[i]);
    }
  }
  for (size_t i = 0; i < rest.size(); ++i) argv[i] = rest[i];
  *argc = static_cast<int>(rest.size());
  if (dir.empty()) {
    const char* ws = std::getenv("BUILD_WORKSPACE_DIRECTORY");
    dir = std::string(ws ? ws : ".") + "/../shared/models";
  }
  return dir;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string models = FindModelsDir(&argc, argv);
  const char* kModels[] = {"mnist_mlp_fluid2018", "squeezenet_v1.1_caffe2fluid",
                           "ppocr_cls_mobile_v2.0", "mobilenetv3_small_x0_35_3cls",
                           "ppocr_det_en_PP-OCRv3", "textcnn_seqconv_lod", "rna_bilstm_lod",
                           "pplcnet_x0_25_textline_ori_pir",
                           "ppocr_det_PP-OCRv5_mobile_pir_synthetic"};
  for (const char* m : kModels) {
    std::string ref = models + "/" + m + "/reference";
    benchmark::RegisterBenchmark(m, [ref](benchmark::State& s) { RunModel(s, ref); })
        ->Arg(1)
        ->Arg(2)
        ->ArgName("threads")
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
  for (const char* m : {"pplcnet_x0_25_textline_ori_pir",
                        "ppocr_det_PP-OCRv5_mobile_pir_synthetic"}) {
    const std::string json = models + "/" + m + "/inference.json";
    for (bool translate : {false, true}) {
      benchmark::RegisterBenchmark((std::string(translate ? "pir_read/" : "pir_parse/") + m).c_str(),
                                   [json, translate](benchmark::State& s) {
                                     ReadPir(s, json, translate);
                                   })
          ->Unit(benchmark::kMillisecond);
    }
  }
  lite::tools::RegisterLstmBenchmarks(models);
  lite::tools::RegisterRnnBenchmarks();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
