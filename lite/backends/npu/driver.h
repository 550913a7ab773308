// The device-driver interface and registry.
//
// A driver turns an NN IR Model (nn_ir.h) into something its device runs:
// it answers Supports(operation) with OK or a reason, Compile()s a whole
// model into an Executable, and Execute()s that executable on caller-owned
// buffers. The framework (subgraph pass and kernel) owns partitioning,
// fallback and reporting; a driver only says yes/no and does the work.
//
// Ownership: the registry owns driver factories (built-in ones register
// statically; plugin/plugin_loader.h adds the drivers of loaded plugins); the caller owns every
// Driver it creates and every Executable that driver compiled (destroying
// the Executable releases what Compile acquired; destroy executables before
// their driver). A Driver instance is used from one thread at a time;
// different instances may run concurrently. Nothing here names a Paddle type:
// out-of-tree drivers implement the same contract through the C ABI of
// plugin/lite_npu_driver_abi.h, wrapped by plugin/plugin_driver.h.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "lite/backends/npu/nn_ir.h"
#include "lite/utils/status.h"

namespace lite {
namespace npu {

// Bumped on incompatible changes of this header or nn_ir.h (major), or on
// additions (minor).
constexpr int kDriverApiMajor = 1;
constexpr int kDriverApiMinor = 3;  // 1.1: DriverRegistry origins (plugins)
                                    // 1.2: optional version, cpu_features,
                                    //      Serialize / Deserialize
                                    // 1.3: optional Executable::Describe

struct CompileOptions {
  int threads = 1;  // the predictor's thread count
};

// A compiled model. Drivers subclass it; destroying it frees its resources.
class Executable {
 public:
  virtual ~Executable() = default;
  // How it runs, for the profile (e.g. which of a driver's paths and why);
  // empty by default.
  virtual std::string Describe() const { return std::string(); }
};

// A caller-owned tensor handed to Execute: host memory, row-major, in the
// NN IR layout of the matching model operand.
struct HostTensor {
  void* data = nullptr;
  size_t bytes = 0;
  std::vector<int64_t> dims;
};

class Driver {
 public:
  virtual ~Driver() = default;
  virtual std::string name() const = 0;
  virtual int api_major() const { return kDriverApiMajor; }
  virtual int api_minor() const { return kDriverApiMinor; }
  // True when Execute reads and writes host memory directly (then no copy
  // op is inserted at subgraph boundaries). Only such drivers exist today.
  virtual bool host_memory() const { return true; }

  // OK, or a reason naming what is not supported ("pool2d: ceil_mode with
  // exclusive=false"). `model` holds the operation's operands; in check mode
  // their dims may hold -1 and constants may have no data: answer from what
  // is known and leave the rest to Compile.
  virtual Status Supports(const Model& model, const Operation& operation) const = 0;
  // Compiles a complete model (all dims known, constants with data).
  virtual StatusOr<std::unique_ptr<Executable>> Compile(const Model& model,
                                                        const CompileOptions& options) = 0;
  // Runs `executable`. inputs/outputs follow Model::inputs/outputs order and
  // dims; output buffers are allocated by the caller.
  virtual Status Execute(Executable* executable, const std::vector<HostTensor>& inputs,
                         const std::vector<HostTensor>& outputs) = 0;

  // Compiled executables as data (optional; API 1.2). The driver's own
  // version string, part of every saved executable's key: change it whenever
  // the bytes Serialize writes or the code they hold would differ.
  virtual std::string version() const { return "0"; }
  // The CPU features the driver's compiled code depends on, also part of
  // the key. Default: HostCpuFeatures() (the conservative answer for code
  // built with -march=native); a driver whose bytes hold no machine code may
  // return a constant.
  virtual std::string cpu_features() const;
  // True when Serialize/Deserialize are implemented.
  virtual bool can_serialize() const { return false; }
  // Bytes from which Deserialize rebuilds an equivalent executable of the
  // same model. Unimplemented by default.
  virtual StatusOr<std::vector<uint8_t>> Serialize(const Executable& executable) const;
  // Rebuilds an executable of `model` from Serialize's bytes without
  // compiling. Corrupt or foreign bytes are an error, never a crash.
  // Unimplemented by default.
  virtual StatusOr<std::unique_ptr<Executable>> Deserialize(const Model& model,
                                                            const std::vector<uint8_t>& bytes,
                                                            const CompileOptions& options);
};

// Checks `inputs`/`outputs` against the model's input/output operands
// (count, dims, byte size), naming the operand at fault: what every
// driver's Execute does first.
Status CheckHostTensors(const Model& model, const std::vector<HostTensor>& inputs,
                        const std::vector<HostTensor>& outputs);

// This machine's CPU: architecture and the instruction-set extensions the
// compiler can test for, e.g. "x86_64 sse4.2 avx avx2 fma avx512f".
std::string HostCpuFeatures();

using DriverFactory = std::function<std::unique_ptr<Driver>()>;

// Thread-safe: plugins may register while predictors are being created.
class DriverRegistry {
 public:
  static constexpr const char* kBuiltIn = "built in";

  static DriverRegistry& Global();
  // False (and nothing registered) when `name` is taken: first one wins.
  // `origin` says where the driver comes from: kBuiltIn or a plugin's path.
  bool Register(const std::string& name, DriverFactory factory,
                const std::string& origin = kBuiltIn);
  bool Has(const std::string& name) const;
  // The origin given at registration; "" when `name` is unknown.
  std::string Origin(const std::string& name) const;
  // NotFound listing the registered drivers when `name` is unknown.
  StatusOr<std::unique_ptr<Driver>> Create(const std::string& name) const;
  std::vector<std::string> Names() const;  // sorted

 private:
  struct Entry {
    DriverFactory factory;
    std::string origin;
  };
  mutable std::mutex mu_;
  std::map<std::string, Entry> entries_;
};

}  // namespace npu
}  // namespace lite

// REGISTER_NPU_DRIVER(reference, ReferenceDriver);
#define REGISTER_NPU_DRIVER(name, DriverClass)                                \
  static bool lite_npu_driver_registered_##name [[maybe_unused]] =            \
      ::lite::npu::DriverRegistry::Global().Register(#name, [] {              \
        return std::unique_ptr<::lite::npu::Driver>(new DriverClass);         \
      })
