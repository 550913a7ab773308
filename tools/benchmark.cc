// benchmark: latency, init time, peak memory and a per-op profile of any
// model, in the spirit of Paddle-Lite's benchmark_bin. Speed targets live in
// its numbers, never in unit tests.
//
//   benchmark --model_dir=DIR | --model_file=F --param_file=F | --optimized_model=X.nb
//             [--input_shape=1,3,640,640[:...]] [--reference=REF_DIR]
//             [--threads=1] [--warmup=3] [--repeats=20] [--valid_targets=npu,host]
//             [--npu_driver=xnnpack ...] [--profile] [--profile_ops]
//             [--adaptive_threads=false] [--noisy_neighbour --rounds=5]
//             [--memory_limit_mb=512] [--shape_buckets=64 [--bucket_crop=out[=1/4],...]]
//
// Prints the predictor, init time, median/min/mean latency and peak RSS
// (VmHWM), the profile table with --profile (per op type and place) and
// --profile_ops (per op, in program order), and ends with one JSON line
// {"median_ms":..,"min_ms":..,"mean_ms":..,"init_ms":..,"peak_rss_mb":..,...}
// that ../shared/bench/ab_interleave.sh reads. Exit 1 with one line
// "benchmark: error: <reason>" on failure.
//
// --noisy_neighbour measures a shared machine: it starts a lowest-priority
// busy loop on the last usable CPU (tools/noisy_neighbour.h), then runs a
// 1-thread and a --threads predictor in turn for --rounds rounds of
// --repeats runs each (the order alternating), prints each round's medians,
// the median of them per thread count and the ratio, stops the loop, and
// ends with a JSON line {"noisy_neighbour":true,"median_1t_ms":..,...}.
#include <gflags/gflags.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

#include "lite/core/cpu_budget.h"
#include "tools/feed_util.h"
#include "tools/noisy_neighbour.h"
#include "tools/npu_flags.h"
#include "tools/reference.h"
#include "tools/tool_util.h"

DEFINE_string(optimized_model, "", "optimized .nb model (light predictor)");
DEFINE_string(model_dir, "", "Paddle model directory (full predictor)");
DEFINE_string(model_file, "", "program file of a combined Paddle model");
DEFINE_string(param_file, "", "params file of a combined Paddle model");
DEFINE_string(reference, "", "feed the inputs of this reference folder (meta.json)");
DEFINE_string(input_shape, "", "generated inputs of these shapes: 1,3,224,224[:1,10]");
DEFINE_string(valid_targets, "host", "full predictor: host, x86, npu, arm (comma list)");
DEFINE_int32(threads, 1, "threads");
DEFINE_int32(memory_limit_mb, 0,
             "memory budget on the process's RSS in MB (0: none; docs/memory.md)");
DEFINE_int32(shape_buckets, 0,
             "round the 4-D input's H and W up to a multiple of this, crop the outputs "
             "(0: off; docs/memory.md)");
DEFINE_string(bucket_crop, "",
              "with --shape_buckets: outputs to crop, name[=num/den],... (\"\": inferred)");
DEFINE_int32(warmup, 3, "untimed runs first");
DEFINE_int32(repeats, 20, "timed runs");
DEFINE_bool(profile, false, "print the profile of the timed runs per op type and place");
DEFINE_bool(profile_ops, false, "print the profile of the timed runs per op, in program order");
DEFINE_string(disable_passes, "", "full predictor: comma list of passes to skip");
DEFINE_bool(enable_fp16, false,
            "full predictor: conv2d / depthwise_conv2d on arm in fp16 (a .nb keeps opt's choice)");
DEFINE_bool(adaptive_threads, true,
            "with --threads > 1, run on one thread while other processes keep the CPUs busy");
DEFINE_bool(noisy_neighbour, false,
            "keep one CPU busy with a lowest-priority loop and compare 1 thread with --threads, "
            "interleaved over --rounds");
DEFINE_int32(rounds, 5, "--noisy_neighbour: rounds of --repeats runs per thread count");

namespace {

using lite::Status;
using lite::StatusOr;

// Peak resident set size of this process (VmHWM), MB; -1 when unreadable.
double PeakRssMb() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::atof(line.c_str() + 6) / 1024.0;
  }
  return -1;
}

double MsSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

Status Feed(const lite::tools::Reference* ref, paddle::lite_api::PaddlePredictor* predictor,
            std::ostream* log) {
  if (!ref) return lite::tools::FeedGenerated(FLAGS_input_shape, predictor, log);
  if (!FLAGS_input_shape.empty()) return lite::InvalidArgument("give --reference or --input_shape");
  return lite::tools::FeedInputs(*ref, predictor);
}

