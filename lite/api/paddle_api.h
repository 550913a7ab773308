// Public C++ API, with Paddle-Lite's names so existing users feel at home.
//
//   CxxConfig config;                      // full predictor: runs the passes
//   config.set_model_dir("mnist");
//   auto predictor = CreatePaddlePredictor<CxxConfig>(config);
//   if (!predictor.ok()) { ... predictor.status().message() ... }
//   auto input = (*predictor)->GetInput(0);
//   input->Resize({1, 1, 28, 28});
//   input->CopyFromCpu(data);
//   Status s = (*predictor)->Run();
//   auto output = (*predictor)->GetOutput(0);
//
// Threads: a predictor is used from one thread at a time (Run, GetInput,
// GetOutput and the Tensor handles touch its own tensors). To run the same
// model concurrently, Clone() it once per thread: clones share the weights
// (read-only) and the program text, and own their activations, NPU
// executables and memory pool. CreatePaddlePredictor may be called from
// several threads at once.
//
// MobileConfig + CreatePaddlePredictor<MobileConfig> is the light predictor:
// it loads an optimized model (see tools/opt) and runs no passes. Failures
// come back as Status values; nothing here aborts. A predictor owns its
// scopes and program; Tensor handles borrow from the predictor and must not
// outlive it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "lite/backends/npu/npu_options.h"
#include "lite/base/types.h"
#include "lite/utils/logging.h"
#include "lite/utils/status.h"

namespace lite {
class Tensor;
}

namespace paddle {
namespace lite_api {

using lite::DataLayoutType;
using lite::DataType;
using lite::Place;
using lite::PrecisionType;
using lite::Status;
using lite::StatusCode;
using lite::StatusOr;
using lite::TargetType;
using shape_t = std::vector<int64_t>;
using lod_t = std::vector<std::vector<uint64_t>>;

// A handle to one input or output tensor of a predictor.
class Tensor {
 public:
  explicit Tensor(lite::Tensor* raw) : raw_(raw) {}
  void Resize(const shape_t& shape);
  shape_t shape() const;
  int64_t numel() const;
  DataType dtype() const;
  lod_t lod() const;
  void SetLoD(const lod_t& lod);

  // Allocates shape()'s element count of T (sets the dtype to T).
  template <typename T>
  T* mutable_data();
  // nullptr when no data of type T is present.
  template <typename T>
  const T* data() const;
  // Copies numel() elements in / out (the shape must be set first). The
  // caller guarantees `src` / `dst` hold numel() elements; prefer the
  // counted forms below, which cannot read or write past the caller's array.
  template <typename T>
  void CopyFromCpu(const T* src);
  template <typename T>
  void CopyToCpu(T* dst) const;
  // Checked forms: InvalidArgument (nothing copied) when `count` elements
  // are fewer than numel(), or when there is no data of type T to copy out.
  template <typename T>
  Status CopyFromCpu(const T* src, int64_t count);
  template <typename T>
  Status CopyToCpu(T* dst, int64_t capacity) const;

  // Caller-owned memory (zero copy into the predictor), `count` elements of
  // T. On an input (after Resize): Run() reads the data in place, never
  // writes it, and checks that `count` covers the shape. On an output from
  // GetMutableOutput(): Run() writes the result straight into it and fails
  // (naming the output) when the result needs more than `count` elements.
  // The memory must stay valid and untouched by the caller while Run() runs
  // and until another buffer is bound or the predictor is destroyed;
  // CopyFromCpu/mutable_data afterwards go back to predictor-owned memory.
  template <typename T>
  Status ShareExternalData(T* data, int64_t count);

