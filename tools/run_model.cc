// run_model: loads a model, feeds it, runs it, prints every output and the
// latency - the short example of using the predictor API.
//
//   run_model --optimized_model=out/default_model.nb            (light predictor)
//   run_model --model_dir=DIR [--valid_targets=npu]             (full predictor)
//   run_model ... --reference=../shared/models/X/reference      (its inputs)
//   run_model ... --input_shape=1,3,224,224 --warmup=2 --repeats=20
//   run_model ... --memory_limit_mb=512   (the memory budget, docs/memory.md)
//   run_model ... --shape_buckets=64 [--bucket_crop=out[=1/4],...]  (the same)
//
// Without --reference every input gets deterministic LCG data (seed 1, in
// [-1, 1]) of --input_shape (one shape per input, separated by ':'), or of
// the model's feed var dims with -1 read as 1. Exit 1 with one line
// "run_model: error: <reason>" on failure.
#include <gflags/gflags.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>

#include "lite/api/paddle_api.h"
#include "lite/operators/lod_util.h"
#include "tools/feed_util.h"
#include "tools/reference.h"
#include "tools/npu_flags.h"
#include "tools/tool_util.h"

DEFINE_string(optimized_model, "", "optimized .nb model (runs the light predictor)");
DEFINE_string(model_dir, "", "Paddle model directory (runs the full predictor)");
DEFINE_string(model_file, "", "program file of a combined Paddle model");
DEFINE_string(param_file, "", "params file of a combined Paddle model");
DEFINE_string(reference, "", "reference folder (meta.json): feed its inputs, check outputs");
DEFINE_string(input_shape, "", "shapes of generated inputs: 1,3,224,224[:1,10]");
DEFINE_string(valid_targets, "host", "full predictor: host, x86, npu, arm (comma list)");
DEFINE_int32(threads, 1, "threads");
DEFINE_int32(memory_limit_mb, 0,
             "memory budget on the process's RSS in MB (0: none; docs/memory.md)");
DEFINE_int32(shape_buckets, 0,
             "round the 4-D input's H and W up to a multiple of this, crop the outputs "
             "(0: off; docs/memory.md)");
DEFINE_string(bucket_crop, "",
              "with --shape_buckets: outputs to crop, name[=num/den],... (\"\": inferred)");
DEFINE_int32(warmup, 1, "untimed runs before timing");
DEFINE_int32(repeats, 10, "timed runs");
DEFINE_int32(print_values, 10, "values printed per output");
DEFINE_bool(profile, false, "print the per-op profile of the timed runs");
DEFINE_bool(json, false,
            "end with a JSON line {\"median_ms\":...} (for ../shared/bench/ab_interleave.sh)");

namespace {

using lite::Status;
using lite::StatusOr;
using paddle::lite_api::PaddlePredictor;

void PrintOutput(const std::string& name, const paddle::lite_api::Tensor& t) {
  const auto shape = t.shape();
  std::cout << "output " << name << " " << lite::tools::ShapeText(shape) << " "
            << lite::DataTypeName(t.dtype());
  if (!t.lod().empty()) std::cout << " lod " << lite::operators::LodToString(t.lod());
  std::cout << "\n";
  const float* f = t.data<float>();
  if (!f) return;
  const int64_t n = t.numel();
  std::cout << "  first values:";
  for (int64_t i = 0; i < n && i < FLAGS_print_values; ++i) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), " %.6g", f[i]);
    std::cout << buf;
  }
  std::cout << (n > FLAGS_print_values ? " ...\n" : "\n");
  if (shape.size() == 2 && shape[1] > 0) {
    for (int64_t r = 0; r < shape[0] && r < 8; ++r) {
      const float* row = f + r * shape[1];
      const int64_t arg = std::max_element(row, row + shape[1]) - row;
      std::cout << "  argmax row " << r << ": " << arg << " (" << row[arg] << ")\n";
    }
  }
}

