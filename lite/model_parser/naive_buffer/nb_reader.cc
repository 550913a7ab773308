// Reading .nb files (see naive_buffer.h): framing walk with bounds checks,
// checksum, then program and weights.
#include <cstdio>
#include <cstring>
#include <iterator>
#include <map>
#include <utility>
#include <vector>

#include "lite/base/version.h"
#include "lite/utils/byte_reader.h"
#include "lite/utils/file_util.h"
#include "lite/model_parser/model_loader.h"
#include "lite/model_parser/naive_buffer/naive_buffer.h"
#include "lite/model_parser/naive_buffer/nb_params.h"
#include "lite/model_parser/persistable_params.h"
#include "lite/model_parser/tensor_io.h"

namespace lite {
namespace naive_buffer {

namespace {

struct Span {
  size_t offset = 0;
  size_t size = 0;
};

struct Framing {
  NbInfo info;
  Span program;
  std::vector<std::pair<std::string, Span>> params;
  std::vector<DeviceRecord> compiled;
};

std::string Hex(const std::string& bytes, size_t n) {
  std::string out;
  char buf[4];
  for (size_t i = 0; i < n && i < bytes.size(); ++i) {
    std::snprintf(buf, sizeof(buf), "%02x", static_cast<uint8_t>(bytes[i]));
    out += buf;
  }
  return out;
}

// A ByteReader that turns every short read into a DataLoss naming the file,
// the field and the offset.
class Walker {
 public:
  Walker(const std::string& bytes, const std::string& file)
      : r_(bytes), file_(file) {}

  size_t offset() const { return r_.offset(); }
  size_t remaining() const { return r_.remaining(); }

  template <typename T>
  Status Pod(const std::string& what, T* v) {
    const size_t at = r_.offset();
    if (!r_.ReadPod(v)) {
      return DataLoss(file_ + ": truncated: " + std::to_string(sizeof(T)) +
                      " bytes needed for " + what + " at offset " + std::to_string(at) +
                      ", only " + std::to_string(r_.remaining()) + " left");
    }
    return Status::OK();
  }

  // Claims `n` bytes (a length read from the file) without copying them.
  Status Claim(uint64_t n, const std::string& what, Span* span) {
    if (n > r_.remaining()) {
      return DataLoss(file_ + ": truncated or corrupt: " + what + " is " +
                      std::to_string(n) + " bytes but only " +
                      std::to_string(r_.remaining()) + " remain at offset " +
                      std::to_string(r_.offset()));
    }
    span->offset = r_.offset();
    span->size = static_cast<size_t>(n);
    r_.Take(span->size);
    return Status::OK();
  }