 private:
  lite::Tensor* raw_;
};

// What the model declares about one input or output.
struct TensorInfo {
  std::string name;
  shape_t shape;  // -1 for extents fixed only at run time
  DataType dtype = DataType::kFloat32;
  int lod_level = 0;
};

// Shape buckets (ConfigBase::set_shape_buckets, docs/memory.md): one output
// to crop back after a padded run, its H and W being the input's times
// num / den (1/1 for a map at the input's size, 1/4 for a stride-4 map).
struct BucketCrop {
  std::string output;
  int num = 1;
  int den = 1;
};

struct ShapeBuckets {
  int multiple = 0;               // 0: off
  std::vector<BucketCrop> crops;  // empty: inferred from the runs
};

// "name", "name=1/4" or "name=2", comma-separated, as the tools' and
// Python's crop lists take them; InvalidArgument naming the bad item.
StatusOr<std::vector<BucketCrop>> ParseBucketCrops(const std::string& text);

// How much of the pass pipeline to picture as DOT (see PassDotOptions).
enum class DotDump { kNone, kNamedPass, kEveryPass, kChangedPasses };

class ConfigBase {
 public:
  void set_threads(int threads) { threads_ = threads; }
  int threads() const { return threads_; }
  // With threads > 1 (on by default): while another process keeps the CPUs
  // busy enough that this predictor's threads wait for them, runs use one
  // thread, and the requested count again once a CPU is idle; each change is
  // one log line (lite/core/thread_governor.h). Off: always `threads`.
  void set_adaptive_threads(bool on) { adaptive_threads_ = on; }
  bool adaptive_threads() const { return adaptive_threads_; }
  // Time every op of every Run(); read with GetProfileSummary().
  void set_profiling(bool on) { profiling_ = on; }
  bool profiling() const { return profiling_; }
  // A memory budget on the process's resident set, in MB (0, the default:
  // none; negative fails creation). Past it the predictor releases cached
  // per-shape state before a run of a new input size, and refuses (an
  // InvalidArgument naming the input, nothing run) a run whose estimated
  // need does not fit even then; see docs/memory.md and GetMemoryStats().
  void set_memory_limit_mb(int mb) { memory_limit_mb_ = mb; }
  int memory_limit_mb() const { return memory_limit_mb_; }
  // Shape buckets, off by default: the H and W of the model's one 4-D
  // (NCHW) input are rounded up to a multiple of `multiple`, the data
  // zero-padded at the bottom and right, and the outputs cropped back, so a
  // service seeing many image sizes runs (and keeps state for) few shapes.
  // `crops` names the outputs to crop and their scale; the others come back
  // as the padded run made them. Without `crops` every output must be 4-D
  // with H and W the input's times a fixed ratio, checked on two sizes (a
  // first padded run with nothing to compare runs once more, padded one
  // bucket further), and a
  // padded run whose outputs cannot be cropped is refused. Padding changes
  // what a convolution sees near the bottom and right border: see
  // docs/memory.md. A negative multiple, or a crop naming no output, fails
  // creation; GetMemoryStats() reports the hit rate.
  void set_shape_buckets(int multiple, const std::vector<BucketCrop>& crops = {}) {
    shape_buckets_.multiple = multiple;
    shape_buckets_.crops = crops;
  }
  const ShapeBuckets& shape_buckets() const { return shape_buckets_; }

