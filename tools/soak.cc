// soak: memory and latency of one predictor fed a new input size on almost
// every call, the way an OCR or detection service sees pages and photos.
//
//   soak --model_dir=DIR | --optimized_model=X.nb [--valid_targets=x86,host]
//        [--calls=1000] [--sizes=150] [--min_side=256] [--max_side=1280]
//        [--step=32] [--seed=1] [--threads=1] [--report_every=50]
//        [--memory_limit_mb=0] [--single_size=HxW] [--clones=1]
//        [--shape_buckets=0 [--bucket_crop=out[=num/den],...]]
//        [--runs_per_size=1 [--profile_first_sight]] [--npu_driver=xnnpack ...]
//
// The first input (rank 4, NCHW) gets H and W drawn once, seeded, from the
// multiples of --step in [--min_side, --max_side] (--sizes distinct pairs);
// call i runs pair i mod --sizes, so the first pass sees each size once and
// later passes repeat them. Every --report_every calls it prints VmRSS and
// VmHWM (/proc/self/status) and the predictor's memory statistics; at the
// end the RSS after load, after the first pass, at call 300 and at the last
// call, the peak, and the mean latency per megapixel of a first sight and of
// a repeat. --single_size=HxW runs that one size --calls times instead (the
// "largest size alone" yardstick). --runs_per_size=N runs each size N times
// back to back (call i runs pair (i / N) mod --sizes) and prints the median
// over sizes of first sight / the next run at the same size: what a new
// shape costs over a repeat, each size timed against itself, which a load
// that changes over the run skews much less than the per-pixel means; the
// same for the process's CPU time (which other processes on a loaded machine
// barely move) and the page faults of each run. --profile_first_sight adds,
// per op type and kernel place, the ms of the first sights and of the runs
// after them summed over the sizes, per op type, kernel place and
// implementation, largest difference first, and the time
// a run spends outside the ops (input handling, the arena plan, the
// recording): where a first sight's extra time goes. The last line is JSON. A failed run is
// printed and counted (a budget too small for a size), not fatal; the sizes
// that failed are listed at the end (run one alone with --single_size to
// see whether it would have fit). With --memory_limit_mb the first call's
// peak is also printed apart (the budget checks it from the dry planning
// pass, docs/memory.md).
// --shape_buckets=M pads every size up to multiples of M (docs/memory.md);
// the statistics then show the buckets' hit rate, and a first sight is the
// first run of a bucketed shape (latency still per pixel of the caller's).
//
// --clones=K (K > 1) makes K - 1 clones of the predictor, prints the RSS
// each adds once it has run the first size (what an extra clone costs: its
// own activations, the weights are shared), then runs them on K - 1 threads
// over the same sizes (each from its own offset) while the first predictor
// runs the reported stream; their calls and failures are counted at the end.
#include <gflags/gflags.h>
#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "tools/npu_flags.h"
#include "tools/tool_util.h"

DEFINE_string(optimized_model, "", "optimized .nb model (light predictor)");
DEFINE_string(model_dir, "", "Paddle model directory (full predictor)");
DEFINE_string(model_file, "", "program file of a combined Paddle model");
DEFINE_string(param_file, "", "params file of a combined Paddle model");
DEFINE_string(valid_targets, "host", "full predictor: host, x86, npu, arm (comma list)");
DEFINE_int32(threads, 1, "threads");
DEFINE_int32(calls, 1000, "runs in all");
DEFINE_int32(sizes, 150, "distinct H x W pairs, cycled");
DEFINE_int32(min_side, 256, "smallest H or W");
DEFINE_int32(max_side, 1280, "largest H or W");
DEFINE_int32(step, 32, "H and W are multiples of this");
DEFINE_int32(seed, 1, "seed of the size stream");
DEFINE_int32(report_every, 50, "print RSS every this many calls");
DEFINE_int32(memory_limit_mb, 0, "the predictor's memory budget (0: default)");
DEFINE_int32(shape_buckets, 0,
             "round the 4-D input's H and W up to a multiple of this, crop the outputs "
             "(0: off; docs/memory.md)");
DEFINE_string(bucket_crop, "",
              "with --shape_buckets: outputs to crop, name[=num/den],... (\"\": inferred)");
