// Internal to the naive_buffer package: which vars a .nb file holds weights
// for. Shared by the writer and the reader so both use one list.
//
// Returns pointers into the caller's ProgramDesc (valid while it is alive and
// unmodified).
#pragma once

#include <string>
#include <vector>

#include "lite/base/device_record.h"
#include "lite/base/program_desc.h"
#include "lite/utils/status.h"

namespace lite {
namespace naive_buffer {

// The persistable LoDTensor vars of block 0 (exactly ListParamVars), plus
// those of other blocks whose name is not already listed, sorted by name
// byte-wise. Unimplemented (naming `file` and the var) for a persistable var
// that is not a LoDTensor, feed/fetch lists and READER vars excepted.
Status CollectNbParams(const cpp::ProgramDesc& program, const std::string& file,
                       std::vector<const cpp::VarDesc*>* out);

// Appends little-endian scalars / length-prefixed strings.
void PutU32(uint32_t v, std::string* out);
void PutU64(uint64_t v, std::string* out);

// The string fields of a compiled-subgraph entry (a DeviceRecord's fields),
// in file order: the format's names, for messages.
inline constexpr const char* kCompiledStringNames[] = {
    "key",        "model_digest",   "input_dims",   "driver",      "driver_version",
    "driver_api", "engine_version", "cpu_features", "blob_sha256",
};

}  // namespace naive_buffer
}  // namespace lite
