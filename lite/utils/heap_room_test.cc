// ConfigureHeap where a mapping lies close above the program break, as
// qemu-user 7.2 maps an emulated program's stack 32 MB above it: the engine's
// allocation pattern (64-byte aligned blocks of 64 KB to 4 MB, freed and
// allocated again) must keep getting memory once the heap has to grow past
// that mapping. glibc 2.36 with the 4 MB mmap threshold and its automatic
// trim returns NULL there after a few dozen blocks (lite/utils/memory.cc);
// running this test with MALLOC_TRIM_THRESHOLD_=131072 (which ConfigureHeap
// leaves alone) shows that failure. Its own binary: ConfigureHeap changes
// the process's allocator once.
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "lite/utils/memory.h"

namespace {

#if defined(__GLIBC__)
TEST(HeapRoom, AllocationsKeepSucceedingPastAMappingAboveTheBreak) {
  // A page 16 MB above the break (qemu-user's own stack may already be
  // there: EEXIST is the same situation).
  const uintptr_t wall = (reinterpret_cast<uintptr_t>(sbrk(0)) + (16 << 20)) & ~uintptr_t{4095};
  void* page = mmap(reinterpret_cast<void*>(wall), 4096, PROT_NONE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  ASSERT_TRUE(page == reinterpret_cast<void*>(wall) || (page == MAP_FAILED && errno == EEXIST))
      << "could not map the page above the break: errno " << errno;
  const int64_t room = lite::HeapGrowthRoomBytes();
  ASSERT_GE(room, 0) << "/proc/self/maps unreadable";
  ASSERT_LT(room, lite::kHeapMinGrowthRoomBytes);

  lite::ConfigureHeap();

  // Blocks as lite::Buffer allocates them; 200 live at a time, 40 MB on
  // average, so the heap outgrows the 16 MB below the page.
  std::vector<void*> live(200, nullptr);
  uint32_t state = 1;
  auto next = [&state] {
    state = state * 1103515245u + 12345u;
    return state >> 8;
  };
  for (int round = 0; round < 20000; ++round) {
    const size_t slot = next() % live.size();
    std::free(live[slot]);
    const size_t bytes = (65536 + next() % (4u << 20) + 63) / 64 * 64;
    live[slot] = std::aligned_alloc(64, bytes);
    ASSERT_NE(live[slot], nullptr) << "round " << round << ": " << bytes << " bytes";
    std::memset(live[slot], 1, 4096);
  }
  for (void* p : live) std::free(p);
}
#endif

}  // namespace