 private:
  int threads_ = 1;
  bool adaptive_threads_ = true;
  bool profiling_ = false;
  int memory_limit_mb_ = 0;
  ShapeBuckets shape_buckets_;
};

class CxxConfig : public ConfigBase {
 public:
  // A model directory (combined or not), or model + params files.
  void set_model_dir(const std::string& dir) { model_dir_ = dir; }
  void set_model_file(const std::string& f) { model_file_ = f; }
  void set_param_file(const std::string& f) { param_file_ = f; }
  // Both from memory (the buffers are copied).
  void set_model_buffer(const char* model, size_t model_size, const char* params,
                        size_t params_size) {
    model_buffer_.assign(model, model_size);
    params_buffer_.assign(params, params_size);
  }
  // Preferred places first. Host kernels are always the fallback.
  void set_valid_places(const std::vector<Place>& places) { valid_places_ = places; }
  void set_disabled_passes(const std::vector<std::string>& p) { disabled_passes_ = p; }
  // DOT snapshots of the graph during optimization (read them back with
  // PaddlePredictor::GetPassDots()).
  void set_dot_dump(DotDump mode, const std::string& pass = "") {
    dot_mode_ = mode;
    dot_pass_ = pass;
  }
  // NPU subgraphs (used when a valid place targets npu; see
  // docs/subgraphs.md). The driver must be built in or loaded from a plugin
  // directory (an unknown name fails creation).
  void set_npu_driver(const std::string& driver) { npu_.driver = driver; }
  // Directories scanned, in order and before $LITE_NPU_DRIVER_PATH, for
  // driver plugins <vendor>_<driver>_npu_driver.so (lite/backends/npu/
  // README.md). A path that is not a directory fails creation; so do paths
  // without npu among the valid places.
  void set_npu_driver_paths(const std::vector<std::string>& dirs) { npu_.driver_paths = dirs; }
  // Any subgraph that cannot run on the device fails creation (or the first
  // Run, for shapes known only then) instead of falling back to host.
  void set_npu_strict(bool strict) { npu_.strict = strict; }
  // Clusters with fewer ops stay on host (default 2).
  void set_npu_min_subgraph_size(int n) { npu_.min_subgraph_size = n; }
  // A file of "op_type[:in_var,...[:out_var,...]]" lines: ops to keep on host.
  void set_npu_partition_file(const std::string& path) { npu_partition_file_ = path; }
  // Also run every subgraph on host and record the largest difference
  // (GetPlacementReport()).
  void set_npu_cross_check(bool on) { npu_.cross_check = on; }
  // Compiled subgraphs as data (docs/nb_format.md). Keep what the subgraphs
  // compile (at creation, or at the first run for shapes known only then)
  // so SaveOptimizedModel(kNaiveBuffer) stores it in the .nb.
  void set_npu_save_compiled(bool on) { npu_.save_compiled = on; }
  // Loading compiled code from a model file or cache dir runs native code
  // from that file: off by default; see docs/subgraphs.md, "Trust model".
  void set_npu_trust_compiled_code(bool trust) { npu_.trust_compiled_code = trust; }
  // A directory of compiled subgraphs keyed like the .nb ones: read (with
  // trust) before compiling, written after compiling. Created when missing.
  void set_npu_cache_dir(const std::string& dir) { npu_.cache_dir = dir; }
  // All of the above at once (partition rules as text, not a file name).
  void set_npu_options(const lite::NpuOptions& o) { npu_ = o; }
  // Paddle-Lite's fp16 switch: conv2d / depthwise_conv2d placed on the arm
  // target compute in IEEE half (XNNPACK f16 operators). Needs arm among the
  // valid places and a CPU with half arithmetic; predictor creation fails
  // otherwise. A .nb saved with it keeps the choice (light predictor).
  void enable_fp16(bool on = true) { fp16_ = on; }
  bool fp16_enabled() const { return fp16_; }

  const std::string& model_dir() const { return model_dir_; }
  const std::string& model_file() const { return model_file_; }
  const std::string& param_file() const { return param_file_; }
  const std::string& model_buffer() const { return model_buffer_; }
  const std::string& params_buffer() const { return params_buffer_; }
  const std::vector<Place>& valid_places() const { return valid_places_; }
  const std::vector<std::string>& disabled_passes() const { return disabled_passes_; }
  DotDump dot_mode() const { return dot_mode_; }
  const std::string& dot_pass() const { return dot_pass_; }
  const lite::NpuOptions& npu_options() const { return npu_; }
  const std::string& npu_partition_file() const { return npu_partition_file_; }