// Median latency of `runs` runs, ms.
StatusOr<double> TimeRuns(paddle::lite_api::PaddlePredictor* predictor, int runs) {
  std::vector<double> ms;
  for (int i = 0; i < runs; ++i) {
    const auto t = std::chrono::steady_clock::now();
    RETURN_IF_ERROR(predictor->Run());
    ms.push_back(MsSince(t));
  }
  return lite::tools::Summarize(ms).median;
}

Status NoisyNeighbourBenchmark(lite::tools::ModelFlags flags, const lite::tools::Reference* ref) {
  if (flags.threads < 2) {
    return lite::InvalidArgument("--noisy_neighbour compares 1 thread with --threads=N >= 2");
  }
  if (FLAGS_rounds < 1) return lite::InvalidArgument("--rounds must be >= 1");
  const std::vector<int> cpus = lite::AffinityCpus();
  if (cpus.size() < 2) return lite::FailedPrecondition("--noisy_neighbour needs 2 usable CPUs");
  const int many = flags.threads;
  ASSIGN_OR_RETURN(auto predictor_n, lite::tools::CreatePredictor(flags));
  flags.threads = 1;
  ASSIGN_OR_RETURN(auto predictor_1, lite::tools::CreatePredictor(flags));
  RETURN_IF_ERROR(Feed(ref, predictor_n.get(), &std::cout));
  std::ostream quiet(nullptr);  // the inputs were listed once
  RETURN_IF_ERROR(Feed(ref, predictor_1.get(), &quiet));
  for (int i = 0; i < FLAGS_warmup; ++i) {
    RETURN_IF_ERROR(predictor_1->Run());
    RETURN_IF_ERROR(predictor_n->Run());
  }
  ASSIGN_OR_RETURN(auto neighbour, lite::tools::NoisyNeighbour::Start(cpus.back(), 3600));
  std::printf("noisy neighbour: a busy loop on CPU %d (nice 19, its own session); %d round(s) "
              "of %d run(s) per thread count, adaptive threads %s\n",
              neighbour->cpu(), FLAGS_rounds, FLAGS_repeats, FLAGS_adaptive_threads ? "on" : "off");
  std::vector<double> ones, manys;
  for (int r = 0; r < FLAGS_rounds; ++r) {
    double one = 0, n = 0;
    for (int k = 0; k < 2; ++k) {
      const bool first_one = r % 2 == 0;
      const bool run_one = (k == 0) == first_one;
      ASSIGN_OR_RETURN(double median,
                       TimeRuns(run_one ? predictor_1.get() : predictor_n.get(), FLAGS_repeats));
      (run_one ? one : n) = median;
    }
    ones.push_back(one);
    manys.push_back(n);
    std::printf("round %d: 1 thread %.3f ms, %d threads %.3f ms\n", r + 1, one, many, n);
  }
  neighbour.reset();
  const double one = lite::tools::Summarize(ones).median;
  const double n = lite::tools::Summarize(manys).median;
  std::printf("median of round medians: 1 thread %.3f ms, %d threads %.3f ms, %d/1 = %.2f\n",
              one, many, n, many, n / one);
  std::printf("{\"noisy_neighbour\":true,\"median_1t_ms\":%.4f,\"median_nt_ms\":%.4f,"
              "\"ratio\":%.3f,\"threads\":%d,\"rounds\":%d,\"runs\":%d,\"adaptive\":%s}\n",
              one, n, n / one, many, FLAGS_rounds, FLAGS_repeats,
              FLAGS_adaptive_threads ? "true" : "false");
  return Status::OK();
}

