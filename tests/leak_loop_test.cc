// Create / run / destroy in a loop, for the full predictor, the light
// predictor and clones: the heap in use returns to where it was after the
// first round (glibc's mallinfo2), and under --config=asan LeakSanitizer
// reports any block still unreachable at exit. Needs nothing from ../shared.
#include <malloc.h>

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/robustness/robustness_util.h"

namespace {

using lite::robustness::CreateFromBytes;
using lite::robustness::CreateFromNb;
using lite::robustness::RunDefaultInput;

void OneRound(const lite::robustness::ModelBytes& bytes, const std::string& nb) {
  auto full = CreateFromBytes(bytes);
  ASSERT_TRUE(full.ok()) << full.status().ToString();
  ASSERT_TRUE(RunDefaultInput(full->get(), {2, 3, 32, 32}).ok());
  auto clone = (*full)->Clone();
  ASSERT_TRUE(clone.ok());
  ASSERT_TRUE(RunDefaultInput(clone->get(), {1, 3, 32, 32}).ok());
  auto light = CreateFromNb(nb);
  ASSERT_TRUE(light.ok()) << light.status().ToString();
  ASSERT_TRUE(RunDefaultInput(light->get(), {3, 3, 32, 32}).ok());
  // A failed creation and a failed run must not leak either.
  auto broken = CreateFromNb(nb.substr(0, nb.size() / 2));
  ASSERT_FALSE(broken.ok());
  ASSERT_FALSE(RunDefaultInput(light->get(), {1, 4, 32, 32}).ok());
}

TEST(LeakLoop, HeapInUseDoesNotGrowAcrossCreateRunDestroy) {
  const auto bytes = lite::robustness::DefaultModelBytes();
  const std::string nb = lite::robustness::DefaultModelNb();
  ASSERT_FALSE(nb.empty());
  OneRound(bytes, nb);  // registries, static caches
  OneRound(bytes, nb);
  const size_t before = mallinfo2().uordblks;
  constexpr int kRounds = 30;
  for (int i = 0; i < kRounds; ++i) OneRound(bytes, nb);
  const size_t after = mallinfo2().uordblks;
  // One leaked tensor of the smallest activation (conv output, 1x8x32x32
  // floats = 32 KiB) per round would add ~1 MB; allow allocator noise only.
  EXPECT_LT(after, before + 64 * 1024) << "heap in use grew from " << before << " to " << after
                                       << " bytes over " << kRounds << " rounds";
}

}  // namespace
