#include "lite/utils/memory.h"

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <utility>

#include <unistd.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace lite {
namespace {

struct Registry {
  std::mutex mu;
  std::map<std::string, std::pair<std::function<void()>, std::function<std::string()>>> caches;
};

Registry& GetRegistry() {
  static Registry* r = new Registry;  // never destroyed: trimmers may run at exit
  return *r;
}

}  // namespace

int64_t ProcessRssBytes() {
  // statm's second field (resident pages) is VmRSS; the file is one short
  // line, several times cheaper to read than status.
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return -1;
  long long size = 0, resident = 0;
  const int read = std::fscanf(f, "%lld %lld", &size, &resident);
  std::fclose(f);
  if (read != 2) return -1;
  return resident * static_cast<int64_t>(sysconf(_SC_PAGESIZE));
}

void RegisterProcessCache(const std::string& name, std::function<void()> trim,
                          std::function<std::string()> describe) {
  Registry& r = GetRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  r.caches[name] = {std::move(trim), std::move(describe)};
}

void TrimProcessCaches() {
  Registry& r = GetRegistry();
  {
    std::lock_guard<std::mutex> lock(r.mu);
    for (auto& kv : r.caches) {
      if (kv.second.first) kv.second.first();
    }
  }
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

std::string DescribeProcessCaches() {
  Registry& r = GetRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  std::string out;
  for (auto& kv : r.caches) {
    const std::string d = kv.second.second ? kv.second.second() : "";
    if (d.empty()) continue;
    out += (out.empty() ? "" : "; ") + kv.first + ": " + d;
  }
  return out;
}

int64_t HeapGrowthRoomBytes() {
  // The lowest mapping that starts at or above the current program break
  // bounds how far brk can move the heap's end.
  const uint64_t brk = reinterpret_cast<uintptr_t>(sbrk(0));
  std::FILE* f = std::fopen("/proc/self/maps", "r");
  if (f == nullptr) return -1;
  uint64_t next = 0;
  bool found = false;
  char line[512];
  while (std::fgets(line, sizeof(line), f) != nullptr) {
    uint64_t start = 0;
    if (std::sscanf(line, "%" SCNx64, &start) != 1) continue;
    if (start >= brk && (!found || start < next)) {
      next = start;
      found = true;
    }
  }
  std::fclose(f);
  if (!found) return -1;
  return static_cast<int64_t>(next - brk);
}

void ConfigureHeap() {
#if defined(__GLIBC__)
  static std::once_flag once;
  std::call_once(once, [] {
    // A user's MALLOC_MMAP_THRESHOLD_ / MALLOC_TRIM_THRESHOLD_ (glibc's
    // tunables) win.
    if (std::getenv("MALLOC_MMAP_THRESHOLD_") == nullptr) {
      mallopt(M_MMAP_THRESHOLD, static_cast<int>(kHeapMmapThresholdBytes));
    }
    // With little room above the break (qemu-user 7.2 maps the guest's stack
    // 32 MB above it), the heap's growth falls back to mmap, and glibc 2.36
    // can then return NULL: growing the top with brk again, it frees the old
    // top, and that free's automatic trim hands the new top straight back
    // (docs/memory.md). -1 turns the automatic trim off; malloc_trim still
    // works.
    const int64_t room = HeapGrowthRoomBytes();
    if (room >= 0 && room < kHeapMinGrowthRoomBytes &&
        std::getenv("MALLOC_TRIM_THRESHOLD_") == nullptr) {
      mallopt(M_TRIM_THRESHOLD, -1);
    }
  });
#endif
}

}  // namespace lite
