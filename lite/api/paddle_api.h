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

#include "lite/core/types.h"
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
  // Copies numel() elements in / out (the shape must be set first).
  template <typename T>
  void CopyFromCpu(const T* src);
  template <typename T>
  void CopyToCpu(T* dst) const;

 private:
  lite::Tensor* raw_;
};

// How much of the pass pipeline to picture as DOT (see PassDotOptions).
enum class DotDump { kNone, kNamedPass, kEveryPass, kChangedPasses };

class ConfigBase {
 public:
  void set_threads(int threads) { threads_ = threads; }
  int threads() const { return threads_; }

 private:
  int threads_ = 1;
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
  // NPU subgraph options (used when a valid place targets npu).
  void set_npu_strict(bool strict) { npu_strict_ = strict; }
  void set_npu_driver(const std::string& driver) { npu_driver_ = driver; }

  const std::string& model_dir() const { return model_dir_; }
  const std::string& model_file() const { return model_file_; }
  const std::string& param_file() const { return param_file_; }
  const std::string& model_buffer() const { return model_buffer_; }
  const std::string& params_buffer() const { return params_buffer_; }
  const std::vector<Place>& valid_places() const { return valid_places_; }
  const std::vector<std::string>& disabled_passes() const { return disabled_passes_; }
  DotDump dot_mode() const { return dot_mode_; }
  const std::string& dot_pass() const { return dot_pass_; }
  bool npu_strict() const { return npu_strict_; }
  const std::string& npu_driver() const { return npu_driver_; }

 private:
  std::string model_dir_, model_file_, param_file_;
  std::string model_buffer_, params_buffer_;
  std::vector<Place> valid_places_{Place(TargetType::kHost)};
  std::vector<std::string> disabled_passes_;
  DotDump dot_mode_ = DotDump::kNone;
  std::string dot_pass_;
  bool npu_strict_ = false;
  std::string npu_driver_ = "xnnpack";
};

class MobileConfig : public ConfigBase {
 public:
  void set_model_from_file(const std::string& file) { model_file_ = file; }
  void set_model_from_buffer(const std::string& buffer) { model_buffer_ = buffer; }
  const std::string& model_file() const { return model_file_; }
  const std::string& model_buffer() const { return model_buffer_; }

 private:
  std::string model_file_;
  std::string model_buffer_;
};

// Formats SaveOptimizedModel writes.
enum class ModelType { kNaiveBuffer, kProtobuf };

// One pass of the optimization pipeline, for logs and tools.
struct PassDot {
  std::string pass;
  bool changed = false;
  std::string dot;
};

class PaddlePredictor {
 public:
  virtual ~PaddlePredictor() = default;

  // Input/output handles by feed/fetch column; nullptr when out of range.
  virtual std::unique_ptr<Tensor> GetInput(int i) = 0;
  virtual std::unique_ptr<const Tensor> GetOutput(int i) const = 0;
  virtual StatusOr<std::unique_ptr<Tensor>> GetInputByName(const std::string& name) = 0;
  virtual std::vector<std::string> GetInputNames() const = 0;
  virtual std::vector<std::string> GetOutputNames() const = 0;

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
};

template <typename ConfigT>
StatusOr<std::shared_ptr<PaddlePredictor>> CreatePaddlePredictor(const ConfigT& config);

}  // namespace lite_api
}  // namespace paddle
