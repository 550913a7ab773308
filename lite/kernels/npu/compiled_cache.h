// The compiled-subgraph cache directory (NpuOptions::cache_dir): one file
// per key, "<dir>/<key>.npuc", holding a driver's serialized executable.
// For shapes not known when opt ran; keyed exactly like the .nb section
// (lite/backends/npu/compiled_key.h), so a file can only be found by the
// subgraph, driver, engine and CPU it was compiled for.
//
// File layout (little-endian): magic "LITENPUC", u32 version (1), u32 key
// size + key, u32 digest size + SHA-256 hex of the blob, u64 blob size +
// blob; nothing after. Writes go to a name unique to the process and call
// and are renamed into place, so concurrent writers (threads or processes)
// never expose a partial file and the last rename wins with equal bytes.
// Readers check everything; a bad file is reported, never trusted. Owns
// nothing; the caller decides (trust) whether to read at all.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lite/utils/status.h"

namespace lite {
namespace npu {

// "<dir>/<key>.npuc".
std::string CachedCompiledPath(const std::string& dir, const std::string& key);
// Creates `dir` when missing; InvalidArgument when it exists as a file.
Status PrepareCompiledCacheDir(const std::string& dir);
// The blob stored for `key`. NotFound when there is no file; DataLoss
// naming the file when it is truncated, foreign or its digest is wrong.
StatusOr<std::vector<uint8_t>> ReadCachedCompiled(const std::string& dir, const std::string& key);
// Stores `blob` for `key` atomically (temporary name + rename).
Status WriteCachedCompiled(const std::string& dir, const std::string& key,
                           const std::vector<uint8_t>& blob);

}  // namespace npu
}  // namespace lite