 private:
  std::string model_dir_, model_file_, param_file_;
  std::string model_buffer_, params_buffer_;
  std::vector<Place> valid_places_{Place(TargetType::kHost)};
  std::vector<std::string> disabled_passes_;
  DotDump dot_mode_ = DotDump::kNone;
  std::string dot_pass_;
  lite::NpuOptions npu_;
  std::string npu_partition_file_;
  bool fp16_ = false;
};

class MobileConfig : public ConfigBase {
 public:
  void set_model_from_file(const std::string& file) { model_file_ = file; }
  void set_model_from_buffer(const std::string& buffer) { model_buffer_ = buffer; }
  const std::string& model_file() const { return model_file_; }
  const std::string& model_buffer() const { return model_buffer_; }
  // NPU subgraphs of the model run on the driver recorded by opt unless one
  // is set here; strict and cross-check as in CxxConfig.
  void set_npu_driver(const std::string& driver) { npu_.driver = driver; }
  void set_npu_strict(bool strict) { npu_.strict = strict; }
  void set_npu_cross_check(bool on) { npu_.cross_check = on; }
  // Plugin directories, as in CxxConfig.
  void set_npu_driver_paths(const std::vector<std::string>& dirs) { npu_.driver_paths = dirs; }
  // Use the compiled subgraphs stored in the .nb (and the cache dir)
  // instead of compiling: off by default, as in CxxConfig.
  void set_npu_trust_compiled_code(bool trust) { npu_.trust_compiled_code = trust; }
  void set_npu_cache_dir(const std::string& dir) { npu_.cache_dir = dir; }
  const lite::NpuOptions& npu_options() const { return npu_; }

 private:
  std::string model_file_;
  std::string model_buffer_;
  lite::NpuOptions npu_{/*driver=*/""};
};

// Formats SaveOptimizedModel writes.
enum class ModelType { kNaiveBuffer, kProtobuf };

// One pass of the optimization pipeline, for logs and tools.
struct PassDot {
  std::string pass;
  bool changed = false;
  std::string dot;
};

// Where every op runs, and how each NPU subgraph fared.
struct OpPlacement {
  std::string op;       // "conv2d (output: conv2d_0.tmp_0)"
  int subgraph = -1;    // subgraph id, -1 when the op was never offloaded
  bool on_device = false;
  std::string reason;   // why it runs on host ("" on the device)
};

struct SubgraphPlacement {
  int id = 0;
  std::string driver;
  std::vector<std::string> ops;
  std::string state;    // "device", "host" (fell back) or "pending" (first run)
  std::string reason;   // fallback or pending reason
  int compiles = 0;     // executables built (one per input-shape signature)
  // Executables rebuilt from saved compiled code instead of compiling, and
  // why saved code was last not used ("" when it was or there was none).
  int deserializations = 0;
  std::string compiled_note;
  // Set when the driver refused to compile the whole subgraph and it was
  // split around the refused ops (which run on host, see OpPlacement).
  std::string split;
  // Cross-check mode: runs compared and the largest differences seen.
  int cross_checked_runs = 0;
  double max_abs_diff = 0;
  double max_rel_diff = 0;
};

struct PlacementReport {
  std::vector<OpPlacement> ops;  // program order, feed/fetch excluded
  std::vector<SubgraphPlacement> subgraphs;
  // "npu/reference: 112 of 120 ops in 3 subgraphs; 1 subgraph fell back:
  // #2 (5 ops from conv2d (output: x)): <reason>" or "no npu subgraphs".
  std::string Summary() const;
  // Summary, one line per subgraph, then one line per op on host with why.
  std::string ToString() const;
};

// What a predictor holds per input shape and what the memory budget did
// (PaddlePredictor::GetMemoryStats; docs/memory.md).
struct MemoryStats {
  int64_t rss_bytes = -1;         // the process's VmRSS now (-1: unreadable)
  int64_t limit_bytes = 0;        // set_memory_limit_mb (0: none)
  int64_t arena_bytes = 0;        // the activation arena of the shape run last
  int64_t pool_free_bytes = 0;    // free buffers kept by the pool
  int64_t pool_peak_bytes = 0;    // most pool bytes in use at once, ever
  int npu_cached_shapes = 0;      // NPU executables held (all subgraphs)
  int64_t npu_evictions = 0;      // NPU executables dropped (LRU or budget)
  int budget_releases = 0;        // times the budget released cached state
  int budget_refusals = 0;        // runs refused as over the budget
  double estimate_bytes_per_input_element = 0;  // the budget's estimate rate
  // The budget's estimate of the last new input signature's need, and the
  // activation bytes planned ahead for it (dry planning pass; -1: unknown).
  int64_t estimate_bytes = 0;
  int64_t planned_activation_bytes = -1;
  std::string process_caches;     // process-wide caches ("onednn ...: capacity 128 ...")
  // Shape buckets (0: off): runs, runs whose bucketed shape had run before
  // (hits), padded runs, distinct bucketed shapes, and the extra runs made
  // to check an inferred output scale.
  int bucket_multiple = 0;
  int64_t bucket_runs = 0;
  int64_t bucket_hits = 0;
  int64_t bucket_padded_runs = 0;
  int bucket_shapes = 0;
  int64_t bucket_check_runs = 0;
  // One line: "arena 12.0 MB, pool free 0.0 MB, ...".
  std::string ToString() const;
};

class PaddlePredictor {
 public:
  virtual ~PaddlePredictor() = default;

