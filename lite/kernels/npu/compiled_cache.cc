#include "lite/kernels/npu/compiled_cache.h"

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "lite/backends/npu/nn_ir_codec.h"
#include "lite/utils/byte_reader.h"
#include "lite/utils/file_util.h"

namespace lite {
namespace npu {

namespace {
constexpr char kMagic[8] = {'L', 'I', 'T', 'E', 'N', 'P', 'U', 'C'};
constexpr uint32_t kVersion = 1;

template <typename T>
void Put(T v, std::string* out) {
  out->append(reinterpret_cast<const char*>(&v), sizeof(v));
}
}  // namespace

std::string CachedCompiledPath(const std::string& dir, const std::string& key) {
  return JoinPath(dir, key + ".npuc");
}

Status PrepareCompiledCacheDir(const std::string& dir) {
  // mkdir first, then look: predictors creating the same directory at once
  // all succeed (checking first, one saw the directory another had just
  // made as "exists and is not a directory").
  if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) {
    return NotFound("cannot create npu cache dir '" + dir + "': " + std::strerror(errno));
  }
  if (!IsDirectory(dir)) {
    return InvalidArgument("npu cache dir '" + dir + "' exists and is not a directory");
  }
  return Status::OK();
}

StatusOr<std::vector<uint8_t>> ReadCachedCompiled(const std::string& dir,
                                                  const std::string& key) {
  const std::string path = CachedCompiledPath(dir, key);
  std::string bytes;
  RETURN_IF_ERROR(ReadFileToString(path, &bytes));
  ByteReader r(bytes);
  const uint8_t* magic = r.Take(sizeof(kMagic));
  uint32_t version = 0, key_size = 0, digest_size = 0;
  if (!magic || std::memcmp(magic, kMagic, sizeof(kMagic)) != 0 || !r.ReadPod(&version) ||
      version != kVersion) {
    return DataLoss(path + ": not a compiled-subgraph cache file (magic or version)");
  }
  const uint8_t* stored_key = nullptr;
  const uint8_t* digest = nullptr;
  const uint8_t* blob = nullptr;
  uint64_t blob_size = 0;
  if (!r.ReadPod(&key_size) || key_size > r.remaining() ||
      !(stored_key = r.Take(key_size)) || !r.ReadPod(&digest_size) ||
      digest_size > r.remaining() || !(digest = r.Take(digest_size)) ||
      !r.ReadPod(&blob_size) || blob_size != r.remaining() ||
      (blob_size > 0 && !(blob = r.Take(static_cast<size_t>(blob_size))))) {
    return DataLoss(path + ": truncated or corrupt compiled-subgraph cache file");
  }
  if (std::string(reinterpret_cast<const char*>(stored_key), key_size) != key) {
    return DataLoss(path + ": holds the entry of another key");
  }
  std::vector<uint8_t> out(blob, blob + blob_size);
  if (Sha256Hex(out.data(), out.size()) != std::string(reinterpret_cast<const char*>(digest), digest_size)) {
    return DataLoss(path + ": compiled bytes are corrupt (SHA-256 mismatch)");
  }
  return out;
}

Status WriteCachedCompiled(const std::string& dir, const std::string& key,
                           const std::vector<uint8_t>& blob) {
  std::string bytes(kMagic, sizeof(kMagic));
  Put<uint32_t>(kVersion, &bytes);
  Put<uint32_t>(static_cast<uint32_t>(key.size()), &bytes);
  bytes += key;
  const std::string digest = Sha256Hex(blob.data(), blob.size());
  Put<uint32_t>(static_cast<uint32_t>(digest.size()), &bytes);
  bytes += digest;
  Put<uint64_t>(blob.size(), &bytes);
  bytes.append(reinterpret_cast<const char*>(blob.data()), blob.size());
  // Unique per process and call: no two writers share a temporary file.
  static std::atomic<uint64_t> counter{0};
  const std::string tmp = JoinPath(dir, "." + key + "." + std::to_string(::getpid()) + "." +
                                            std::to_string(counter++) + ".tmp");
  RETURN_IF_ERROR(WriteStringToFile(tmp, bytes));
  const std::string path = CachedCompiledPath(dir, key);
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    std::remove(tmp.c_str());
    return Internal("cannot rename '" + tmp + "' to '" + path + "': " + std::strerror(err));
  }
  return Status::OK();
}

}  // namespace npu
}  // namespace lite
