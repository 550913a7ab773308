#include "lite/base/arena_plan.h"

#include <algorithm>

namespace lite {

namespace {
constexpr size_t kAlign = 64;
size_t RoundUp(size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }
}  // namespace

void ArenaRecorder::Allocated(Tensor* t, size_t bytes) {
  auto it = index_.find(t);
  if (it == index_.end()) {
    index_[t] = lives_.size();
    Life l;
    l.tensor = t;
    l.bytes = bytes;
    l.first = step_;
    l.order = static_cast<int>(lives_.size());
    lives_.push_back(l);
    return;
  }
  Life& l = lives_[it->second];
  l.bytes = std::max(l.bytes, bytes);
  if (l.last >= 0) l.unplannable = true;
}

void ArenaRecorder::Released(Tensor* t, bool pooled) {
  auto it = index_.find(t);
  if (it == index_.end()) return;
  Life& l = lives_[it->second];
  if (!pooled) l.unplannable = true;
  l.last = std::max(l.last, step_);
}

std::unique_ptr<ArenaPlan> ArenaPlan::Plan(const ArenaRecorder& recorded) {
  auto plan = std::make_unique<ArenaPlan>();
  std::vector<ArenaRecorder::Life> lives;
  for (const auto& l : recorded.lives()) {
    if (l.last >= 0 && !l.unplannable && l.bytes > 0) lives.push_back(l);
  }
  std::sort(lives.begin(), lives.end(), [](const auto& a, const auto& b) {
    if (a.bytes != b.bytes) return a.bytes > b.bytes;
    return a.order < b.order;
  });
  for (const auto& l : lives) {
    // Byte ranges taken by placed slots whose lifetime overlaps l's, by offset.
    std::vector<std::pair<size_t, size_t>> taken;
    for (const Slot& s : plan->slots_) {
      if (s.first <= l.last && l.first <= s.last) taken.push_back({s.offset, s.offset + RoundUp(s.bytes)});
    }
    std::sort(taken.begin(), taken.end());
    size_t offset = 0;
    const size_t need = RoundUp(l.bytes);
    for (const auto& r : taken) {
      if (offset + need <= r.first) break;
      offset = std::max(offset, r.second);
    }
    plan->slots_.push_back({l.tensor, offset, l.bytes, l.first, l.last});
    plan->arena_bytes_ = std::max(plan->arena_bytes_, offset + need);
    plan->planned_bytes_ += l.bytes;
  }
  return plan;
}

void ArenaPlan::Bind(std::shared_ptr<Buffer>* warm) {
  if (!arena_ && arena_bytes_ > 0) {
    if (!*warm || (*warm)->size() < arena_bytes_) *warm = std::make_shared<Buffer>(arena_bytes_);
    arena_ = *warm;
  }
  for (const Slot& s : slots_) {
    s.tensor->BindArena(arena_, static_cast<char*>(arena_->data()) + s.offset, s.bytes);
  }
}

std::unique_ptr<ArenaPlan> ArenaPlan::Scaled(double ratio) const {
  auto plan = std::make_unique<ArenaPlan>();
  // Offsets and ends are scaled and rounded down to the alignment, one
  // nondecreasing map: for slots that did not overlap, a.offset +
  // RoundUp(a.bytes) <= b.offset, which the map keeps. 5% headroom covers
  // shapes that do not scale exactly (a stride's rounding, a small tensor
  // losing its last 64 bytes to the rounding).
  const double factor = ratio * 1.05;
  auto scale = [factor](size_t n) {
    return static_cast<size_t>(static_cast<double>(n) * factor) / kAlign * kAlign;
  };
  for (const Slot& s : slots_) {
    const size_t offset = scale(s.offset), end = scale(s.offset + RoundUp(s.bytes));
    if (end <= offset) continue;  // nothing left of it: the pool serves it
    plan->slots_.push_back({s.tensor, offset, end - offset, s.first, s.last});
    plan->arena_bytes_ = std::max(plan->arena_bytes_, end);
    plan->planned_bytes_ += end - offset;
  }
  return plan;
}

void ArenaPlan::Unbind() {
  for (const Slot& s : slots_) {
    if (s.tensor->BoundTo(arena_.get())) s.tensor->FreeMemory();
  }
}

}  // namespace lite