  // Input/output handles by feed/fetch column; nullptr when out of range.
  virtual std::unique_ptr<Tensor> GetInput(int i) = 0;
  virtual std::unique_ptr<const Tensor> GetOutput(int i) const = 0;
  virtual StatusOr<std::unique_ptr<Tensor>> GetInputByName(const std::string& name) = 0;
  // The output of that name; NotFound listing the outputs otherwise.
  virtual StatusOr<std::unique_ptr<const Tensor>> GetOutputByName(const std::string& name) const = 0;
  virtual std::vector<std::string> GetInputNames() const = 0;
  virtual std::vector<std::string> GetOutputNames() const = 0;
  // Names, declared shapes (-1 = any) and dtypes of the inputs / outputs,
  // by feed / fetch column, as the model declares them.
  virtual std::vector<TensorInfo> GetInputInfos() const = 0;
  virtual std::vector<TensorInfo> GetOutputInfos() const = 0;
  // An output handle that can bind caller memory (Tensor::ShareExternalData);
  // nullptr when out of range.
  virtual std::unique_ptr<Tensor> GetMutableOutput(int i) = 0;

  // Checks every input against the model (set, dtype, rank, fixed dims) and
  // runs the program.
  virtual Status Run() = 0;

  // Writes the optimized model (the light predictor can re-save .nb). For kNaiveBuffer `path`
  // is a file (".nb" appended when missing); for kProtobuf a directory that
  // receives "__model__" and "__params__".
  virtual Status SaveOptimizedModel(const std::string& path, ModelType type) = 0;
  // A predictor sharing this one's weights and program, with its own inputs,
  // outputs and activations: run the clone on another thread.
  virtual StatusOr<std::shared_ptr<PaddlePredictor>> Clone() = 0;
  // Pass log lines of the optimization (empty for the light predictor).
  virtual std::string GetPassLog() const = 0;
  virtual std::vector<PassDot> GetPassDots() const = 0;
  // Where each op runs (see PlacementReport); reflects fallbacks so far.
  virtual PlacementReport GetPlacementReport() const = 0;
  // With ConfigBase::set_profiling(true): per op type and kernel place, ms
  // per run, share of the total and GFLOP/s for conv/fc/matmul, averaged
  // over the runs so far ("" when profiling is off or nothing ran).
  virtual std::string GetProfileSummary() const = 0;
  // The same runs, one row per op in program order (index, op type, its
  // first output var, kernel place, ms per run, share, GFLOP/s): which conv
  // of a model is slow.
  virtual std::string GetProfileDetail() const = 0;
  // Forgets the runs profiled so far (e.g. warm-up runs, whose first run
  // pays one-time costs such as JIT compilation), so the summary covers
  // only later runs.
  virtual void ResetProfile() = 0;
  // Memory held per input shape and the budget's counters (MemoryStats).
  virtual MemoryStats GetMemoryStats() const = 0;
};

template <typename ConfigT>
StatusOr<std::shared_ptr<PaddlePredictor>> CreatePaddlePredictor(const ConfigT& config);

// The engine version ("0.1.0"), as written into .nb files.
std::string GetVersion();

// Where the engine's non-error messages go (a subgraph falling back to host,
// a refused driver plugin, a strict predictor's placement summary): stderr
// by default; SetLogSink(sink) routes them, a sink doing nothing silences
// them, an empty one restores stderr (lite/utils/logging.h).
using ::lite::LogSeverity;
using ::lite::LogSink;
using ::lite::SetLogSink;

}  // namespace lite_api
}  // namespace paddle
