// What the own fp32 x86 kernels' unit tests (winograd_nhwc_test,
// pointwise_conv_test, narrow_deconv_test) share: deterministic inputs.
#pragma once

#include <cstdint>
#include <vector>

namespace lite {
namespace x86 {
namespace float_test {

// n values in [-1, 1) from a linear congruential sequence seeded by `seed`.
inline std::vector<float> Random(int64_t n, uint32_t seed) {
  std::vector<float> v(n);
  for (auto& x : v) {
    seed = seed * 1103515245u + 12345u;
    x = static_cast<float>(seed >> 8) / (1 << 24) * 2.f - 1.f;
  }
  return v;
}

}  // namespace float_test
}  // namespace x86
}  // namespace lite
