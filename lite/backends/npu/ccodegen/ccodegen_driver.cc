#include "lite/backends/npu/ccodegen/ccodegen_driver.h"

#include <cstring>
#include <mutex>

#include "lite/backends/npu/ccodegen/ccodegen_emit.h"
#include "lite/backends/npu/ccodegen/ccodegen_toolchain.h"

namespace lite {
namespace npu {

namespace {

constexpr char kMagic[4] = {'L', 'C', 'C', 'G'};
constexpr uint32_t kFormatVersion = 1;
constexpr size_t kFingerprintChars = 16;

struct Header {
  char magic[4];
  uint32_t format_version;
  uint64_t shared_object_bytes;
  uint64_t weight_bytes;
  uint64_t checksum;  // Fnv1a64 over the shared object, then the weights
  char fingerprint[kFingerprintChars];
};
static_assert(sizeof(Header) == 48, "the serialized header is 48 bytes");

class CcodegenExecutable : public Executable {
 public:
  Model model;  // constants without data: CheckHostTensors needs the operands
  std::string fingerprint;
  std::vector<uint8_t> shared_object;
  std::vector<float> weights;
  std::vector<float> scratch;
  std::unique_ptr<SharedObject> library;
  CcgRunFn run = nullptr;
  std::mutex mu;  // one Execute at a time: the scratch arena is shared
};

uint64_t Checksum(const std::vector<uint8_t>& shared_object, const std::vector<float>& weights) {
  return Fnv1a64(weights.data(), weights.size() * sizeof(float),
                 Fnv1a64(shared_object.data(), shared_object.size()));
}

// Loads exe->shared_object and checks it is the code of exe->fingerprint.
Status Bind(CcodegenExecutable* exe) {
  ASSIGN_OR_RETURN(exe->library, LoadSharedObject(exe->shared_object));
  exe->run = reinterpret_cast<CcgRunFn>(exe->library->Symbol(kCcgRunSymbol));
  const auto* fingerprint = static_cast<const char*>(exe->library->Symbol(kCcgFingerprintSymbol));
  const auto* scratch = static_cast<const long long*>(exe->library->Symbol(kCcgScratchSymbol));
  if (!exe->run || !fingerprint || !scratch) {
    return DataLoss(std::string("ccodegen: the shared object lacks ") + kCcgRunSymbol + ", " +
                    kCcgFingerprintSymbol + " or " + kCcgScratchSymbol);
  }
  if (std::strncmp(fingerprint, exe->fingerprint.c_str(), kFingerprintChars + 1) != 0) {
    return FailedPrecondition("ccodegen: the shared object was built for model " +
                              std::string(fingerprint, strnlen(fingerprint, kFingerprintChars)) +
                              ", not this model (" + exe->fingerprint + ")");
  }
  if (*scratch < 0) return DataLoss("ccodegen: negative scratch size in the shared object");
  exe->scratch.assign(static_cast<size_t>(*scratch), 0.f);
  return Status::OK();
}

std::unique_ptr<CcodegenExecutable> NewExecutable(const Model& model) {
  auto exe = std::make_unique<CcodegenExecutable>();
  exe->model = model;
  for (Operand& o : exe->model.operands) o.data.clear();
  exe->fingerprint = ModelFingerprint(model);
  return exe;
}

}  // namespace

std::string CcodegenDriver::version() const { return kCcodegenVersion; }

Status CcodegenDriver::Supports(const Model& model, const Operation& operation) const {
  return CcodegenSupports(model, operation);
}

StatusOr<std::unique_ptr<Executable>> CcodegenDriver::Compile(const Model& model,
                                                              const CompileOptions&) {
  ASSIGN_OR_RETURN(GeneratedModel generated, GenerateC(model));
  auto exe = NewExecutable(model);
  ASSIGN_OR_RETURN(exe->shared_object, BuildSharedObject(generated.source));
  exe->weights = std::move(generated.weights);
  RETURN_IF_ERROR(Bind(exe.get()));
  return std::unique_ptr<Executable>(std::move(exe));
}

Status CcodegenDriver::Execute(Executable* executable, const std::vector<HostTensor>& inputs,
                               const std::vector<HostTensor>& outputs) {
  auto* exe = dynamic_cast<CcodegenExecutable*>(executable);
  if (!exe) return InvalidArgument("not an executable of the ccodegen driver");
  RETURN_IF_ERROR(CheckHostTensors(exe->model, inputs, outputs));
  std::vector<const float*> in;
  for (const HostTensor& t : inputs) in.push_back(static_cast<const float*>(t.data));
  std::vector<float*> out;
  for (const HostTensor& t : outputs) out.push_back(static_cast<float*>(t.data));
  std::lock_guard<std::mutex> lock(exe->mu);
  const int rc = exe->run(in.data(), out.data(), exe->weights.data(), exe->scratch.data());
  if (rc != 0) return Internal("ccodegen: generated code returned " + std::to_string(rc));
  return Status::OK();
}

StatusOr<std::vector<uint8_t>> CcodegenDriver::Serialize(const Executable& executable) const {
  const auto* exe = dynamic_cast<const CcodegenExecutable*>(&executable);
  if (!exe) return InvalidArgument("not an executable of the ccodegen driver");
  Header h;
  std::memcpy(h.magic, kMagic, sizeof(kMagic));
  h.format_version = kFormatVersion;
  h.shared_object_bytes = exe->shared_object.size();
  h.weight_bytes = exe->weights.size() * sizeof(float);
  h.checksum = Checksum(exe->shared_object, exe->weights);
  std::memcpy(h.fingerprint, exe->fingerprint.data(), kFingerprintChars);
  std::vector<uint8_t> bytes(sizeof(h) + h.shared_object_bytes + h.weight_bytes);
  std::memcpy(bytes.data(), &h, sizeof(h));
  std::memcpy(bytes.data() + sizeof(h), exe->shared_object.data(), h.shared_object_bytes);
  std::memcpy(bytes.data() + sizeof(h) + h.shared_object_bytes, exe->weights.data(), h.weight_bytes);
  return bytes;
}

StatusOr<std::unique_ptr<Executable>> CcodegenDriver::Deserialize(const Model& model,
                                                                  const std::vector<uint8_t>& bytes,
                                                                  const CompileOptions&) {
  Header h;
  if (bytes.size() < sizeof(h)) {
    return DataLoss("ccodegen: " + std::to_string(bytes.size()) +
                    " bytes are too few for a compiled executable");
  }
  std::memcpy(&h, bytes.data(), sizeof(h));
  if (std::memcmp(h.magic, kMagic, sizeof(kMagic)) != 0) {
    return DataLoss("ccodegen: not a compiled executable of the ccodegen driver (bad magic)");
  }
  if (h.format_version != kFormatVersion) {
    return Unimplemented("ccodegen: executable format " + std::to_string(h.format_version) +
                         ", this driver reads format " + std::to_string(kFormatVersion));
  }
  const uint64_t payload = bytes.size() - sizeof(h);
  if (h.shared_object_bytes > payload || h.weight_bytes != payload - h.shared_object_bytes ||
      h.weight_bytes % sizeof(float) != 0) {
    return DataLoss("ccodegen: sizes in the header (" + std::to_string(h.shared_object_bytes) + " + " +
                    std::to_string(h.weight_bytes) + ") do not match the " + std::to_string(payload) +
                    " bytes that follow it");
  }
  auto exe = NewExecutable(model);
  if (std::string(h.fingerprint, kFingerprintChars) != exe->fingerprint) {
    return FailedPrecondition("ccodegen: the executable was compiled for model " +
                              std::string(h.fingerprint, kFingerprintChars) + ", not this model (" +
                              exe->fingerprint + ")");
  }
  const uint8_t* so = bytes.data() + sizeof(h);
  exe->shared_object.assign(so, so + h.shared_object_bytes);
  exe->weights.resize(h.weight_bytes / sizeof(float));
  std::memcpy(exe->weights.data(), so + h.shared_object_bytes, h.weight_bytes);
  if (Checksum(exe->shared_object, exe->weights) != h.checksum) {
    return DataLoss("ccodegen: checksum mismatch: the compiled executable is corrupt");
  }
  const std::vector<float> expected = PackWeights(model);
  if (expected.size() != exe->weights.size() ||
      std::memcmp(expected.data(), exe->weights.data(), h.weight_bytes) != 0) {
    return FailedPrecondition("ccodegen: the stored weights differ from the model's constants");
  }
  RETURN_IF_ERROR(Bind(exe.get()));
  return std::unique_ptr<Executable>(std::move(exe));
}

}  // namespace npu
}  // namespace lite

REGISTER_NPU_DRIVER(ccodegen, lite::npu::CcodegenDriver);
