// The ccodegen NPU driver: every subgraph becomes C99 built by the system
// C compiler at run time (TVM's "bring your own codegen" idea). Registered
// as "ccodegen".
//
// Compile() generates one translation unit per model (ccodegen_emit.h:
// shapes baked in, calls into the static inline kernels of
// ccodegen_kernels.h, constants in a separate weight blob), builds it into a
// shared object (ccodegen_toolchain.h: cc / gcc / clang, -O2 -march=native)
// and dlopens it. It generates every NN IR operation on float32 tensors of
// rank 1 to 6 and refuses the rest with the reason. No compiler, a compiler
// error or a dlopen failure is a Compile error, so the subgraph falls back
// to host. Execute() checks the caller's tensors and calls the entry with
// input, output, weight and scratch pointers, single-threaded.
//
// Serialize() writes a 48-byte header ("LCCG", format version u32, shared
// object size u64, blob size u64, FNV-1a 64 checksum of both, the 16-digit
// model fingerprint; host byte order), the shared object and the weight
// blob. Deserialize() refuses corrupt, truncated or foreign bytes and any
// whose fingerprint or weights differ from the model given, then loads the
// shared object without compiling. The Executable owns the library handle,
// the shared object's bytes, the blob and its scratch arena; Execute on one
// executable is serialized by its own mutex.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "lite/backends/npu/driver.h"

namespace lite {
namespace npu {

class CcodegenDriver : public Driver {
 public:
  std::string name() const override { return "ccodegen"; }
  std::string version() const override;
  bool can_serialize() const override { return true; }
  Status Supports(const Model& model, const Operation& operation) const override;
  StatusOr<std::unique_ptr<Executable>> Compile(const Model& model,
                                                const CompileOptions& options) override;
  Status Execute(Executable* executable, const std::vector<HostTensor>& inputs,
                 const std::vector<HostTensor>& outputs) override;
  StatusOr<std::vector<uint8_t>> Serialize(const Executable& executable) const override;
  StatusOr<std::unique_ptr<Executable>> Deserialize(const Model& model,
                                                    const std::vector<uint8_t>& bytes,
                                                    const CompileOptions& options) override;
};

}  // namespace npu
}  // namespace lite
