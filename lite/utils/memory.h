// Process memory: what the memory budget (ConfigBase::set_memory_limit_mb,
// docs/memory.md) measures and what it can give back.
//
// - ProcessRssBytes reads the resident set (VmRSS, from /proc/self/statm).
// - Process-wide caches that keep per-shape state outside any predictor
//   (oneDNN's primitive cache) register a trimmer here; TrimProcessCaches
//   runs them all, then hands the heap's free pages back to the kernel
//   (malloc_trim), which glibc otherwise keeps after a large input's
//   activations are freed.
// - ConfigureHeap (called once by every predictor's creation) makes glibc
//   serve blocks of 4 MB and more with mmap and unmap them on free: without
//   it glibc raises its mmap threshold after the first large free, and the
//   activations of every new input size land in the heap, whose holes no
//   later size fits exactly, so RSS grows with the number of sizes seen.
//   Where a mapping lies close above the program break (under qemu-user
//   7.2 the guest's stack, 32 MB up), it also turns glibc's automatic heap
//   trim off: past that mapping glibc 2.36 can fail an allocation that
//   there is memory for (memory.cc says how).
//
// Thread-safe. Layer 0: backends register without knowing the predictor.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace lite {

// VmRSS of this process in bytes; -1 when /proc/self/status is unreadable.
int64_t ProcessRssBytes();

// A cache outside the predictors: `trim` drops what it holds (it may keep
// working afterwards), `describe` says what it holds now ("" when nothing).
// Registering a name again replaces the earlier entry.
void RegisterProcessCache(const std::string& name, std::function<void()> trim,
                          std::function<std::string()> describe);
// Runs every registered trimmer, then malloc_trim(0).
void TrimProcessCaches();
// "name: description; ..." of the registered caches.
std::string DescribeProcessCaches();

// The mmap threshold and trim setting described above (idempotent; glibc
// only).
void ConfigureHeap();
inline constexpr int64_t kHeapMmapThresholdBytes = 4 << 20;
// Bytes between the program break and the next mapping above it (from
// /proc/self/maps); -1 when unknown. Under this, ConfigureHeap turns the
// automatic trim off; a process on 64-bit Linux has terabytes.
int64_t HeapGrowthRoomBytes();
inline constexpr int64_t kHeapMinGrowthRoomBytes = int64_t{1} << 30;

}  // namespace lite
