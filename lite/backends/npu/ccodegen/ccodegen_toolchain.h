// The system C compiler and the dynamic loader, as the ccodegen driver uses
// them. Everything returns a Status naming the step, the file or the
// command; nothing aborts.
//
// FindCCompiler: $LITE_NPU_CCODEGEN_CC when set (a path, or a name looked up
// in $PATH; pointing nowhere is an error, never a silent fallback), else the
// first of cc, gcc, clang in $PATH. BuildSharedObject writes the source into
// a private temporary directory (mkdtemp under $TMPDIR or /tmp), runs
// `<cc> -O2 -march=native -fPIC -shared -std=c99 -o model.so model.c -lm`
// there (the command is logged when $LITE_NPU_CCODEGEN_VERBOSE is 1; the
// compiler's output is in the error when it fails), reads the shared object
// back and removes the directory. LoadSharedObject writes shared-object bytes
// to such a directory, dlopens them (RTLD_NOW | RTLD_LOCAL) and removes the
// directory again: the mapping outlives the file. Safe to call from several
// threads: every call has its own directory and handle.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "lite/utils/status.h"

namespace lite {
namespace npu {

constexpr const char kCcodegenCompilerEnv[] = "LITE_NPU_CCODEGEN_CC";
constexpr const char kCcodegenVerboseEnv[] = "LITE_NPU_CCODEGEN_VERBOSE";
// The -march= value the generated C is compiled with: "native" (the CPU that
// runs the engine) unless set. A cross compiler, as under emulation
// (toolchains/aarch64/qemu.sh.in), has no native CPU and needs a named one.
constexpr const char kCcodegenMarchEnv[] = "LITE_NPU_CCODEGEN_MARCH";

StatusOr<std::string> FindCCompiler();

// A dlopen()ed library; dlclose()d on destruction.
class SharedObject {
 public:
  explicit SharedObject(void* handle) : handle_(handle) {}
  ~SharedObject();
  SharedObject(const SharedObject&) = delete;
  SharedObject& operator=(const SharedObject&) = delete;
  // nullptr when the library has no such symbol.
  void* Symbol(const char* name) const;

 private:
  void* handle_;
};

// Compiles `source` into shared-object bytes.
StatusOr<std::vector<uint8_t>> BuildSharedObject(const std::string& source);

StatusOr<std::unique_ptr<SharedObject>> LoadSharedObject(const std::vector<uint8_t>& bytes);

}  // namespace npu
}  // namespace lite
