#include "lite/utils/memory.h"

#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <utility>

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
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::atoll(line.c_str() + 6) * 1024;
  }
  return -1;
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

void ConfigureHeap() {
#if defined(__GLIBC__)
  static std::once_flag once;
  std::call_once(once, [] {
    // A user's MALLOC_MMAP_THRESHOLD_ (glibc's tunable) wins.
    if (std::getenv("MALLOC_MMAP_THRESHOLD_") == nullptr) {
      mallopt(M_MMAP_THRESHOLD, static_cast<int>(kHeapMmapThresholdBytes));
    }
  });
#endif
}

}  // namespace lite
