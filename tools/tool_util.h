// Helpers shared by the command-line tools (opt, run_model, accuracy,
// make_default_model): flag-list parsing, valid targets -> Places, creating
// a predictor from model flags, directory creation, one-line errors, shape
// text and the deterministic LCG input data.
//
// Owned by tools/. Everything returned is a fresh value owned by the caller.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "lite/api/paddle_api.h"
#include "lite/utils/status.h"

namespace lite {
namespace tools {

// "a,b,,c" -> {"a","b","c"} (empty items and surrounding spaces dropped).
std::vector<std::string> SplitList(const std::string& s, char sep = ',');

// "host,x86,npu,arm" -> Places (float, NCHW) in that order; host is appended
// as the fallback when absent. InvalidArgument naming the bad item otherwise,
// or a target this build lacks (lite/api/build_targets.h: x86 on aarch64).
StatusOr<std::vector<Place>> ParseValidTargets(const std::string& list);

// The CPU targets a tool defaults to: "x86,host" where the build has the x86
// target, "host" on the aarch64 build (tools/ocr's --valid_targets).
const char* DefaultCpuTargets();

// "[1, 3, 224, 224]" (the same text as lite::DimsToString).
std::string ShapeText(const std::vector<int64_t>& shape);

// LCG: state = (1103515245 * state + 12345) mod 2^32 starting at `seed`;
// value k = lo + (hi - lo) * state_(k+1) / 2^32 (float64, stored as float).
// The tools' deterministic input data (the recipe of ../shared/models).
std::vector<float> LcgUniform(size_t n, uint32_t seed, double lo, double hi);

// "host,npu" style text of the targets of `places`.
std::string TargetsText(const std::vector<Place>& places);

// mkdir -p. NotFound / InvalidArgument naming the path.
Status MakeDirs(const std::string& dir);

// The message of `s` on one line (newlines become "; ").
std::string OneLine(const Status& s);

// Prints "<tool>: error: <message>" on stderr and returns 1 (the exit code).
int Fail(const std::string& tool, const Status& s);

// Where a tool gets its model: the light predictor on an .nb file, or the
// full predictor on a Paddle model (dir, or model + params files).
struct ModelFlags {
  std::string optimized_model;  // .nb: light predictor
  std::string model_dir;
  std::string model_file;
  std::string param_file;
  std::vector<Place> valid_places{Place(TargetType::kHost)};
  int threads = 1;
  bool adaptive_threads = true;  // ConfigBase::set_adaptive_threads
  NpuOptions npu;  // see npu_flags.h
  bool profiling = false;
  int memory_limit_mb = 0;  // ConfigBase::set_memory_limit_mb
  // ConfigBase::set_shape_buckets: the multiple (0: off) and the outputs to
  // crop as ParseBucketCrops reads them ("" : inferred).
  int shape_buckets = 0;
  std::string bucket_crops;
  std::vector<std::string> disabled_passes;  // full predictor only
  bool enable_fp16 = false;  // CxxConfig::enable_fp16 (full predictor only)
  bool light() const { return !optimized_model.empty(); }
};

// Median, min and mean of per-run latencies (ms); `ms` must not be empty.
struct Latency {
  double median = 0, min = 0, mean = 0;
};
Latency Summarize(std::vector<double> ms);

// Creates the predictor `flags` describe. InvalidArgument when both an .nb
// file and a Paddle model are given, or neither.
StatusOr<std::shared_ptr<paddle::lite_api::PaddlePredictor>> CreatePredictor(
    const ModelFlags& flags);

// An output's values as floats (int32 / int64 outputs, such as box counts
// and labels, widened).
std::vector<float> OutputAsFloats(const paddle::lite_api::Tensor& t);

}  // namespace tools
}  // namespace lite
