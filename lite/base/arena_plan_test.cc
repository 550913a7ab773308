// ArenaPlan: greedy offsets never put two tensors whose lifetimes overlap
// on the same bytes, reuse the bytes of tensors whose lifetimes do not, and
// leave out tensors that were never released or released while shared.
#include "lite/base/arena_plan.h"

#include <gtest/gtest.h>

namespace lite {
namespace {

TEST(ArenaPlan, OverlappingLifetimesGetDisjointBytesAndOthersReuse) {
  Tensor a, b, c, d, never, shared;
  ArenaRecorder r;
  r.set_step(0);
  r.Allocated(&a, 1000);
  r.Allocated(&never, 64);
  r.set_step(1);
  r.Allocated(&b, 3000);
  r.Allocated(&shared, 500);
  r.set_step(2);
  r.Released(&a, true);
  r.Released(&shared, false);  // another tensor still held its buffer
  r.set_step(3);
  r.Allocated(&c, 900);  // after a's last use: may take a's bytes
  r.Released(&b, true);
  r.set_step(4);
  r.Allocated(&d, 2000);  // after b: may take b's bytes
  r.Released(&c, true);
  r.Released(&d, true);
  auto plan = ArenaPlan::Plan(r);
  ASSERT_EQ(plan->slots().size(), 4u);  // a, b, c, d
  for (const auto& s : plan->slots()) {
    EXPECT_NE(s.tensor, &never);
    EXPECT_NE(s.tensor, &shared);
    for (const auto& o : plan->slots()) {
      if (&s == &o || s.first > o.last || o.first > s.last) continue;
      EXPECT_TRUE(s.offset + s.bytes <= o.offset || o.offset + o.bytes <= s.offset)
          << "lifetimes overlap, bytes too";
    }
  }
  EXPECT_EQ(plan->planned_bytes(), 1000u + 3000 + 900 + 2000);
  // Largest live set: b with a (steps 1-2) or b with c (step 3), 64-byte
  // rounded: 3008 + 1024.
  EXPECT_EQ(plan->arena_bytes(), 3008u + 1024);
  plan->Bind();
  for (const auto& s : plan->slots()) {
    EXPECT_TRUE(s.tensor->external_memory()) << "a view of the arena";
    EXPECT_GE(s.tensor->buffer_bytes(), s.bytes);
  }
  plan->Unbind();
  for (const auto& s : plan->slots()) EXPECT_EQ(s.tensor->buffer_bytes(), 0u);
}

}  // namespace
}  // namespace lite
