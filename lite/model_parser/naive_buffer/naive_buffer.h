// Naive-buffer models (".nb"): one file holding an optimized program and its
// weights, written by tools/opt and PaddlePredictor::SaveOptimizedModel and
// loaded by the light predictor (MobileConfig). Spec (also docs/nb_format.md),
// all integers little-endian, no padding:
//
//   offset  size  field
//   0       8     magic "LITENB\0\0"
//   8       4     u32 format_version (1, or 2 with compiled subgraphs)
//   12      4     u32 engine_version_size  (<= 256)
//   16      n     engine version string (lite::kEngineVersion of the writer)
//           8     u64 program_size
//           m     serialized paddle.framework.proto.ProgramDesc (all blocks,
//                 ops carrying their picked kernel in attr "__kernel__";
//                 deterministic bytes from ProgramToProto)
//           8     u64 param_count
//           per param, in byte-wise name order:
//             4   u32 name_size, then the name bytes
//             8   u64 record_size, then one LoDTensor record (tensor_io.h)
//           format version 2 only: the compiled subgraphs
//           8     u64 compiled_count
//           per entry, ordered by subgraph id then key:
//             4   i32 subgraph_id
//                 9 strings (u32 size <= 4096, then the bytes): key,
//                 model_digest, input_dims, driver, driver_version,
//                 driver_api, engine_version, cpu_features, blob_sha256
//             8   u64 blob_size, then the blob (the driver's Serialize)
//           4     u32 checksum: FNV-1a 32 over every preceding byte
//   Nothing may follow the checksum.
//
// The params are the persistable LoDTensor vars of every block (block 0 as in
// ListParamVars, then other blocks' ones not already listed). A writer
// writes version 1 unless it has compiled subgraphs to store (version 2), so
// models without them stay readable by older engines; a loader accepts
// format versions 1..kNbFormatVersion and refuses newer ones. The compiled
// entries are only framed here; whether one may be used (key, digest, the
// user's trust) is the subgraph kernel's decision (docs/nb_format.md).
//
// Loading first walks the framing (every length is checked against the bytes
// that remain before anything is allocated), then verifies the checksum, and
// only then parses the program and copies each weight once from the file
// buffer into its tensor. Errors (each names the file, or "<nb buffer>"):
//   InvalidArgument  wrong magic (not a .nb file), format version 0
//   Unimplemented    format version newer than this engine supports
//   DataLoss         truncated file, a length larger than what remains,
//                    trailing bytes, checksum mismatch, a bad record or
//                    program, params missing/extra/duplicated vs. the program
// A load either succeeds completely (program replaced, weights placed in the
// scope and marked persistable) or leaves program and scope untouched. The
// caller owns program, scope and buffers; nothing is cached here.
#pragma once

#include <cstdint>
#include <string>

#include <vector>

#include "lite/base/device_record.h"
#include "lite/base/scope.h"
#include "lite/base/program_desc.h"
#include "lite/utils/status.h"

namespace lite {
namespace naive_buffer {

inline constexpr char kNbMagic[8] = {'L', 'I', 'T', 'E', 'N', 'B', '\0', '\0'};
inline constexpr uint32_t kNbFormatVersion = 2;
// The version of files without compiled subgraphs.
inline constexpr uint32_t kNbFormatVersionPlain = 1;
inline constexpr uint32_t kNbMaxCompiledStringSize = 4096;
inline constexpr uint32_t kNbMaxEngineVersionSize = 256;
inline constexpr const char* kNbBufferName = "<nb buffer>";

// What the header said, for tools and tests.
struct NbInfo {
  uint32_t format_version = 0;
  std::string engine_version;
  uint64_t program_size = 0;
  uint64_t param_count = 0;
  uint64_t compiled_count = 0;  // format version 2
  uint32_t checksum = 0;
};

// FNV-1a 32-bit over `n` bytes.
uint32_t Fnv1a32(const void* data, size_t n);

// Serializes program + params. NotFound when a param has no variable in
// `scope`; InvalidArgument when its tensor cannot be written or disagrees
// with its VarDesc; Unimplemented for persistable vars that are not
// LoDTensors. On error *out is unchanged. `compiled` (non-empty) is stored
// in a version-2 file; InvalidArgument when an entry's string is too long.
Status SaveToBuffer(const cpp::ProgramDesc& program, const Scope& scope,
                    std::string* out, const std::vector<DeviceRecord>& compiled = {});
// As above, then writes `path` through a temporary file + rename.
Status SaveToFile(const cpp::ProgramDesc& program, const Scope& scope,
                  const std::string& path, const std::vector<DeviceRecord>& compiled = {});

// Parses `bytes` (named `name_for_errors` in messages). `info` and
// `compiled` (the file's compiled subgraphs) may be null.
Status LoadFromBuffer(const std::string& bytes, const std::string& name_for_errors,
                      cpp::ProgramDesc* program, Scope* scope, NbInfo* info = nullptr,
                      std::vector<DeviceRecord>* compiled = nullptr);
// Reads `path` whole (one read) and parses it.
Status LoadFromFile(const std::string& path, cpp::ProgramDesc* program, Scope* scope,
                    NbInfo* info = nullptr, std::vector<DeviceRecord>* compiled = nullptr);

// The program of `path` only (framing and checksum checked, weights not
// parsed): for tools that need the feed shapes or op list of an .nb file.
Status LoadProgramFromFile(const std::string& path, cpp::ProgramDesc* program,
                           NbInfo* info = nullptr);

}  // namespace naive_buffer
}  // namespace lite
