#include "lite/backends/npu/plugin/plugin_driver.h"

#include <cstddef>
#include <cstdint>
#include <algorithm>

#include "lite/backends/npu/plugin/abi_model.h"
#include "lite/utils/logging.h"

namespace lite {
namespace npu {

namespace {

constexpr size_t kMessageSize = 1024;
// The struct as ABI 1.0 defines it ends after `destroy`.
constexpr size_t kAbi10StructSize = offsetof(lite_npu_driver, destroy) + sizeof(void (*)());
// ABI 1.1 adds serialize, deserialize and cpu_features.
constexpr size_t kAbi11StructSize =
    offsetof(lite_npu_driver, cpu_features) + sizeof(const char*);
// Larger serialized executables are refused (a plugin reporting a huge size
// must not make the engine allocate it).
constexpr size_t kMaxSerializedBytes = size_t{1} << 31;

// A plugin's message, cut at the buffer's end and with control bytes
// replaced, so garbage cannot garble the engine's output.
std::string DimsText(const int64_t* dims, size_t rank) {
  std::string s = "[";
  for (size_t r = 0; r < rank; ++r) s += (r ? ", " : "") + std::to_string(dims[r]);
  return s + "]";
}

std::string Message(const char* buffer) {
  std::string out;
  for (size_t i = 0; i + 1 < kMessageSize && buffer[i]; ++i) {
    const unsigned char c = static_cast<unsigned char>(buffer[i]);
    out += (c < 0x20 || c == 0x7f) ? '?' : static_cast<char>(c);
  }
  return out.empty() ? "(no message)" : out;
}

class PluginExecutable : public Executable {
 public:
  PluginExecutable(lite_npu_driver* owner, lite_npu_executable* handle)
      : owner(owner), handle(handle) {}
  ~PluginExecutable() override { owner->destroy_executable(owner, handle); }
  lite_npu_driver* owner;
  lite_npu_executable* handle;
  Model model;  // operand dims and names, for checking inputs and outputs
};

}  // namespace

Status CheckInstance(const lite_npu_driver* d) {
  if (d->struct_size < kAbi10StructSize) {
    return InvalidArgument("driver struct_size " + std::to_string(d->struct_size) +
                           " is smaller than ABI 1.0's " + std::to_string(kAbi10StructSize));
  }
  if (!d->name || !*d->name) return InvalidArgument("driver has no name");
  for (const char* c = d->name; *c; ++c) {
    if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_') ||
        c - d->name >= 64) {
      return InvalidArgument("driver name must be 1-64 characters of [a-z0-9_]");
    }
  }
  const char* missing = !d->supports ? "supports" : !d->compile ? "compile"
                        : !d->execute ? "execute" : !d->destroy_executable ? "destroy_executable"
                        : !d->destroy ? "destroy" : nullptr;
  if (missing) return InvalidArgument(std::string("driver function ") + missing + " is NULL");
  return Status::OK();
}

std::unique_ptr<Driver> PluginDriver::Create(const std::shared_ptr<const PluginLibrary>& lib) {
  lite_npu_driver* instance = lib->create();
  if (!instance) {
    LogMessage(LogSeverity::kWarning,
               "npu: plugin " + lib->path + ": lite_npu_driver_create returned NULL");
    return nullptr;
  }
  Status s = CheckInstance(instance);
  if (!s.ok()) {
    LogMessage(LogSeverity::kWarning, "npu: plugin " + lib->path + ": " + s.message());
    if (instance->destroy) instance->destroy(instance);
    return nullptr;
  }
  return std::make_unique<PluginDriver>(lib, instance);
}

PluginDriver::PluginDriver(std::shared_ptr<const PluginLibrary> library, lite_npu_driver* instance)
    : library_(std::move(library)), instance_(instance) {}

PluginDriver::~PluginDriver() { instance_->destroy(instance_); }

Status PluginDriver::FromPlugin(int32_t code, const char* call, const char* message) const {
  const std::string what = "plugin " + library_->name + " " + call + ": ";
  switch (code) {
    case LITE_NPU_STATUS_OK: return Status::OK();
    case LITE_NPU_STATUS_UNSUPPORTED: return Unimplemented(what + Message(message));
    case LITE_NPU_STATUS_INVALID_ARGUMENT: return InvalidArgument(what + Message(message));
    case LITE_NPU_STATUS_INTERNAL: return Internal(what + Message(message));
    default:
      return Internal(what + "returned unknown status " + std::to_string(code) + " (" +
                      Message(message) + ")");
  }
}

Status PluginDriver::Supports(const Model& model, const Operation& operation) const {
  size_t index = model.operations.size();
  for (size_t i = 0; i < model.operations.size(); ++i) {
    if (&model.operations[i] == &operation) index = i;
  }
  if (index == model.operations.size()) {
    return InvalidArgument("plugin " + library_->name + ": operation is not part of the model");
  }
  AbiModel abi(model);
  char message[kMessageSize] = {0};
  int32_t code = instance_->supports(instance_, abi.get(), index, message, kMessageSize);
  return FromPlugin(code, "supports", message);
}

StatusOr<std::unique_ptr<Executable>> PluginDriver::Compile(const Model& model,
                                                            const CompileOptions& options) {
  std::string invalid = model.Validate(/*check_mode=*/false);
  if (!invalid.empty()) return InvalidArgument("invalid model: " + invalid);
  AbiModel abi(model);
  lite_npu_compile_options abi_options{};
  abi_options.threads = options.threads < 1 ? 1 : options.threads;
  lite_npu_executable* handle = nullptr;
  char message[kMessageSize] = {0};
  int32_t code =
      instance_->compile(instance_, abi.get(), &abi_options, &handle, message, kMessageSize);
  // On failure a handle the plugin may have set anyway is not ours to free.
  RETURN_IF_ERROR(FromPlugin(code, "compile", message));
  return Adopt(model, handle, "compile");
}

StatusOr<std::unique_ptr<Executable>> PluginDriver::Adopt(const Model& model,
                                                          lite_npu_executable* handle,
                                                          const char* call) {
  if (!handle) {
    return Internal("plugin " + library_->name + " " + call +
                    ": returned OK but no executable");
  }
  auto exe = std::make_unique<PluginExecutable>(instance_, handle);
  exe->model.operands = model.operands;
  for (Operand& o : exe->model.operands) o.data.clear();  // only dims and names are needed
  exe->model.inputs = model.inputs;
  exe->model.outputs = model.outputs;
  return std::unique_ptr<Executable>(std::move(exe));
}

bool PluginDriver::can_serialize() const {
  return instance_->struct_size >= kAbi11StructSize && instance_->serialize &&
         instance_->deserialize;
}

std::string PluginDriver::cpu_features() const {
  if (instance_->struct_size >= kAbi11StructSize && instance_->cpu_features) {
    return Message(instance_->cpu_features);
  }
  return HostCpuFeatures();
}

StatusOr<std::vector<uint8_t>> PluginDriver::Serialize(const Executable& executable) const {
  if (!can_serialize()) return Driver::Serialize(executable);
  const auto* exe = dynamic_cast<const PluginExecutable*>(&executable);
  if (!exe || exe->owner != instance_) {
    return InvalidArgument("not an executable of plugin driver " + library_->name);
  }
  char message[kMessageSize] = {0};
  size_t size = SIZE_MAX;
  RETURN_IF_ERROR(FromPlugin(
      instance_->serialize(instance_, exe->handle, nullptr, 0, &size, message, kMessageSize),
      "serialize", message));
  if (size == SIZE_MAX || size > kMaxSerializedBytes) {
    return Internal("plugin " + library_->name + " serialize: reports no or an oversized size");
  }
  std::vector<uint8_t> bytes(size);
  size_t written = SIZE_MAX;
  RETURN_IF_ERROR(FromPlugin(instance_->serialize(instance_, exe->handle, bytes.data(),
                                                  bytes.size(), &written, message, kMessageSize),
                             "serialize", message));
  if (written != size) {
    return Internal("plugin " + library_->name + " serialize: wrote " +
                    (written == SIZE_MAX ? std::string("an unreported count of")
                                         : std::to_string(written)) +
                    " bytes after announcing " + std::to_string(size));
  }
  return bytes;
}

StatusOr<std::unique_ptr<Executable>> PluginDriver::Deserialize(
    const Model& model, const std::vector<uint8_t>& bytes, const CompileOptions& options) {
  if (!can_serialize()) return Driver::Deserialize(model, bytes, options);
  std::string invalid = model.Validate(/*check_mode=*/false);
  if (!invalid.empty()) return InvalidArgument("invalid model: " + invalid);
  AbiModel abi(model);
  lite_npu_compile_options abi_options{};
  abi_options.threads = options.threads < 1 ? 1 : options.threads;
  lite_npu_executable* handle = nullptr;
  char message[kMessageSize] = {0};
  int32_t code = instance_->deserialize(instance_, abi.get(), bytes.data(), bytes.size(),
                                        &abi_options, &handle, message, kMessageSize);
  RETURN_IF_ERROR(FromPlugin(code, "deserialize", message));
  return Adopt(model, handle, "deserialize");
}

Status PluginDriver::Execute(Executable* executable, const std::vector<HostTensor>& inputs,
                             const std::vector<HostTensor>& outputs) {
  auto* exe = dynamic_cast<PluginExecutable*>(executable);
  if (!exe || exe->owner != instance_) {
    return InvalidArgument("not an executable of plugin driver " + library_->name);
  }
  RETURN_IF_ERROR(CheckHostTensors(exe->model, inputs, outputs));
  std::vector<lite_npu_input> ins;
  for (const HostTensor& t : inputs) ins.push_back({t.data, t.bytes, t.dims.data(), t.dims.size()});
  // Sentinels: a plugin that does not report what it wrote fails the checks.
  std::vector<std::vector<int64_t>> dims;
  for (int idx : exe->model.outputs) {
    dims.emplace_back(std::max<size_t>(LITE_NPU_MAX_RANK, exe->model.operands[idx].dims.size()),
                      -1);
  }
  std::vector<lite_npu_output> outs;
  for (size_t i = 0; i < outputs.size(); ++i) {
    outs.push_back({outputs[i].data, outputs[i].bytes, SIZE_MAX, dims[i].data(), SIZE_MAX});
  }
  char message[kMessageSize] = {0};
  int32_t code = instance_->execute(instance_, exe->handle, ins.data(), ins.size(), outs.data(),
                                    outs.size(), message, kMessageSize);
  RETURN_IF_ERROR(FromPlugin(code, "execute", message));
  for (size_t i = 0; i < outs.size(); ++i) {
    const Operand& o = exe->model.operands[exe->model.outputs[i]];
    const size_t expected = static_cast<size_t>(o.numel()) * ElementSize(o.type);
    const std::string which = "plugin " + library_->name + " execute: output " +
                              std::to_string(i) + " (" + o.name + ")";
    if (outs[i].bytes_written != expected) {
      return Internal(which + " reports " +
                      (outs[i].bytes_written == SIZE_MAX ? std::string("no")
                                                         : std::to_string(outs[i].bytes_written)) +
                      " bytes written, expected " + std::to_string(expected));
    }
    if (outs[i].rank != o.dims.size() ||
        !std::equal(o.dims.begin(), o.dims.end(), dims[i].begin())) {
      const size_t shown = std::min<size_t>(outs[i].rank, LITE_NPU_MAX_RANK);
      return Internal(which + " reports shape " + DimsText(dims[i].data(), shown) + " (rank " +
                      (outs[i].rank == SIZE_MAX ? std::string("unset")
                                                : std::to_string(outs[i].rank)) +
                      "), expected " + DimsText(o.dims.data(), o.dims.size()));
    }
  }
  return Status::OK();
}

}  // namespace npu
}  // namespace lite
