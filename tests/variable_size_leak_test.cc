// 200 calls over 40 input sizes on one predictor per path (host, x86, NPU
// through xnnpack, and host with a memory limit): the heap in use after the second 100 calls is where it
// was after the first 100 (glibc's mallinfo2: per-shape state is bounded,
// the LRU's evictions free what they drop), and under --config=asan
// (tools/test.sh's ASan subset) LeakSanitizer reports any block still
// unreachable at exit. Small inputs (16..72 pixels a side) keep it quick
// under ASan. Needs nothing from ../shared.
#include <malloc.h>

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "lite/api/paddle_api.h"
#include "lite/model_parser/model_saver.h"
#include "lite/utils/memory.h"
#include "tools/default_model.h"

namespace {

using namespace paddle::lite_api;  // NOLINT

constexpr int kCalls = 200;
constexpr int kSizes = 40;

// Call i runs H = 16 + 8 (7i mod 8), W = 16 + 8 (3i mod 5): every run of 40
// calls covers the 40 sizes once, in a scattered order.
void RunCalls(PaddlePredictor* p, int from, int to) {
  static_assert(kSizes == 8 * 5, "the H and W cycles above");
  for (int call = from; call < to; ++call) {
    const int h = 16 + 8 * ((call * 7) % 8), w = 16 + 8 * ((call * 3) % 5);
    const int64_t n = 3LL * h * w;
    auto in = p->GetInput(0);
    in->Resize({1, 3, h, w});
    ASSERT_TRUE(in->CopyFromCpu(lite::tools::LcgUniform(n, call, -1, 1).data(), n).ok());
    Status s = p->Run();
    ASSERT_TRUE(s.ok()) << "call " << call << " " << h << "x" << w << ": " << s.ToString();
  }
}

std::shared_ptr<PaddlePredictor> Create(const std::vector<Place>& places, int limit_mb) {
  lite::tools::DefaultModel m = lite::tools::MakeDefaultModel();
  std::string model, params;
  EXPECT_TRUE(lite::SaveCombinedModelToBuffers(m.program, *m.scope, &model, &params).ok());
  CxxConfig config;
  config.set_model_buffer(model.data(), model.size(), params.data(), params.size());
  config.set_valid_places(places);
  if (places.front().target == lite::TargetType::kNPU) config.set_npu_driver("xnnpack");
  config.set_memory_limit_mb(limit_mb);
  auto p = CreatePaddlePredictor<CxxConfig>(config);
  EXPECT_TRUE(p.ok()) << p.status().ToString();
  return p.ok() ? *p : nullptr;
}

void Soak(const std::vector<Place>& places, int limit_mb) {
  std::shared_ptr<PaddlePredictor> p = Create(places, limit_mb);
  ASSERT_NE(p, nullptr);
  // Both measurements after whole cycles of the 40 sizes: the per-shape
  // caches then hold the same shapes (how many NPU executables are kept
  // depends on which sizes ran last).
  constexpr int kFrom = kCalls / 2 / kSizes * kSizes + kSizes;
  RunCalls(p.get(), 0, kFrom);
  const size_t before = mallinfo2().uordblks;
  RunCalls(p.get(), kFrom, kCalls);
  const size_t after = mallinfo2().uordblks;
  // The same 40 sizes again: nothing per call or per size may pile up. A
  // leaked 1x8x16x16 conv output per call would add 800 KB over 100 calls.
  EXPECT_LT(after, before + 256 * 1024) << "heap in use grew from " << before << " to " << after
                                        << " bytes over " << kCalls - kFrom << " calls";
}

TEST(VariableSizeLeak, Host) { Soak({Place(lite::TargetType::kHost)}, 0); }

TEST(VariableSizeLeak, HostWithAMemoryLimit) {
  // The budget's estimate and checks run on every new size; 64 MB above what
  // the process holds leaves room for these small runs (none is refused).
  const int held_mb = static_cast<int>(lite::ProcessRssBytes() / (1024 * 1024));
  Soak({Place(lite::TargetType::kHost)}, held_mb + 64);
}

#if defined(__x86_64__)
TEST(VariableSizeLeak, X86) {
  Soak({Place(lite::TargetType::kX86), Place(lite::TargetType::kHost)}, 0);
}
#endif

TEST(VariableSizeLeak, NpuXnnpack) {
  Soak({Place(lite::TargetType::kNPU), Place(lite::TargetType::kHost)}, 0);
}

}  // namespace