Status Benchmark() {
  if (FLAGS_repeats < 1 || FLAGS_warmup < 0) {
    return lite::InvalidArgument("--repeats must be >= 1 and --warmup >= 0");
  }
  lite::tools::ModelFlags flags;
  flags.optimized_model = FLAGS_optimized_model;
  flags.model_dir = FLAGS_model_dir;
  flags.model_file = FLAGS_model_file;
  flags.param_file = FLAGS_param_file;
  flags.threads = FLAGS_threads;
  flags.memory_limit_mb = FLAGS_memory_limit_mb;
  flags.shape_buckets = FLAGS_shape_buckets;
  flags.bucket_crops = FLAGS_bucket_crop;
  flags.profiling = FLAGS_profile || FLAGS_profile_ops;
  flags.disabled_passes = lite::tools::SplitList(FLAGS_disable_passes);
  flags.enable_fp16 = FLAGS_enable_fp16;
  ASSIGN_OR_RETURN(flags.valid_places, lite::tools::ParseValidTargets(FLAGS_valid_targets));
  ASSIGN_OR_RETURN(flags.npu, lite::tools::NpuOptionsFromFlags(flags.valid_places, flags.light()));
  std::unique_ptr<lite::tools::Reference> ref;
  if (!FLAGS_reference.empty()) {
    ASSIGN_OR_RETURN(lite::tools::Reference r, lite::tools::LoadReference(FLAGS_reference));
    ref = std::make_unique<lite::tools::Reference>(std::move(r));
    if (!flags.light() && flags.model_dir.empty() && flags.model_file.empty()) {
      const bool files = !ref->model_file.empty();
      flags.model_dir = files ? "" : ref->model_dir;
      flags.model_file = files ? ref->model_file : "";
      flags.param_file = files ? ref->params_file : "";
    }
  }
  flags.adaptive_threads = FLAGS_adaptive_threads;
  if (FLAGS_noisy_neighbour) return NoisyNeighbourBenchmark(flags, ref.get());
  const auto t0 = std::chrono::steady_clock::now();
  ASSIGN_OR_RETURN(auto predictor, lite::tools::CreatePredictor(flags));
  const double init_ms = MsSince(t0);
  std::printf("predictor: %s, %d thread(s), init %.1f ms\n",
              flags.light() ? ("light (" + flags.optimized_model + ")").c_str()
                            : ("full, targets " + lite::tools::TargetsText(flags.valid_places)).c_str(),
              flags.threads, init_ms);
  RETURN_IF_ERROR(Feed(ref.get(), predictor.get(), &std::cout));
  // The first run pays one-time costs (oneDNN's JIT, page faults of new
  // buffers): reported on its own line.
  double first_ms = -1;
  for (int i = 0; i < FLAGS_warmup; ++i) {
    const auto t = std::chrono::steady_clock::now();
    RETURN_IF_ERROR(predictor->Run());
    if (i == 0) first_ms = MsSince(t);
  }
  if (first_ms >= 0) std::printf("first run: %.1f ms\n", first_ms);
  // The profile covers the timed runs only.
  predictor->ResetProfile();
  std::vector<double> ms;
  for (int i = 0; i < FLAGS_repeats; ++i) {
    const auto t = std::chrono::steady_clock::now();
    RETURN_IF_ERROR(predictor->Run());
    ms.push_back(MsSince(t));
  }
  const lite::tools::Latency lat = lite::tools::Summarize(ms);
  const double rss = PeakRssMb();
  std::printf("latency over %d run(s) after %d warmup: median %.3f ms, min %.3f ms, mean %.3f ms\n",
              FLAGS_repeats, FLAGS_warmup, lat.median, lat.min, lat.mean);
  std::printf("peak RSS: %.1f MB (VmHWM of this process)\n", rss);
  const auto placement = predictor->GetPlacementReport();
  if (!placement.subgraphs.empty()) std::cout << "placement: " << placement.Summary() << "\n";
  if (FLAGS_profile) {
    std::cout << "profile (ms per timed run):\n" << predictor->GetProfileSummary();
  }
  if (FLAGS_profile_ops) {
    std::cout << "profile by op (ms per timed run):\n" << predictor->GetProfileDetail();
  }
  std::printf("{\"median_ms\":%.4f,\"min_ms\":%.4f,\"mean_ms\":%.4f,\"init_ms\":%.2f,"
              "\"first_run_ms\":%.2f,\"peak_rss_mb\":%.1f,\"runs\":%d,\"threads\":%d}\n",
              lat.median, lat.min, lat.mean, init_ms, first_ms, rss, FLAGS_repeats,
              FLAGS_threads);
  return Status::OK();
}

}  // namespace

int main(int argc, char** argv) {
  gflags::SetUsageMessage(
      "benchmark --model_dir=DIR | --optimized_model=X.nb [--input_shape=1,3,224,224] "
      "[--threads=N] [--warmup=N] [--repeats=N] [--valid_targets=npu,host] [--profile] "
      "[--profile_ops]");
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  if (argc > 1) {
    return lite::tools::Fail("benchmark", lite::InvalidArgument(
        std::string("unexpected argument '") + argv[1] + "' (flags are --name=value)"));
  }
  Status s = Benchmark();
  if (!s.ok()) return lite::tools::Fail("benchmark", s);
  return 0;
}