DEFINE_string(single_size, "", "HxW: run only this size --calls times");
DEFINE_int32(runs_per_size, 1, "runs of each size back to back (2+: first sight / repeat ratio)");
DEFINE_bool(profile_first_sight, false,
            "with --runs_per_size=2+: per op type, place and impl, ms of the first sights "
            "against the runs after them, summed over the sizes (where a first sight's extra "
            "time goes)");
DEFINE_int32(clones, 1, "predictors running at once (the first and its clones), a thread each");

namespace {

using lite::Status;

struct Rss {
  double rss_mb = -1, hwm_mb = -1;
};

Rss ReadRss() {
  std::ifstream in("/proc/self/status");
  std::string line;
  Rss r;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) r.rss_mb = std::atof(line.c_str() + 6) / 1024.0;
    if (line.rfind("VmHWM:", 0) == 0) r.hwm_mb = std::atof(line.c_str() + 6) / 1024.0;
  }
  return r;
}

// The process's CPU time in ms and its minor page faults so far.
std::pair<double, long> CpuAndFaults() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return {ts.tv_sec * 1e3 + ts.tv_nsec / 1e6, ru.ru_minflt};
}

// Per "op type  place  impl" key, ms per run, from a GetProfileSummary() covering
// one run; the key "(outside the ops)" gets `run_ms` less the ops' total.
std::map<std::string, double> ProfileMs(const std::string& summary, double run_ms) {
  std::map<std::string, double> ms;
  std::istringstream lines(summary);
  std::string line;
  std::getline(lines, line);  // the header
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::string op, place, ops, share, gflops, impl;
    double v = 0;
    if (line.rfind("total", 0) == 0) {
      fields >> op >> v;
      ms["(outside the ops)"] = run_ms - v;
    } else if (fields >> op >> place >> ops >> v >> share >> gflops >> impl) {
      ms[op + "  " + place + "  " + impl] += v;
    }
  }
  return ms;
}

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return (v[(v.size() - 1) / 2] + v[v.size() / 2]) / 2;
}

// --sizes distinct (H, W) pairs, seeded, in the order they are first run.
std::vector<std::pair<int, int>> SizeStream() {
  std::vector<std::pair<int, int>> sizes;
  if (!FLAGS_single_size.empty()) {
    int h = 0, w = 0;
    if (std::sscanf(FLAGS_single_size.c_str(), "%dx%d", &h, &w) == 2) sizes.push_back({h, w});
    return sizes;
  }
  const int lo = FLAGS_min_side / FLAGS_step, hi = FLAGS_max_side / FLAGS_step;
  const long possible = static_cast<long>(hi - lo + 1) * (hi - lo + 1);
  std::mt19937 rng(static_cast<uint32_t>(FLAGS_seed));
  std::uniform_int_distribution<int> pick(lo, hi);
  std::set<std::pair<int, int>> seen;
  while (static_cast<long>(sizes.size()) < std::min<long>(FLAGS_sizes, possible)) {
    std::pair<int, int> s{pick(rng) * FLAGS_step, pick(rng) * FLAGS_step};
    if (seen.insert(s).second) sizes.push_back(s);
  }
  return sizes;
}

// One run of `p` at `hw` (input 0, `channels` channels, data from `data`).
Status RunSize(paddle::lite_api::PaddlePredictor* p, std::pair<int, int> hw, int channels,
               const std::vector<float>& data) {
  const int64_t n = static_cast<int64_t>(channels) * hw.first * hw.second;
  if (static_cast<size_t>(n) > data.size()) return lite::InvalidArgument("size above --max_side");
  auto input = p->GetInput(0);
  input->Resize({1, channels, hw.first, hw.second});
  RETURN_IF_ERROR(input->CopyFromCpu(data.data(), n));
  return p->Run();
}

