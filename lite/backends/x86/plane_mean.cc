#include "lite/backends/x86/plane_mean.h"

#include <algorithm>

#include "lite/backends/x86/omp_ranges.h"

namespace lite {
namespace x86 {

void PlaneMeanNhwc(const float* x, int64_t n, int64_t pixels, int64_t c, float* out,
                   int threads) {
  // Channels in blocks of 64 per task: each task walks every pixel of its
  // block (64 floats: four cache lines), adding into its own sums.
  constexpr int64_t kBlock = 64;
  const int64_t blocks = (c + kBlock - 1) / kBlock;
  const bool split = n * pixels * c > (1 << 16);
  OmpForRangesIf(split, threads, n * blocks, [&](int64_t t0, int64_t t1) {
    // Float sums over runs of kRun pixels (a full block at a fixed width, so
    // they stay in vector registers), added into double sums.
    constexpr int64_t kRun = 256;
    double acc[kBlock];
    float run[kBlock];
    for (int64_t t = t0; t < t1; ++t) {
      const int64_t b = t / blocks, c0 = t % blocks * kBlock, width = std::min(kBlock, c - c0);
      std::fill(acc, acc + width, 0.0);
      const float* xb = x + b * pixels * c + c0;
      for (int64_t p0 = 0; p0 < pixels; p0 += kRun) {
        std::fill(run, run + kBlock, 0.f);
        const int64_t p1 = std::min(pixels, p0 + kRun);
        if (width == kBlock) {
          for (int64_t px = p0; px < p1; ++px) {
            const float* row = xb + px * c;
#pragma omp simd
            for (int64_t i = 0; i < kBlock; ++i) run[i] += row[i];
          }
        } else {
          for (int64_t px = p0; px < p1; ++px) {
            const float* row = xb + px * c;
#pragma omp simd
            for (int64_t i = 0; i < width; ++i) run[i] += row[i];
          }
        }
        for (int64_t i = 0; i < width; ++i) acc[i] += run[i];
      }
      for (int64_t i = 0; i < width; ++i) {
        out[b * c + c0 + i] = static_cast<float>(acc[i] / static_cast<double>(pixels));
      }
    }
  });
}

}  // namespace x86
}  // namespace lite
