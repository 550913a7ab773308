#include "lite/backends/npu/driver.h"

namespace lite {
namespace npu {

namespace {

std::string DimsText(const std::vector<int64_t>& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
  return s + "]";
}

Status CheckList(const Model& model, const std::vector<int>& operands,
                 const std::vector<HostTensor>& tensors, const char* what) {
  if (operands.size() != tensors.size()) {
    return InvalidArgument(std::string("model has ") + std::to_string(operands.size()) + " " +
                           what + "s, got " + std::to_string(tensors.size()));
  }
  for (size_t i = 0; i < operands.size(); ++i) {
    const Operand& o = model.operands[operands[i]];
    const size_t bytes = static_cast<size_t>(o.numel()) * ElementSize(o.type);
    if (tensors[i].dims != o.dims || tensors[i].bytes < bytes || !tensors[i].data) {
      return InvalidArgument(std::string(what) + " " + std::to_string(i) + " (" + o.name +
                             ") expects " + DimsText(o.dims) + " (" + std::to_string(bytes) +
                             " bytes), got " + DimsText(tensors[i].dims) + " (" +
                             std::to_string(tensors[i].bytes) + " bytes)");
    }
  }
  return Status::OK();
}

}  // namespace

StatusOr<std::vector<uint8_t>> Driver::Serialize(const Executable&) const {
  return Unimplemented("driver '" + name() + "' cannot serialize compiled executables");
}

StatusOr<std::unique_ptr<Executable>> Driver::Deserialize(const Model&,
                                                          const std::vector<uint8_t>&,
                                                          const CompileOptions&) {
  return Unimplemented("driver '" + name() + "' cannot deserialize compiled executables");
}

std::string Driver::cpu_features() const { return HostCpuFeatures(); }

std::string HostCpuFeatures() {
#if defined(__x86_64__) || defined(__i386__)
  std::string out = "x86_64";
  __builtin_cpu_init();
#define LITE_CPU_FEATURE(f) \
  if (__builtin_cpu_supports(f)) out += " " f;
  LITE_CPU_FEATURE("sse4.2")
  LITE_CPU_FEATURE("avx")
  LITE_CPU_FEATURE("avx2")
  LITE_CPU_FEATURE("fma")
  LITE_CPU_FEATURE("avx512f")
  LITE_CPU_FEATURE("avx512bw")
  LITE_CPU_FEATURE("avx512vl")
  LITE_CPU_FEATURE("avx512vnni")
#undef LITE_CPU_FEATURE
  return out;
#elif defined(__aarch64__)
  return "aarch64";
#else
  return "unknown";
#endif
}

Status CheckHostTensors(const Model& model, const std::vector<HostTensor>& inputs,
                        const std::vector<HostTensor>& outputs) {
  RETURN_IF_ERROR(CheckList(model, model.inputs, inputs, "input"));
  return CheckList(model, model.outputs, outputs, "output");
}

DriverRegistry& DriverRegistry::Global() {
  static DriverRegistry* registry = new DriverRegistry;
  return *registry;
}

bool DriverRegistry::Register(const std::string& name, DriverFactory factory,
                              const std::string& origin) {
  std::lock_guard<std::mutex> lock(mu_);
  return entries_.emplace(name, Entry{std::move(factory), origin}).second;
}

bool DriverRegistry::Has(const std::string& name) const {
  std::lock_guard<std::mutex> lock(mu_);
  return entries_.count(name) > 0;
}

std::string DriverRegistry::Origin(const std::string& name) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find(name);
  return it == entries_.end() ? "" : it->second.origin;
}

StatusOr<std::unique_ptr<Driver>> DriverRegistry::Create(const std::string& name) const {
  DriverFactory factory;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = entries_.find(name);
    if (it == entries_.end()) {
      std::string known;
      for (const auto& kv : entries_) known += (known.empty() ? "" : ", ") + kv.first;
      return NotFound("unknown npu driver '" + name + "' (drivers registered: " +
                      (known.empty() ? "none" : known) +
                      "; out-of-tree drivers load from --npu_driver_paths / LITE_NPU_DRIVER_PATH)");
    }
    factory = it->second.factory;
  }
  std::unique_ptr<Driver> driver = factory();
  if (!driver) return Internal("npu driver '" + name + "' failed to create");
  return driver;
}

std::vector<std::string> DriverRegistry::Names() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::string> out;
  for (const auto& kv : entries_) out.push_back(kv.first);
  return out;
}

}  // namespace npu
}  // namespace lite
