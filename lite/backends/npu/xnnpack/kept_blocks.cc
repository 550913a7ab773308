#include "lite/backends/npu/xnnpack/kept_blocks.h"

#include <malloc.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#include "lite/utils/memory.h"

namespace lite {
namespace npu {
namespace {

// Large blocks are page-aligned (any alignment XNNPACK asks for divides it),
// so a kept block serves any later request.
constexpr size_t kPage = 4096;

size_t RoundUp(size_t bytes) { return (bytes + kPage - 1) / kPage * kPage; }

bool Large(size_t bytes, size_t alignment) {
  return bytes >= static_cast<size_t>(kHeapMmapThresholdBytes) && alignment <= kPage;
}

void* Aligned(size_t bytes, size_t alignment) {
  void* p = nullptr;
  const size_t a = std::max(alignment, sizeof(void*));
  return posix_memalign(&p, a, std::max<size_t>(bytes, 1)) == 0 ? p : nullptr;
}

std::string Mb(size_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.1f MB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return buf;
}

}  // namespace

KeptBlocks& KeptBlocks::Global() {
  static KeptBlocks* blocks = [] {
    auto* b = new KeptBlocks;
    RegisterProcessCache(
        "xnnpack blocks", [b] { b->Trim(); }, [b] { return b->Describe(); });
    return b;
  }();
  return *blocks;
}

void* KeptBlocks::Allocate(size_t bytes, size_t alignment) {
  if (!Large(bytes, alignment)) return Aligned(bytes, alignment);
  const size_t used = RoundUp(bytes);
  std::lock_guard<std::mutex> lock(mu_);
  auto it = kept_.lower_bound(bytes);
  if (it != kept_.end()) {
    Block b = it->second;
    kept_.erase(it);
    kept_bytes_ -= b.resident;
    // Pages past what this use needs go back to the kernel (zero-filled if
    // a later, larger use touches them): a large block serving a small
    // request holds no more than the request resident.
    if (b.resident > used) {
      madvise(static_cast<char*>(b.data) + used, b.resident - used, MADV_DONTNEED);
    }
    b.resident = used;
    in_use_[b.data] = b;
    in_use_bytes_ += used;
    FitUnderMark(0);
    return b.data;
  }
  FitUnderMark(used);
  void* p = Aligned(used, kPage);
  if (!p) return nullptr;
  in_use_[p] = Block{p, used, used};
  in_use_bytes_ += used;
  return p;
}

void KeptBlocks::FitUnderMark(size_t more) {
  while (!kept_.empty() && in_use_bytes_ + kept_bytes_ + more > mark_) {
    auto largest = std::prev(kept_.end());
    std::free(largest->second.data);
    kept_bytes_ -= largest->second.resident;
    kept_.erase(largest);
  }
  mark_ = std::max(mark_, in_use_bytes_ + kept_bytes_ + more);
}

void KeptBlocks::Free(void* block) {
  if (!block) return;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = in_use_.find(block);
    if (it != in_use_.end()) {
      in_use_bytes_ -= it->second.resident;
      if (users_ > 0) {
        kept_.emplace(it->second.size, it->second);
        kept_bytes_ += it->second.resident;
      } else {
        mark_ = in_use_bytes_;
      }
      in_use_.erase(it);
      if (users_ > 0) return;
    }
  }
  std::free(block);
}

void* KeptBlocks::Reallocate(void* block, size_t bytes) {
  size_t old = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = block ? in_use_.find(block) : in_use_.end();
    if (it != in_use_.end()) {
      // A large block that holds `bytes` stays (XNNPACK re-sizes its
      // indirection buffers at every setup of another size); its resident
      // pages stay counted as they were, the most it held.
      if (bytes <= it->second.resident) return block;
      old = it->second.resident;
    }
  }
  if (old == 0 && !Large(bytes, 16)) return std::realloc(block, bytes);
  void* p = Allocate(bytes, 16);
  if (!p) return nullptr;
  // A small block came from glibc: its usable size bounds the copy.
  if (block) {
    const size_t have = old > 0 ? old : malloc_usable_size(block);
    std::memcpy(p, block, std::min(have, bytes));
  }
  Free(block);
  return p;
}

void KeptBlocks::Trim() {
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& kv : kept_) std::free(kv.second.data);
  kept_.clear();
  kept_bytes_ = 0;
  mark_ = in_use_bytes_;
}

void KeptBlocks::AddUser() {
  std::lock_guard<std::mutex> lock(mu_);
  ++users_;
}

void KeptBlocks::RemoveUser() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (--users_ > 0) return;
  }
  Trim();
}

std::string KeptBlocks::Describe() const {
  std::lock_guard<std::mutex> lock(mu_);
  if (kept_bytes_ == 0 && in_use_bytes_ == 0) return "";
  return Mb(kept_bytes_) + " kept, " + Mb(in_use_bytes_) + " in use";
}

KeptFloats AllocateKeptFloats(size_t n) {
  void* p = KeptBlocks::Global().Allocate(n * sizeof(float), 64);
  if (!p) throw std::bad_alloc();
  return KeptFloats(static_cast<float*>(p));
}

}  // namespace npu
}  // namespace lite
