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
  std::shared_ptr<Buffer> warm;
  plan->Bind(&warm);
  for (const auto& s : plan->slots()) {
    EXPECT_TRUE(s.tensor->external_memory()) << "a view of the arena";
    EXPECT_GE(s.tensor->buffer_bytes(), s.bytes);
  }
  plan->Unbind();
  for (const auto& s : plan->slots()) EXPECT_EQ(s.tensor->buffer_bytes(), 0u);
}

// Scaled keeps every slot's tensor and lifetime, scales offsets and sizes
// (with 5% headroom), and slots whose lifetimes overlap still get disjoint bytes.
TEST(ArenaPlan, ScaledKeepsOverlappingSlotsApart) {
  Tensor a, b, c;
  ArenaRecorder r;
  r.set_step(0);
  r.Allocated(&a, 1000);
  r.Allocated(&b, 3000);
  r.set_step(1);
  r.Released(&a, true);
  r.Allocated(&c, 999);
  r.Released(&b, true);
  r.Released(&c, true);
  auto plan = ArenaPlan::Plan(r);
  for (double ratio : {0.37, 1.0, 2.9}) {
    SCOPED_TRACE(ratio);
    auto scaled = plan->Scaled(ratio);
    ASSERT_EQ(scaled->slots().size(), plan->slots().size());
    for (size_t i = 0; i < plan->slots().size(); ++i) {
      const auto& s = scaled->slots()[i];
      EXPECT_EQ(s.tensor, plan->slots()[i].tensor);
      EXPECT_EQ(s.first, plan->slots()[i].first);
      EXPECT_EQ(s.offset % 64, 0u);
      EXPECT_GE(s.bytes + 64, static_cast<size_t>(plan->slots()[i].bytes * ratio));
      EXPECT_LE(s.bytes, static_cast<size_t>(plan->slots()[i].bytes * ratio * 1.05) + 128);
      EXPECT_LE(s.offset + s.bytes, scaled->arena_bytes());
      for (const auto& o : scaled->slots()) {
        if (&s == &o || s.first > o.last || o.first > s.last) continue;
        EXPECT_TRUE(s.offset + s.bytes <= o.offset || o.offset + o.bytes <= s.offset);
      }
    }
  }
}

// Bind uses the warm buffer when it is large enough and replaces it when not.
TEST(ArenaPlan, BindUsesTheWarmBufferWhenItFits) {
  Tensor a;
  ArenaRecorder r;
  r.Allocated(&a, 4096);
  r.set_step(1);
  r.Released(&a, true);
  auto plan = ArenaPlan::Plan(r);
  auto warm = std::make_shared<Buffer>(8192);
  const void* data = warm->data();
  plan->Bind(&warm);
  EXPECT_EQ(a.raw_data(), data) << "bound into the warm buffer";
  plan->Unbind();
  auto small = std::make_shared<Buffer>(1024);
  auto bigger = ArenaPlan::Plan(r);
  bigger->Bind(&small);
  EXPECT_GE(small->size(), 4096u) << "a buffer too small is replaced";
  EXPECT_EQ(a.raw_data(), small->data());
  bigger->Unbind();
}

}  // namespace
}  // namespace lite
