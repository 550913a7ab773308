// The subgraph kernel: runs one `subgraph` op on an NPU driver, with the
// op's sub-block on host kernels as the fallback.
//
// At creation (Init) it builds the sub-block's host instructions (the
// "origin program", sharing the exec scope and KernelContext) and, when the
// input shapes are known ahead of the first run, converts the ops with the
// bridges and compiles them with the driver. Executables are cached per
// input-shape signature, at most NpuContext::max_cached_shapes of them (the
// least recently run is dropped first); a new signature converts and
// compiles again. A
// bridge failure switches the subgraph to its origin program for good; so
// does an Execute failure, after rerunning that call on host. When the
// driver's Compile refuses the whole subgraph (an operation its check mode
// accepted fails at the real dims), the kernel splits it: ranges of ops that
// compile run on the device (neighbouring ranges merged into one part), the
// refused ops on host in between (the record lists them and why); only when
// nothing compiles does it fall back whole. Every
// fallback prints one line to stderr, and in strict mode is an error
// instead. In cross-check mode each run also runs the origin program and
// records the largest difference. The kernel owns its driver, executables,
// origin instructions and its SubgraphRecord (listed in the KernelContext).
//
// Compiled code as data (docs/nb_format.md): before compiling, with
// NpuOptions::trust_compiled_code, the kernel rebuilds the executable with
// the driver's Deserialize from a .nb entry (NpuOptions::compiled) or a
// cache-dir file whose key matches; a mismatch, corrupt bytes or a
// Deserialize failure compiles instead, with one line saying why (so does
// saved code present without the trust option). After compiling, it
// serializes the executable into the store (save_compiled) and the cache
// dir. Counts of both are in the record.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "lite/backends/npu/compiled_key.h"
#include "lite/backends/npu/driver.h"
#include "lite/backends/npu/placement.h"
#include "lite/core/kernel.h"
#include "lite/kernels/npu/bridges/bridge.h"
#include "lite/core/program.h"
#include "lite/operators/subgraph_op.h"

namespace lite {
namespace kernels {
namespace npu {

class SubgraphCompute : public KernelBase {
 public:
  Status Init() override;
  Status Run() override;
  // The dry planning pass's question (KernelBase::InferAhead): the origin
  // ops' shapes inferred for the inputs as fed (the outputs' dims set), and
  // beyond the outputs: nothing for a signature compiled and held, else the
  // compile's estimate, its activation bytes (ActivationBytes) times the
  // largest RSS growth per activation byte a compile here has measured
  // (kFirstCompileRatio before one); on host after a fallback, the origin
  // ops' activation bytes.
  int64_t InferAhead() override;
  const SubgraphRecord& record() const { return record_; }
  // How the driver runs it (Executable::Describe of the executables
  // compiled so far, each distinct one once), shown by the profile.
  const std::string& impl_info() const override { return impl_info_; }

 private:
  // Consecutive origin ops [begin, end): on the device (an executable
  // reading the vars `inputs`, writing `outputs`) or, with no executable,
  // on host. An unsplit subgraph is one device part.
  struct Part {
    size_t begin = 0, end = 0;
    std::unique_ptr<lite::npu::Executable> executable;
    std::vector<std::string> inputs, outputs;
    std::vector<DDim> output_dims;
  };
  struct Compiled {
    std::vector<Part> parts;
    uint64_t last_used = 0;  // the LRU's clock (use_clock_) at its last run
    int64_t bytes = 0;       // ActivationBytes() when it was compiled
  };