Status RunMain() {
  lite::tools::ModelFlags flags;
  flags.optimized_model = FLAGS_optimized_model;
  flags.model_dir = FLAGS_model_dir;
  flags.model_file = FLAGS_model_file;
  flags.param_file = FLAGS_param_file;
  flags.threads = FLAGS_threads;
  flags.memory_limit_mb = FLAGS_memory_limit_mb;
  flags.shape_buckets = FLAGS_shape_buckets;
  flags.bucket_crops = FLAGS_bucket_crop;
  flags.profiling = FLAGS_profile;
  ASSIGN_OR_RETURN(flags.valid_places, lite::tools::ParseValidTargets(FLAGS_valid_targets));
  ASSIGN_OR_RETURN(flags.npu, lite::tools::NpuOptionsFromFlags(
                                  flags.valid_places, !FLAGS_optimized_model.empty()));
  std::unique_ptr<lite::tools::Reference> ref;
  if (!FLAGS_reference.empty()) {
    ASSIGN_OR_RETURN(lite::tools::Reference r, lite::tools::LoadReference(FLAGS_reference));
    ref = std::make_unique<lite::tools::Reference>(std::move(r));
    const bool any_model = flags.light() || !flags.model_dir.empty() || !flags.model_file.empty();
    if (!any_model) {  // the reference's own model
      const bool files = !ref->model_file.empty();
      flags.model_dir = files ? "" : ref->model_dir;
      flags.model_file = files ? ref->model_file : "";
      flags.param_file = files ? ref->params_file : "";
    }
  }
  if (FLAGS_repeats < 1 || FLAGS_warmup < 0) {
    return lite::InvalidArgument("--repeats must be >= 1 and --warmup >= 0");
  }
  auto t0 = std::chrono::steady_clock::now();
  ASSIGN_OR_RETURN(auto predictor, lite::tools::CreatePredictor(flags));
  const double load_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  std::printf("predictor: %s, %d thread(s), loaded in %.1f ms\n",
              flags.light() ? ("light (" + flags.optimized_model + ")").c_str()
                            : ("full, targets " + lite::tools::TargetsText(flags.valid_places)).c_str(),
              flags.threads, load_ms);
  if (ref) {
    RETURN_IF_ERROR(lite::tools::FeedInputs(*ref, predictor.get()));
    for (const auto& in : ref->inputs) {
      std::cout << "input  " << in.name << " " << lite::tools::ShapeText(in.shape) << " (from "
                << FLAGS_reference << ")\n";
    }
  } else {
    RETURN_IF_ERROR(lite::tools::FeedGenerated(FLAGS_input_shape, predictor.get(), &std::cout));
  }
  for (int i = 0; i < FLAGS_warmup; ++i) RETURN_IF_ERROR(predictor->Run());
  std::vector<double> ms;
  for (int i = 0; i < FLAGS_repeats; ++i) {
    auto s = std::chrono::steady_clock::now();
    RETURN_IF_ERROR(predictor->Run());
    ms.push_back(std::chrono::duration<double, std::milli>(
                     std::chrono::steady_clock::now() - s).count());
  }
  const auto names = predictor->GetOutputNames();
  for (size_t i = 0; i < names.size(); ++i) {
    PrintOutput(names[i], *predictor->GetOutput(static_cast<int>(i)));
  }
  const lite::tools::Latency lat = lite::tools::Summarize(ms);
  std::printf("latency over %d run(s) after %d warmup: median %.3f ms, min %.3f ms, mean %.3f ms\n",
              FLAGS_repeats, FLAGS_warmup, lat.median, lat.min, lat.mean);
  const auto placement = predictor->GetPlacementReport();
  if (!placement.subgraphs.empty()) std::cout << "placement: " << placement.ToString();
  if (FLAGS_profile) std::cout << "profile (warmup and timed runs):\n" << predictor->GetProfileSummary();
  if (ref) {
    ASSIGN_OR_RETURN(auto checks, lite::tools::CompareOutputs(*ref, *predictor));
    for (const auto& c : checks) std::cout << "reference " << lite::tools::FormatCheck(c) << "\n";
  }
  if (FLAGS_json) {
    std::printf("{\"median_ms\":%.4f,\"min_ms\":%.4f,\"mean_ms\":%.4f,\"runs\":%d,\"threads\":%d}\n",
                lat.median, lat.min, lat.mean, FLAGS_repeats, FLAGS_threads);
  }
  return Status::OK();
}

}  // namespace

int main(int argc, char** argv) {
  gflags::SetUsageMessage(
      "run_model --optimized_model=FILE.nb | --model_dir=DIR | --model_file=F --param_file=F\n"
      "    [--reference=DIR | --input_shape=1,3,224,224] [--warmup=1] [--repeats=10]");
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  if (argc > 1) {
    return lite::tools::Fail("run_model", lite::InvalidArgument(
        std::string("unexpected argument '") + argv[1] + "'"));
  }
  Status s = RunMain();
  if (!s.ok()) return lite::tools::Fail("run_model", s);
  return 0;
}
