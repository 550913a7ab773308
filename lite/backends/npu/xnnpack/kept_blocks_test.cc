// KeptBlocks: a freed large block is handed to the next request it fits
// (its pages stay mapped, those past the request given back), the blocks
// held never exceed the most in use at once, small blocks pass through, Reallocate keeps the contents, and the
// process cache's trim frees what is kept; blocks are kept only while a
// KeptBlocksUser (an xnnpack driver) is alive.
#include "lite/backends/npu/xnnpack/kept_blocks.h"

#include <gtest/gtest.h>

#include <cstring>

#include "lite/utils/memory.h"

namespace lite {
namespace npu {
namespace {

constexpr size_t kMb = 1 << 20;

TEST(KeptBlocks, AFreedLargeBlockServesTheNextRequestItFits) {
  KeptBlocksUser user;
  KeptBlocks& b = KeptBlocks::Global();
  void* large = b.Allocate(16 * kMb, 64);
  ASSERT_NE(large, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(large) % 4096, 0u);
  b.Free(large);
  EXPECT_EQ(b.Describe(), "16.0 MB kept, 0.0 MB in use");
  void* smaller = b.Allocate(12 * kMb, 16);
  EXPECT_EQ(smaller, large);  // the kept block, not a new mapping
  // Its last 4 MB went back to the kernel: 12 MB resident.
  EXPECT_EQ(b.Describe(), "0.0 MB kept, 12.0 MB in use");
  b.Free(smaller);
  b.Trim();
  EXPECT_EQ(b.Describe(), "");
}

TEST(KeptBlocks, HeldBytesStayUnderTheMostInUseAtOnce) {
  KeptBlocksUser user;
  KeptBlocks& b = KeptBlocks::Global();
  // 8 + 8 MB in use at once: the mark is 16 MB.
  void* x = b.Allocate(8 * kMb, 64);
  void* y = b.Allocate(8 * kMb, 64);
  b.Free(x);
  b.Free(y);
  // 12 MB fits no kept 8 MB block: both are freed first (8 + 8 + 12 > 16).
  void* z = b.Allocate(12 * kMb, 64);
  EXPECT_EQ(b.Describe(), "0.0 MB kept, 12.0 MB in use");
  b.Free(z);
  // Through the process cache registry, as the memory budget releases.
  TrimProcessCaches();
  EXPECT_EQ(b.Describe(), "");
}

TEST(KeptBlocks, NothingIsKeptWithoutAUserAndTheLastUserTrims) {
  KeptBlocks& b = KeptBlocks::Global();
  void* orphan = b.Allocate(8 * kMb, 64);
  b.Free(orphan);  // no driver alive: straight back
  EXPECT_EQ(b.Describe(), "");
  {
    KeptBlocksUser first;
    void* x = b.Allocate(8 * kMb, 64);
    {
      KeptBlocksUser second;
      b.Free(x);
    }  // one user is still alive: kept
    EXPECT_EQ(b.Describe(), "8.0 MB kept, 0.0 MB in use");
  }  // the last one's going frees it
  EXPECT_EQ(b.Describe(), "");
}

TEST(KeptBlocks, SmallBlocksPassThroughAndReallocateKeepsTheContents) {
  KeptBlocksUser user;
  KeptBlocks& b = KeptBlocks::Global();
  char* small = static_cast<char*>(b.Allocate(1000, 16));
  ASSERT_NE(small, nullptr);
  std::memset(small, 7, 1000);
  EXPECT_EQ(b.Describe(), "");  // not tracked
  char* grown = static_cast<char*>(b.Reallocate(small, 5 * kMb));
  ASSERT_NE(grown, nullptr);
  EXPECT_EQ(grown[0], 7);
  EXPECT_EQ(grown[999], 7);
  EXPECT_EQ(b.Describe(), "0.0 MB kept, 5.0 MB in use");
  char* shrunk = static_cast<char*>(b.Reallocate(grown, 100));
  ASSERT_NE(shrunk, nullptr);
  EXPECT_EQ(shrunk[99], 7);
  b.Free(shrunk);
  b.Trim();
  EXPECT_EQ(b.Describe(), "");
}

}  // namespace
}  // namespace npu
}  // namespace lite
