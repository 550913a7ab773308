// KeptBlocks: the xnnpack driver's large blocks, kept mapped between
// executables (docs/memory.md, "A first sight of a new size").
//
// A new input size on the npu path compiles a new executable: XNNPACK's
// runtime workspace and packed weights (XNNPACK allocates them through the
// allocator the driver gives xnn_initialize) and the driver's boundary
// buffers. Blocks of kHeapMmapThresholdBytes and more are mapped by glibc
// (lite/utils/memory.h) and unmapped on free, so each compile's memory was
// fresh: its pages faulted in and were zeroed by the kernel, most of a first
// sight's extra time. Here a freed large block is kept and handed to the
// next request it fits (the smallest kept block at least that large), its
// pages already resident; the pages past the request go back to the kernel
// (madvise), so a block holds no more resident than its use needs. Bounded:
// the resident bytes in use plus those kept never exceed the most that has
// been in use at once (a request that fits no kept block first frees kept
// ones, the largest first, until it fits under that mark), so a stream of
// sizes holds no more than its largest moment did.
// Registered as a process cache ("xnnpack blocks"): TrimProcessCaches (the
// memory budget's release) frees every kept block and lowers the mark to
// what is in use. Smaller blocks go straight to posix_memalign / free.
//
// Kept only while a user is alive (KeptBlocksUser: every xnnpack driver
// holds one): a block freed while there is none goes straight back, and the
// last user's going frees every kept block, so nothing stays held once the
// predictors on this path are gone.
// Process-wide and thread-safe (every predictor's executables share it).
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace lite {
namespace npu {

class KeptBlocks {
 public:
  static KeptBlocks& Global();

  // At least `bytes`, aligned to `alignment` (a power of two); null when
  // memory is exhausted. The contents are unspecified.
  void* Allocate(size_t bytes, size_t alignment);
  // Keeps a block of Allocate's (large) or frees it; null is a no-op.
  void Free(void* block);
  // realloc for Allocate's blocks (alignment 16): the contents up to the
  // smaller size move; null when memory is exhausted (`block` then stays).
  // A large block whose resident pages hold `bytes` is returned as it is.
  void* Reallocate(void* block, size_t bytes);
  // Frees every kept block.
  void Trim();
  // "N MB kept, M MB in use" ("" when nothing is held).
  std::string Describe() const;
  // KeptBlocksUser's counting; the last RemoveUser trims.
  void AddUser();
  void RemoveUser();

 private:
  KeptBlocks() = default;
  // Frees kept blocks, the largest first, until those in use, those kept
  // and `more` fit under the mark; the mark rises to what is then held
  // (with the lock held).
  void FitUnderMark(size_t more);

  // A large block: its size, and the bytes of it that may be resident
  // (its current or last use, whole pages).
  struct Block {
    void* data = nullptr;
    size_t size = 0, resident = 0;
  };
  mutable std::mutex mu_;
  std::multimap<size_t, Block> kept_;    // size -> block, free for reuse
  std::map<const void*, Block> in_use_;  // large blocks handed out
  // Resident bytes (Block::resident) kept and in use, and the most of both
  // together so far.
  size_t kept_bytes_ = 0, in_use_bytes_ = 0, mark_ = 0;
  int users_ = 0;
};

// While one is alive, KeptBlocks::Global() keeps freed large blocks.
class KeptBlocksUser {
 public:
  KeptBlocksUser() { KeptBlocks::Global().AddUser(); }
  ~KeptBlocksUser() { KeptBlocks::Global().RemoveUser(); }
  KeptBlocksUser(const KeptBlocksUser&) = delete;
  KeptBlocksUser& operator=(const KeptBlocksUser&) = delete;
};

struct KeptBlockDeleter {
  void operator()(float* p) const { KeptBlocks::Global().Free(p); }
};
// `n` floats from KeptBlocks::Global(), uninitialized; throws std::bad_alloc
// when memory is exhausted.
using KeptFloats = std::unique_ptr<float[], KeptBlockDeleter>;
KeptFloats AllocateKeptFloats(size_t n);

}  // namespace npu
}  // namespace lite
