// Gemv: one row times a constant [k, n] weight matrix plus bias, the
// batch-1 fc (DQN's 3136 -> 512, a classifier's 1024 -> 1000), with
// AVX-512.
//
// Why not oneDNN's matmul: at m = 1 the product is bound by reading W once
// (k * n floats, 6.4 MB for 3136 x 512), and oneDNN's matmul on the plain
// W took about twice that stream's time (docs/performance.md, "Classic
// conv-net stand-ins"). SetWeights packs W once into column panels of up to
// 256 columns, [panel][k][width] (width a multiple of 16, zero-padded), so
// each panel is one contiguous stream; per panel, up to 16 AVX-512
// accumulators start at the bias and take x[i] * W[i, panel] for i = 0 ..
// k-1 in order. No software prefetch: on Zen 4 the hardware prefetcher
// follows the contiguous panel, and prefetching 8, 16 or 32 rows ahead took
// load slots and made dqn's fc 1.3-1.7x slower. Each output sums
// its k products in index order, so results do not depend on the thread
// count (threads take whole panels). Available() is false in builds
// without AVX-512 and on CPUs without it.
#pragma once

#include <cstdint>
#include <vector>

namespace lite {
namespace x86 {

class Gemv {
 public:
  static bool Available();

  // w: [k, n] row-major.
  void SetWeights(const float* w, int64_t k, int64_t n);
  bool has_weights() const { return !packed_.empty(); }
  int64_t k() const { return k_; }
  int64_t n() const { return n_; }

  // y[j] = bias[j] + sum_i x[i] * w[i * n + j] for j < n; bias may be null.
  // Requires Available() and SetWeights.
  void Run(const float* x, const float* bias, float* y, int threads) const;

 private:
  std::vector<float> packed_;
  int64_t k_ = 0, n_ = 0;
};

}  // namespace x86
}  // namespace lite