 private:
  ByteReader r_;
  const std::string& file_;
};

Status CheckHeader(const std::string& bytes, const std::string& file, Walker* w,
                   NbInfo* info) {
  if (bytes.size() < sizeof(kNbMagic)) {
    if (std::memcmp(bytes.data(), kNbMagic, bytes.size()) == 0) {
      return DataLoss(file + ": truncated: " + std::to_string(bytes.size()) +
                      " bytes, shorter than the 8-byte naive-buffer magic");
    }
  }
  if (bytes.size() < sizeof(kNbMagic) ||
      std::memcmp(bytes.data(), kNbMagic, sizeof(kNbMagic)) != 0) {
    return InvalidArgument(file + ": not a naive-buffer (.nb) model: wrong magic (starts with 0x" +
                           Hex(bytes, 8) + ", expected \"LITENB\\0\\0\"); load Paddle " +
                           "models with CxxConfig, or convert them with tools/opt");
  }
  Span magic;
  RETURN_IF_ERROR(w->Claim(sizeof(kNbMagic), "the magic", &magic));
  RETURN_IF_ERROR(w->Pod("the format version", &info->format_version));
  if (info->format_version == 0) {
    return InvalidArgument(file + ": invalid model format version 0");
  }
  uint32_t engine_size = 0;
  Status s = w->Pod("the engine version size", &engine_size);
  Span engine;
  if (s.ok() && engine_size > kNbMaxEngineVersionSize) {
    s = DataLoss(file + ": corrupt: engine version size " + std::to_string(engine_size) +
                 " exceeds " + std::to_string(kNbMaxEngineVersionSize));
  }
  if (s.ok()) s = w->Claim(engine_size, "the engine version", &engine);
  if (s.ok()) info->engine_version = bytes.substr(engine.offset, engine.size);
  // A newer format may lay out the rest differently: refuse it first, with
  // the writer's engine version when it could be read.
  if (info->format_version > kNbFormatVersion) {
    return Unimplemented(
        file + ": model format version " + std::to_string(info->format_version) +
        " is newer than this engine supports (" + std::to_string(kNbFormatVersion) +
        "); re-run opt with engine " + kEngineVersion + " or upgrade" +
        (s.ok() ? " (the file was written by engine " + info->engine_version + ")" : ""));
  }
  return s;
}

// The compiled-subgraph section (format version 2), copied out of `bytes`.
Status WalkCompiled(const std::string& bytes, const std::string& file, Walker* w,
                    Framing* f) {
  RETURN_IF_ERROR(w->Pod("the compiled subgraph count", &f->info.compiled_count));
  // An entry takes at least 48 bytes (id, nine string sizes, blob size).
  const uint64_t count = f->info.compiled_count;
  if (count > w->remaining() / 48) {
    return DataLoss(file + ": truncated or corrupt: compiled subgraph count " +
                    std::to_string(count) + " cannot fit in the " +
                    std::to_string(w->remaining()) + " bytes left at offset " +
                    std::to_string(w->offset()));
  }
  f->compiled.resize(static_cast<size_t>(count));
  for (uint64_t i = 0; i < count; ++i) {
    DeviceRecord& e = f->compiled[i];
    const std::string which = "compiled subgraph #" + std::to_string(i);
    RETURN_IF_ERROR(w->Pod(which + " id", &e.id));
    e.fields.resize(std::size(kCompiledStringNames));
    for (size_t k = 0; k < std::size(kCompiledStringNames); ++k) {
      const std::string what = which + " " + kCompiledStringNames[k];
      uint32_t size = 0;
      Span span;
      RETURN_IF_ERROR(w->Pod(what + " size", &size));
      if (size > kNbMaxCompiledStringSize) {
        return DataLoss(file + ": corrupt: " + what + " is " + std::to_string(size) +
                        " bytes, more than " + std::to_string(kNbMaxCompiledStringSize));
      }
      RETURN_IF_ERROR(w->Claim(size, what, &span));
      e.fields[k] = bytes.substr(span.offset, span.size);
    }
    uint64_t blob_size = 0;
    Span blob;
    RETURN_IF_ERROR(w->Pod(which + " blob size", &blob_size));
    RETURN_IF_ERROR(w->Claim(blob_size, which + " blob", &blob));
    const auto* p = reinterpret_cast<const uint8_t*>(bytes.data()) + blob.offset;
    e.blob.assign(p, p + blob.size);
  }
  return Status::OK();
}

Status WalkFraming(const std::string& bytes, const std::string& file, Framing* f) {
  Walker w(bytes, file);
  RETURN_IF_ERROR(CheckHeader(bytes, file, &w, &f->info));
  RETURN_IF_ERROR(w.Pod("the program size", &f->info.program_size));
  RETURN_IF_ERROR(w.Claim(f->info.program_size, "the program", &f->program));
  RETURN_IF_ERROR(w.Pod("the param count", &f->info.param_count));
  // Each param takes at least 12 bytes (two sizes): bound the count before
  // reserving anything for it.
  const uint64_t count = f->info.param_count;
  if (count > w.remaining() / 12) {
    return DataLoss(file + ": truncated or corrupt: param count " + std::to_string(count) +
                    " cannot fit in the " + std::to_string(w.remaining()) +
                    " bytes left at offset " + std::to_string(w.offset()));
  }
  f->params.reserve(static_cast<size_t>(count));
  for (uint64_t i = 0; i < count; ++i) {
    const std::string which = "param #" + std::to_string(i);
    uint32_t name_size = 0;
    Span name, record;
    RETURN_IF_ERROR(w.Pod(which + " name size", &name_size));
    RETURN_IF_ERROR(w.Claim(name_size, which + " name", &name));
    if (name_size == 0) {
      return DataLoss(file + ": corrupt: " + which + " has an empty name");
    }
    std::string var = bytes.substr(name.offset, name.size);
    uint64_t record_size = 0;
    RETURN_IF_ERROR(w.Pod(which + " ('" + var + "') record size", &record_size));
    RETURN_IF_ERROR(w.Claim(record_size, which + " ('" + var + "') record", &record));
    f->params.emplace_back(std::move(var), record);
  }
  if (f->info.format_version >= 2) RETURN_IF_ERROR(WalkCompiled(bytes, file, &w, f));
  if (w.remaining() < sizeof(uint32_t)) {
    return DataLoss(file + ": truncated: the 4-byte checksum is missing at offset " +
                    std::to_string(w.offset()) + " (" + std::to_string(w.remaining()) +
                    " bytes left)");
  }
  if (w.remaining() > sizeof(uint32_t)) {
    return DataLoss(file + ": corrupt: " + std::to_string(w.remaining() - sizeof(uint32_t)) +
                    " unexpected bytes between the last param and the checksum");
  }
  std::memcpy(&f->info.checksum, bytes.data() + w.offset(), sizeof(uint32_t));
  const uint32_t computed = Fnv1a32(bytes.data(), w.offset());
  if (computed != f->info.checksum) {
    char buf[96];
    std::snprintf(buf, sizeof(buf), "stored 0x%08x, computed 0x%08x", f->info.checksum,
                  computed);
    return DataLoss(file + ": checksum mismatch (" + buf + "): the file is corrupted");
  }
  return Status::OK();
}

}  // namespace

Status LoadFromBuffer(const std::string& bytes, const std::string& file,
                      cpp::ProgramDesc* program, Scope* scope, NbInfo* info,
                      std::vector<DeviceRecord>* compiled) {
  if (program == nullptr || scope == nullptr) {
    return InvalidArgument(file + ": loading needs a non-null program and scope");
  }
  Framing f;
  RETURN_IF_ERROR(WalkFraming(bytes, file, &f));
  auto prog_or = LoadProgramFromBuffer(bytes.substr(f.program.offset, f.program.size),
                                       file + " (program)");
  if (!prog_or.ok()) {
    return DataLoss(prog_or.status().message());
  }
  cpp::ProgramDesc prog = std::move(prog_or).value();
  std::vector<const cpp::VarDesc*> vars;
  RETURN_IF_ERROR(CollectNbParams(prog, file, &vars));
  std::map<std::string, const cpp::VarDesc*> expected;
  for (const cpp::VarDesc* v : vars) expected[v->name] = v;

  std::map<std::string, Tensor> loaded;
  for (const auto& p : f.params) {
    auto it = expected.find(p.first);
    if (it == expected.end()) {
      return DataLoss(file + ": param '" + p.first +
                      "' is not a persistable var of the program");
    }
    if (loaded.count(p.first)) {
      return DataLoss(file + ": param '" + p.first + "' appears twice");
    }
    ByteReader r(bytes.data() + p.second.offset, p.second.size);
    Tensor t;
    RETURN_IF_ERROR(ReadTensorRecord(&r, file, p.first, &t));
    if (!r.AtEnd()) {
      return DataLoss(file + ": var '" + p.first + "': " + std::to_string(r.remaining()) +
                      " trailing bytes inside its record");
    }
    RETURN_IF_ERROR(CheckTensorMatchesVar(t, *it->second, file));
    loaded.emplace(p.first, std::move(t));
  }
  for (const cpp::VarDesc* v : vars) {
    if (!loaded.count(v->name)) {
      return DataLoss(file + ": the program needs param '" + v->name +
                      "' but the file does not hold it");
    }
  }
  for (auto& kv : loaded) {
    Tensor* dst = scope->Var(kv.first)->GetMutableTensor();
    *dst = std::move(kv.second);
    dst->set_persistable(true);
  }
  *program = std::move(prog);
  if (info) *info = f.info;
  if (compiled) *compiled = std::move(f.compiled);
  return Status::OK();
}

Status LoadFromFile(const std::string& path, cpp::ProgramDesc* program, Scope* scope,
                    NbInfo* info, std::vector<DeviceRecord>* compiled) {
  std::string bytes;
  RETURN_IF_ERROR(ReadFileToString(path, &bytes));
  return LoadFromBuffer(bytes, path, program, scope, info, compiled);
}

Status LoadProgramFromFile(const std::string& path, cpp::ProgramDesc* program,
                           NbInfo* info) {
  if (program == nullptr) return InvalidArgument(path + ": null program");
  std::string bytes;
  RETURN_IF_ERROR(ReadFileToString(path, &bytes));
  Framing f;
  RETURN_IF_ERROR(WalkFraming(bytes, path, &f));
  auto prog = LoadProgramFromBuffer(bytes.substr(f.program.offset, f.program.size),
                                    path + " (program)");
  if (!prog.ok()) return DataLoss(prog.status().message());
  *program = std::move(prog).value();
  if (info) *info = f.info;
  return Status::OK();
}

}  // namespace naive_buffer
}  // namespace lite