Status Soak() {
  lite::tools::ModelFlags flags;
  flags.optimized_model = FLAGS_optimized_model;
  flags.model_dir = FLAGS_model_dir;
  flags.model_file = FLAGS_model_file;
  flags.param_file = FLAGS_param_file;
  flags.threads = FLAGS_threads;
  flags.memory_limit_mb = FLAGS_memory_limit_mb;
  flags.shape_buckets = FLAGS_shape_buckets;
  flags.bucket_crops = FLAGS_bucket_crop;
  flags.profiling = FLAGS_profile_first_sight;
  ASSIGN_OR_RETURN(flags.valid_places, lite::tools::ParseValidTargets(FLAGS_valid_targets));
  ASSIGN_OR_RETURN(flags.npu, lite::tools::NpuOptionsFromFlags(flags.valid_places, flags.light()));
  const auto sizes = SizeStream();
  if (sizes.empty() || FLAGS_calls < 1 || FLAGS_step < 1 || FLAGS_runs_per_size < 1) {
    return lite::InvalidArgument(
        "no sizes to run (check --single_size=HxW, --sizes, --calls, --runs_per_size)");
  }
  if (FLAGS_profile_first_sight && (FLAGS_runs_per_size < 2 || FLAGS_clones > 1)) {
    return lite::InvalidArgument(
        "--profile_first_sight compares a first sight with the run after it: it needs "
        "--runs_per_size=2 or more and no --clones");
  }
  ASSIGN_OR_RETURN(auto predictor, lite::tools::CreatePredictor(flags));
  const Rss loaded = ReadRss();
  std::printf("soak: %s on %s, %d thread(s), %d calls over %zu sizes\n",
              flags.light() ? flags.optimized_model.c_str() : flags.model_dir.c_str(),
              FLAGS_valid_targets.c_str(), FLAGS_threads, FLAGS_calls, sizes.size());
  std::printf("after load: rss %.1f MB\n", loaded.rss_mb);
  auto input = predictor->GetInput(0);
  if (!input) return lite::InvalidArgument("the model has no inputs");
  int channels = 3;
  auto infos = predictor->GetInputInfos();
  if (!infos.empty() && infos[0].shape.size() == 4 && infos[0].shape[1] > 0) {
    channels = static_cast<int>(infos[0].shape[1]);
  }
  const auto data = lite::tools::LcgUniform(
      static_cast<size_t>(channels) * FLAGS_max_side * FLAGS_max_side * 4, 1, -1.0, 1.0);
  // The tool's own input data (--max_side squared, 4 bytes a value, 4x):
  // every RSS printed below includes it.
  const double with_data_mb = ReadRss().rss_mb;
  std::printf("with the tool's input data: rss %.1f MB (+%.1f MB, in every RSS below)\n",
              with_data_mb, with_data_mb - loaded.rss_mb);
  std::vector<std::shared_ptr<paddle::lite_api::PaddlePredictor>> clones;
  for (int i = 1; i < FLAGS_clones; ++i) {
    ASSIGN_OR_RETURN(auto clone, predictor->Clone());
    clones.push_back(clone);
  }
  // The shapes run so far: with --shape_buckets the bucketed ones, so that a
  // "first sight" is a run of a shape the predictor has not run before.
  std::set<std::pair<int, int>> seen;
  auto shape_of = [](std::pair<int, int> hw) {
    const int m = FLAGS_shape_buckets;
    if (m <= 0) return hw;
    return std::make_pair((hw.first + m - 1) / m * m, (hw.second + m - 1) / m * m);
  };
  if (!clones.empty()) {
    const double cloned_mb = ReadRss().rss_mb;
    std::printf("after %zu clone(s): rss %.1f MB (+%.1f MB)\n", clones.size(), cloned_mb,
                cloned_mb - with_data_mb);
    RETURN_IF_ERROR(RunSize(predictor.get(), sizes[0], channels, data));
    seen.insert(shape_of(sizes[0]));
    double before = ReadRss().rss_mb;
    std::printf("predictor after one %dx%d run: rss %.1f MB\n", sizes[0].first,
                sizes[0].second, before);
    for (size_t i = 0; i < clones.size(); ++i) {
      RETURN_IF_ERROR(RunSize(clones[i].get(), sizes[0], channels, data));
      const double after = ReadRss().rss_mb;
      std::printf("clone %zu after the same run: rss %.1f MB (+%.1f MB)\n", i + 1, after,
                  after - before);
      before = after;
    }
  }
  std::atomic<bool> stop{false};
  std::atomic<int> clone_calls{0}, clone_failures{0};
  std::vector<std::thread> threads;
  // Stops and joins the clones' threads however Soak returns.
  struct JoinAll {
    std::atomic<bool>* stop;
    std::vector<std::thread>* threads;
    ~JoinAll() {
      *stop = true;
      for (auto& t : *threads) {
        if (t.joinable()) t.join();
      }
    }
  } join_all{&stop, &threads};
  for (size_t i = 0; i < clones.size(); ++i) {
    threads.emplace_back([&, i] {
      for (size_t k = 7 * (i + 1); !stop; ++k) {
        Status s = RunSize(clones[i].get(), sizes[k % sizes.size()], channels, data);
        ++clone_calls;
        if (!s.ok()) ++clone_failures;
      }
    });
  }
  double first_ms_per_mp = 0, repeat_ms_per_mp = 0;
  int firsts = 0, repeats = 0, failures = 0;
  // --runs_per_size >= 2: the first sight's time, then first / next run per size.
  double first_ms = -1, first_cpu = 0, first_faults = 0;
  std::vector<double> first_over_repeat, cpu_first_over_repeat, faults_first, faults_repeat;
  // --profile_first_sight: the first sight's profile, then the sums over sizes.
  std::map<std::string, double> first_profile, profile_first, profile_next;
  Rss after_first_pass, at_300, last;
  // With a budget: the first call's peak, kept apart (the budget checks it
  // from a plan, the later calls also from measured runs).
  double first_call_peak_mb = -1;
  std::set<std::string> failed_sizes;
  for (int call = 1; call <= FLAGS_calls; ++call) {
    const auto hw = sizes[((call - 1) / FLAGS_runs_per_size) % sizes.size()];
    const int64_t n = static_cast<int64_t>(channels) * hw.first * hw.second;
    if (static_cast<size_t>(n) > data.size()) return lite::InvalidArgument("size above --max_side");
    input->Resize({1, channels, hw.first, hw.second});
    RETURN_IF_ERROR(input->CopyFromCpu(data.data(), n));
    const auto cpu0 = CpuAndFaults();
    auto start = std::chrono::steady_clock::now();
    Status s = predictor->Run();
    const double ms = std::chrono::duration<double, std::milli>(
                          std::chrono::steady_clock::now() - start).count();
    const auto cpu1 = CpuAndFaults();
    const double cpu_ms = cpu1.first - cpu0.first;
    const double faults = static_cast<double>(cpu1.second - cpu0.second);
    const double mp = hw.first * static_cast<double>(hw.second) / 1e6;
    if (!s.ok()) {
      ++failures;
      failed_sizes.insert(std::to_string(hw.first) + "x" + std::to_string(hw.second));
      std::printf("call %d %dx%d failed: %s\n", call, hw.first, hw.second,
                  lite::tools::OneLine(s).c_str());
    } else if (seen.insert(shape_of(hw)).second) {
      first_ms_per_mp += ms / mp;
      ++firsts;
      first_ms = ms;
      first_cpu = cpu_ms;
      first_faults = faults;
      if (FLAGS_profile_first_sight) first_profile = ProfileMs(predictor->GetProfileSummary(), ms);
    } else {
      repeat_ms_per_mp += ms / mp;
      ++repeats;
      if (first_ms > 0 && FLAGS_runs_per_size > 1) {
        first_over_repeat.push_back(first_ms / ms);
        cpu_first_over_repeat.push_back(first_cpu / cpu_ms);
        faults_first.push_back(first_faults);
        faults_repeat.push_back(faults);
        if (FLAGS_profile_first_sight) {
          for (const auto& [key, v] : first_profile) profile_first[key] += v;
          for (const auto& [key, v] : ProfileMs(predictor->GetProfileSummary(), ms)) {
            profile_next[key] += v;
          }
        }
      }
      first_ms = -1;
    }
    if (FLAGS_profile_first_sight) predictor->ResetProfile();
    last = ReadRss();
    if (call == 1 && FLAGS_memory_limit_mb > 0) {
      first_call_peak_mb = last.hwm_mb;
      std::printf("call 1: peak %.1f MB\n", first_call_peak_mb);
    }
    if (call == static_cast<int>(sizes.size())) after_first_pass = last;
    if (call == 300) at_300 = last;
    if (call % FLAGS_report_every == 0 || call == FLAGS_calls) {
      std::printf("call %5d  %4dx%-4d %8.1f ms  rss %7.1f MB  peak %7.1f MB  %s\n", call,
                  hw.first, hw.second, ms, last.rss_mb, last.hwm_mb,
                  predictor->GetMemoryStats().ToString().c_str());
      std::fflush(stdout);
    }
  }
  stop = true;
  for (auto& t : threads) t.join();
  if (!clones.empty()) {
    std::printf("clones: %d calls on %zu threads, %d failed\n", clone_calls.load(),
                clones.size(), clone_failures.load());
  }
  if (firsts) first_ms_per_mp /= firsts;
  if (repeats) repeat_ms_per_mp /= repeats;
  std::printf("rss: after load %.1f MB, after the first pass (call %zu) %.1f MB, call 300 %.1f MB,"
              " call %d %.1f MB, peak %.1f MB\n",
              loaded.rss_mb, sizes.size(), after_first_pass.rss_mb, at_300.rss_mb, FLAGS_calls,
              last.rss_mb, last.hwm_mb);
  std::printf("latency per megapixel: first sight %.2f ms (%d runs), repeat %.2f ms (%d runs)\n",
              first_ms_per_mp, firsts, repeat_ms_per_mp, repeats);
  const double median_ratio = Median(first_over_repeat);
  const double median_cpu_ratio = Median(cpu_first_over_repeat);
  if (!first_over_repeat.empty()) {
    std::printf("first sight / the next run at the same size, median over %zu sizes: wall %.3f,"
                " cpu %.3f; page faults per run %.0f vs %.0f\n",
                first_over_repeat.size(), median_ratio, median_cpu_ratio, Median(faults_first),
                Median(faults_repeat));
  }
  if (!profile_first.empty()) {
    // Largest extra first: where a first sight's time above a repeat goes.
    std::vector<std::pair<double, std::string>> extra;
    double first_total = 0, next_total = 0;
    for (const auto& [key, v] : profile_first) {
      extra.push_back({v - profile_next[key], key});
      first_total += v;
    }
    for (const auto& [key, v] : profile_next) next_total += v;
    std::sort(extra.rbegin(), extra.rend());
    std::printf("first sights against the runs after them, summed over %zu sizes (ms):\n",
                first_over_repeat.size());
    std::printf("  %-56s %10s %10s %10s %7s\n", "op type  place  impl", "first", "next", "extra",
                "share");
    for (const auto& [d, key] : extra) {
      std::printf("  %-56s %10.1f %10.1f %10.1f %6.1f%%\n", key.c_str(), profile_first[key],
                  profile_next[key], d,
                  first_total > next_total ? 100.0 * d / (first_total - next_total) : 0.0);
    }
    std::printf("  %-56s %10.1f %10.1f %10.1f\n", "total", first_total, next_total,
                first_total - next_total);
  }
  if (!failed_sizes.empty()) {
    std::string list;
    for (const std::string& hw : failed_sizes) list += (list.empty() ? "" : " ") + hw;
    std::printf("failed sizes (%zu): %s\n", failed_sizes.size(), list.c_str());
  }
  const paddle::lite_api::MemoryStats stats = predictor->GetMemoryStats();
  std::printf("memory: %s\n", stats.ToString().c_str());
  std::printf("{\"calls\":%d,\"sizes\":%zu,\"failures\":%d,\"rss_load_mb\":%.1f,"
              "\"rss_first_pass_mb\":%.1f,\"rss_300_mb\":%.1f,\"rss_end_mb\":%.1f,"
              "\"peak_mb\":%.1f,\"first_ms_per_mp\":%.3f,\"repeat_ms_per_mp\":%.3f,"
              "\"first_over_repeat_median\":%.4f,\"cpu_first_over_repeat_median\":%.4f,"
              "\"bucket_multiple\":%d,\"first_call_peak_mb\":%.1f,"
              "\"bucket_hit_rate\":%.4f,\"bucket_shapes\":%d}\n",
              FLAGS_calls, sizes.size(), failures, loaded.rss_mb, after_first_pass.rss_mb,
              at_300.rss_mb, last.rss_mb, last.hwm_mb, first_ms_per_mp, repeat_ms_per_mp,
              median_ratio, median_cpu_ratio, stats.bucket_multiple, first_call_peak_mb,
              stats.bucket_runs ? static_cast<double>(stats.bucket_hits) / stats.bucket_runs : 0.0,
              stats.bucket_shapes);
  return Status::OK();
}

}  // namespace

int main(int argc, char** argv) {
  gflags::SetUsageMessage("memory and latency over a stream of input sizes");
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  Status s = Soak();
  if (!s.ok()) return lite::tools::Fail("soak", s);
  return 0;
}
