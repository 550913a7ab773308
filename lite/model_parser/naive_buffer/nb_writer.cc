// Writing .nb files (see naive_buffer.h for the layout) and the helpers the
// reader shares with the writer.
#include <algorithm>
#include <cstring>
#include <iterator>
#include <set>

#include "lite/base/version.h"
#include "lite/utils/file_util.h"
#include "lite/model_parser/framework.pb.h"
#include "lite/model_parser/naive_buffer/naive_buffer.h"
#include "lite/model_parser/naive_buffer/nb_params.h"
#include "lite/model_parser/persistable_params.h"
#include "lite/model_parser/proto_convert.h"
#include "lite/model_parser/tensor_io.h"

namespace lite {
namespace naive_buffer {

namespace {
constexpr int kPaddleReaderType = 15;  // VarType::READER

// Overwrites 8 bytes at `pos` with `v` (little-endian).
void PatchU64(size_t pos, uint64_t v, std::string* out) {
  std::memcpy(&(*out)[pos], &v, sizeof(v));
}

Status CheckCompiled(const std::vector<DeviceRecord>& compiled, const std::string& file) {
  for (const DeviceRecord& e : compiled) {
    if (e.fields.size() != std::size(kCompiledStringNames)) {
      return InvalidArgument(file + ": compiled subgraph " + std::to_string(e.id) + " has " +
                             std::to_string(e.fields.size()) + " text fields, the format " +
                             std::to_string(std::size(kCompiledStringNames)));
    }
    for (size_t i = 0; i < std::size(kCompiledStringNames); ++i) {
      if (e.fields[i].size() > kNbMaxCompiledStringSize) {
        return InvalidArgument(file + ": compiled subgraph " + std::to_string(e.id) +
                               ": " + kCompiledStringNames[i] + " is longer than " +
                               std::to_string(kNbMaxCompiledStringSize) + " bytes");
      }
    }
  }
  return Status::OK();
}

void PutCompiled(const std::vector<DeviceRecord>& compiled, std::string* bytes) {
  PutU64(compiled.size(), bytes);
  for (const DeviceRecord& e : compiled) {
    PutU32(static_cast<uint32_t>(e.id), bytes);
    for (const std::string& field : e.fields) {
      PutU32(static_cast<uint32_t>(field.size()), bytes);
      *bytes += field;
    }
    PutU64(e.blob.size(), bytes);
    bytes->append(reinterpret_cast<const char*>(e.blob.data()), e.blob.size());
  }
}

Status SaveImpl(const cpp::ProgramDesc& program, const Scope& scope,
                const std::string& file, std::string* out,
                const std::vector<DeviceRecord>& compiled) {
  if (out == nullptr) return InvalidArgument(file + ": null output buffer");
  RETURN_IF_ERROR(CheckCompiled(compiled, file));
  std::vector<const cpp::VarDesc*> vars;
  RETURN_IF_ERROR(CollectNbParams(program, file, &vars));
  // Check every param before writing anything.
  std::vector<const Tensor*> tensors;
  for (const cpp::VarDesc* v : vars) {
    const Variable* var = scope.FindVar(v->name);
    if (var == nullptr) {
      return NotFound(file + ": persistable var '" + v->name +
                      "' has no variable in the scope");
    }
    const Tensor& t = var->GetTensor();
    Status s = CheckTensorWritable(t, v->name);
    if (!s.ok()) return s.WithContext(file);
    RETURN_IF_ERROR(CheckTensorMatchesVar(t, *v, file));
    tensors.push_back(&t);
  }
  paddle::framework::proto::ProgramDesc pb;
  ProgramToProto(program, &pb);
  const std::string program_bytes = SerializeDeterministic(pb);

  std::string bytes;
  bytes.append(kNbMagic, sizeof(kNbMagic));
  PutU32(compiled.empty() ? kNbFormatVersionPlain : kNbFormatVersion, &bytes);
  const std::string engine = kEngineVersion;
  PutU32(static_cast<uint32_t>(engine.size()), &bytes);
  bytes += engine;
  PutU64(program_bytes.size(), &bytes);
  bytes += program_bytes;
  PutU64(vars.size(), &bytes);
  for (size_t i = 0; i < vars.size(); ++i) {
    PutU32(static_cast<uint32_t>(vars[i]->name.size()), &bytes);
    bytes += vars[i]->name;
    const size_t size_pos = bytes.size();
    PutU64(0, &bytes);  // patched once the record is written
    WriteTensorRecord(*tensors[i], &bytes);
    PatchU64(size_pos, bytes.size() - size_pos - sizeof(uint64_t), &bytes);
  }
  if (!compiled.empty()) PutCompiled(compiled, &bytes);
  PutU32(Fnv1a32(bytes.data(), bytes.size()), &bytes);
  *out = std::move(bytes);
  return Status::OK();
}
}  // namespace

void PutU32(uint32_t v, std::string* out) {
  out->append(reinterpret_cast<const char*>(&v), sizeof(v));
}

void PutU64(uint64_t v, std::string* out) {
  out->append(reinterpret_cast<const char*>(&v), sizeof(v));
}

uint32_t Fnv1a32(const void* data, size_t n) {
  const uint8_t* p = static_cast<const uint8_t*>(data);
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; ++i) {
    h ^= p[i];
    h *= 16777619u;
  }
  return h;
}

Status CollectNbParams(const cpp::ProgramDesc& program, const std::string& file,
                       std::vector<const cpp::VarDesc*>* out) {
  RETURN_IF_ERROR(ListParamVars(program, file, out));
  std::set<std::string> seen;
  for (const cpp::VarDesc* v : *out) seen.insert(v->name);
  for (size_t b = 1; b < program.blocks.size(); ++b) {
    for (const cpp::VarDesc& v : program.blocks[b].vars) {
      if (!v.persistable || seen.count(v.name)) continue;
      if (v.kind == cpp::VarKind::kFeedList || v.kind == cpp::VarKind::kFetchList) continue;
      if (v.kind == cpp::VarKind::kOther && v.raw_type == kPaddleReaderType) continue;
      if (v.kind != cpp::VarKind::kLoDTensor) {
        return Unimplemented(file + ": var '" + v.name + "' of block " + std::to_string(b) +
                             " is persistable but not a LoDTensor; only LoDTensor "
                             "parameters can be saved");
      }
      seen.insert(v.name);
      out->push_back(&v);
    }
  }
  std::sort(out->begin(), out->end(),
            [](const cpp::VarDesc* a, const cpp::VarDesc* b) { return a->name < b->name; });
  return Status::OK();
}

Status SaveToBuffer(const cpp::ProgramDesc& program, const Scope& scope,
                    std::string* out, const std::vector<DeviceRecord>& compiled) {
  return SaveImpl(program, scope, kNbBufferName, out, compiled);
}

Status SaveToFile(const cpp::ProgramDesc& program, const Scope& scope,
                  const std::string& path, const std::vector<DeviceRecord>& compiled) {
  std::string bytes;
  RETURN_IF_ERROR(SaveImpl(program, scope, path, &bytes, compiled));
  return WriteStringToFile(path, bytes);
}

}  // namespace naive_buffer
}  // namespace lite
