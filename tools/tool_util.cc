#include "tools/tool_util.h"

#include <algorithm>

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <sstream>

#include "lite/api/build_targets.h"

namespace lite {
namespace tools {

std::vector<std::string> SplitList(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  auto flush = [&] {
    size_t b = cur.find_first_not_of(" \t");
    size_t e = cur.find_last_not_of(" \t");
    if (b != std::string::npos) out.push_back(cur.substr(b, e - b + 1));
    cur.clear();
  };
  for (char c : s) {
    if (c == sep) flush();
    else cur += c;
  }
  flush();
  return out;
}

StatusOr<std::vector<Place>> ParseValidTargets(const std::string& list) {
  std::vector<Place> places;
  bool host = false;
  for (const std::string& item : SplitList(list)) {
    TargetType t = ParseTarget(item);
    if (t == TargetType::kUnk || t == TargetType::kAny) {
      return InvalidArgument("--valid_targets: unknown target '" + item +
                             "' (known: host, x86, npu, arm)");
    }
    Place p(t, PrecisionType::kFloat, DataLayoutType::kNCHW);
    bool dup = false;
    for (const Place& q : places) dup = dup || q == p;
    if (dup) continue;
    host = host || t == TargetType::kHost;
    places.push_back(p);
  }
  if (!host) places.push_back(Place(TargetType::kHost, PrecisionType::kFloat,
                                    DataLayoutType::kNCHW));
  // x86 on the aarch64 build: refused for every tool and opt --print_supported_ops.
  RETURN_IF_ERROR(CheckPlacesInBuild(places));
  return places;
}

const char* DefaultCpuTargets() {
  return TargetInBuild(TargetType::kX86) ? "x86,host" : "host";
}

std::string TargetsText(const std::vector<Place>& places) {
  std::string out;
  for (const Place& p : places) out += (out.empty() ? "" : ",") + std::string(TargetName(p.target));
  return out;
}

Status MakeDirs(const std::string& dir) {
  if (dir.empty()) return InvalidArgument("empty directory name");
  for (size_t pos = 1; pos <= dir.size(); ++pos) {
    if (pos != dir.size() && dir[pos] != '/') continue;
    const std::string prefix = dir.substr(0, pos);
    if (::mkdir(prefix.c_str(), 0755) != 0 && errno != EEXIST) {
      return NotFound("cannot create directory '" + prefix + "': " + std::strerror(errno));
    }
  }
  struct stat st;
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    return InvalidArgument("'" + dir + "' exists and is not a directory");
  }
  return Status::OK();
}

std::string OneLine(const Status& s) {
  std::string out;
  for (char c : s.message()) {
    if (c == '\n') {
      if (!out.empty()) out += "; ";
    } else {
      out += c;
    }
  }
  while (out.size() >= 2 && out.compare(out.size() - 2, 2, "; ") == 0) out.resize(out.size() - 2);
  return out;
}

int Fail(const std::string& tool, const Status& s) {
  std::cout.flush();
  std::cerr << tool << ": error: " << OneLine(s) << std::endl;
  return 1;
}

StatusOr<std::shared_ptr<paddle::lite_api::PaddlePredictor>> CreatePredictor(
    const ModelFlags& flags) {
  using namespace paddle::lite_api;  // NOLINT
  const bool paddle_model =
      !flags.model_dir.empty() || !flags.model_file.empty() || !flags.param_file.empty();
  if (flags.light() && paddle_model) {
    return InvalidArgument(
        "give either --optimized_model (.nb) or a Paddle model (--model_dir / "
        "--model_file + --param_file), not both");
  }
  ASSIGN_OR_RETURN(const std::vector<paddle::lite_api::BucketCrop> crops,
                   paddle::lite_api::ParseBucketCrops(flags.bucket_crops));
  if (flags.light()) {
    if (!flags.disabled_passes.empty()) {
      return InvalidArgument("disabled passes apply to the full predictor; an .nb model ran its passes in opt");
    }
    if (flags.enable_fp16) {
      return InvalidArgument("enable_fp16 applies to the full predictor; an .nb keeps opt --enable_fp16's choice");
    }
    MobileConfig config;
    config.set_model_from_file(flags.optimized_model);
    config.set_threads(flags.threads);
    config.set_adaptive_threads(flags.adaptive_threads);
    config.set_npu_driver(flags.npu.driver);
    config.set_npu_strict(flags.npu.strict);
    config.set_npu_cross_check(flags.npu.cross_check);
    config.set_npu_driver_paths(flags.npu.driver_paths);
    config.set_npu_trust_compiled_code(flags.npu.trust_compiled_code);
    config.set_npu_cache_dir(flags.npu.cache_dir);
    config.set_profiling(flags.profiling);
    config.set_memory_limit_mb(flags.memory_limit_mb);
    config.set_shape_buckets(flags.shape_buckets, crops);
    return CreatePaddlePredictor<MobileConfig>(config);
  }
  if (!paddle_model) {
    return InvalidArgument(
        "no model: give --optimized_model=FILE.nb or --model_dir (or --model_file + "
        "--param_file)");
  }
  CxxConfig config;
  config.set_model_dir(flags.model_dir);
  config.set_model_file(flags.model_file);
  config.set_param_file(flags.param_file);
  config.set_valid_places(flags.valid_places);
  config.set_threads(flags.threads);
  config.set_adaptive_threads(flags.adaptive_threads);
  config.set_npu_options(flags.npu);
  config.set_profiling(flags.profiling);
  config.set_disabled_passes(flags.disabled_passes);
  config.enable_fp16(flags.enable_fp16);
  config.set_memory_limit_mb(flags.memory_limit_mb);
  config.set_shape_buckets(flags.shape_buckets, crops);
  return CreatePaddlePredictor<CxxConfig>(config);
}

std::string ShapeText(const std::vector<int64_t>& shape) {
  std::ostringstream os;
  os << "[";
  for (size_t i = 0; i < shape.size(); ++i) os << (i ? ", " : "") << shape[i];
  os << "]";
  return os.str();
}

std::vector<float> LcgUniform(size_t n, uint32_t seed, double lo, double hi) {
  std::vector<float> out(n);
  uint32_t state = seed;
  for (size_t i = 0; i < n; ++i) {
    state = 1103515245u * state + 12345u;
    out[i] = static_cast<float>(lo + (hi - lo) * (static_cast<double>(state) / 4294967296.0));
  }
  return out;
}

Latency Summarize(std::vector<double> ms) {
  Latency l;
  for (double v : ms) l.mean += v / ms.size();
  std::sort(ms.begin(), ms.end());
  l.median = ms[ms.size() / 2];
  l.min = ms.front();
  return l;
}

namespace {

template <typename T>
std::vector<float> Widened(const paddle::lite_api::Tensor& t) {
  std::vector<T> iv(static_cast<size_t>(t.numel()));
  t.CopyToCpu(iv.data());
  return std::vector<float>(iv.begin(), iv.end());
}

}  // namespace

std::vector<float> OutputAsFloats(const paddle::lite_api::Tensor& t) {
  if (t.dtype() == paddle::lite_api::DataType::kInt32) return Widened<int32_t>(t);
  if (t.dtype() == paddle::lite_api::DataType::kInt64) return Widened<int64_t>(t);
  std::vector<float> v(static_cast<size_t>(t.numel()));
  t.CopyToCpu(v.data());
  return v;
}

}  // namespace tools
}  // namespace lite
