// SharedBytes (shared_bytes.h): copies share one buffer; every write gives
// the written copy a buffer of its own first, so no other copy sees it.
#include "lite/backends/npu/shared_bytes.h"

#include <gtest/gtest.h>

namespace lite {
namespace npu {
namespace {

TEST(SharedBytes, CopiesShareUntilOneIsWritten) {
  const SharedBytes a(std::vector<uint8_t>{1, 2, 3});
  SharedBytes b = a;
  EXPECT_TRUE(b.SameBuffer(a));
  EXPECT_EQ(b.data(), a.data());
  b.mutable_data()[1] = 9;
  EXPECT_FALSE(b.SameBuffer(a));
  EXPECT_EQ(a, SharedBytes(std::vector<uint8_t>{1, 2, 3}));
  EXPECT_EQ(b, SharedBytes(std::vector<uint8_t>{1, 9, 3}));
  EXPECT_NE(a, b);
}

TEST(SharedBytes, EveryWriteLeavesOtherCopiesAlone) {
  const SharedBytes a(std::vector<uint8_t>{4, 5});
  SharedBytes pushed = a, appended = a, resized = a, cleared = a, assigned = a;
  pushed.push_back(6);
  const uint8_t more[] = {7, 8};
  appended.append(more, more + 2);
  resized.resize(1);
  cleared.clear();
  assigned.assign(more, more + 1);
  EXPECT_EQ(a, SharedBytes(std::vector<uint8_t>{4, 5}));
  EXPECT_EQ(pushed, SharedBytes(std::vector<uint8_t>{4, 5, 6}));
  EXPECT_EQ(appended, SharedBytes(std::vector<uint8_t>{4, 5, 7, 8}));
  EXPECT_EQ(resized, SharedBytes(std::vector<uint8_t>{4}));
  EXPECT_TRUE(cleared.empty());
  EXPECT_EQ(assigned, SharedBytes(std::vector<uint8_t>{7}));
}

TEST(SharedBytes, EqualBytesInOtherBuffersAreEqualNotShared) {
  const SharedBytes a(std::vector<uint8_t>{1, 2}), b(std::vector<uint8_t>{1, 2});
  EXPECT_EQ(a, b);
  EXPECT_FALSE(a.SameBuffer(b));
  EXPECT_FALSE(SharedBytes().SameBuffer(SharedBytes()));
  EXPECT_EQ(SharedBytes(), SharedBytes(std::vector<uint8_t>{}));
}

}  // namespace
}  // namespace npu
}  // namespace lite