  std::vector<DDim> InputSignature() const;
  bool InputsKnown() const;
  // Infers every origin op's output shapes for the current inputs.
  Status InferOriginShapes();
  // Converts and compiles (or loads) for the current input shapes (cached);
  // splits the subgraph when the driver refuses to compile it whole.
  StatusOr<Compiled*> CompileCurrent();
  // Converts part->[begin, end) into a model and gives it an executable:
  // a saved one when allowed (LoadSaved), else compiled (then saved). Why
  // saved code was not used goes to `notes`; *refused (may be null) is set
  // when the driver's Compile failed (not the conversion).
  Status BuildPart(Part* part, std::vector<std::string>* notes, bool* refused = nullptr);
  // After Compile refused the whole subgraph: bisects the ops into ranges
  // that compile and single ops that do not (those run on host). Error when
  // nothing is left on the device.
  StatusOr<std::vector<Part>> Split(const Status& whole, std::vector<std::string>* notes);
  // A device part of ops [begin, end) with its boundary; the error when it
  // does not convert or compile.
  StatusOr<Part> BuildRange(size_t begin, size_t end, std::vector<std::string>* notes);
  // Compiles each run of neighbouring device parts of `parts` as one part
  // where the driver accepts it (else as few as it accepts, from the left).
  std::vector<Part> MergeDeviceRuns(std::vector<Part> parts, std::vector<std::string>* notes);
  // The vars ops [begin, end) read from outside the range (weights
  // excepted) and those they write that later ops or the outputs need.
  void PartBoundary(size_t begin, size_t end, std::vector<std::string>* inputs,
                    std::vector<std::string>* outputs) const;
  // A saved executable of `model` (trusted .nb entry or cache file), or
  // null with *why_not saying why none was used ("" when none existed).
  std::unique_ptr<lite::npu::Executable> LoadSaved(const lite::npu::Model& model,
                                                   const lite::npu::KeyIngredients& key,
                                                   const lite::npu::CompileOptions& options,
                                                   std::string* why_not);
  // Serializes a fresh executable into the store and/or the cache dir.
  void SaveCompiled(const lite::npu::Executable& exe, const lite::npu::KeyIngredients& key);
  Status RunOrigin(size_t begin, size_t end);
  Status RunOrigin() { return RunOrigin(0, origin_.size()); }
  Status RunOnDevice(Compiled* compiled);
  Status CrossCheck(Compiled* compiled);
  // Records the fallback and prints it; the error to return in strict mode.
  Status FallBack(const std::string& reason);

  SubgraphRecord record_;
  std::string impl_info_;
  std::unique_ptr<lite::npu::Driver> driver_;
  std::vector<std::unique_ptr<Instruction>> origin_;
  // Drops the least recently used executables until `keep` are left.
  int EvictDownTo(size_t keep);
  // Drops the least recently run executables until those left need no more
  // than `bytes` (ActivationBytes); how many it dropped.
  int EvictToBytes(int64_t bytes);
  // The bytes of every origin op's outputs at the current (inferred) shapes:
  // a measure of an executable's workspace, which holds these activations.
  int64_t ActivationBytes() const;

  // Before any compile here was measured, a compile's need per activation
  // byte (ActivationBytes; every origin output at its shape, none reused):
  // det's first compile on xnnpack grew RSS by 0.67 of them at 640x640 and
  // at 1280x1280 in a fresh process, at most 0.72 over a stream of 12
  // sizes (docs/memory.md).
  static constexpr double kFirstCompileRatio = 0.75;

  std::map<std::vector<DDim>, Compiled> compiled_;
  // The weights' bytes, converted once and shared by every size's model.
  lite::npu::WeightCache weight_cache_;
  // A compile's RSS growth (after the evictions, to the end of its first
  // run: the runtime's memory faults in there) per activation byte, the
  // largest measured; 0 before one. The RSS before the pending compile and
  // its activation bytes (-1: none pending).
  double compile_ratio_ = 0;
  int64_t compile_rss_before_ = -1;
  int64_t compile_bytes_ = 0;
  uint64_t use_clock_ = 0;
  int64_t largest_bytes_ = 0;  // the largest ActivationBytes compiled so far
  bool fell_back_ = false;
};

}  // namespace npu
}  // namespace kernels
}  // namespace lite
