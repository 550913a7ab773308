// DepthwiseConv's AVX2 + FMA instantiation (depthwise_conv_tiles.h): 8
// lanes, tiles of 8 pixels (8 accumulators of 16 registers). Compiled with
// -mavx2 -mfma -mno-avx512f whatever the build's -march, so the code is the
// AVX2 one on any build; DepthwiseConv::Run calls it on CPUs with AVX2 and
// FMA but no AVX-512F.
#include <immintrin.h>

#include "lite/backends/x86/depthwise_conv_tiles.h"

namespace lite {
namespace x86 {
namespace {

struct Avx2Ops {
  using V = __m256;
  using M = __m256i;
  static constexpr int kLanes = 8;
  static M Mask(int n) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  }
  static V Load(const float* p) { return _mm256_loadu_ps(p); }
  static V LoadAligned(const float* p) { return _mm256_load_ps(p); }
  static V LoadM(const float* p, M m) { return _mm256_maskload_ps(p, m); }
  static void Store(float* p, V v) { _mm256_storeu_ps(p, v); }
  static void StoreM(float* p, M m, V v) { _mm256_maskstore_ps(p, m, v); }
  static V Zero() { return _mm256_setzero_ps(); }
  static V Set1(float x) { return _mm256_set1_ps(x); }
  static V Fma(V a, V b, V c) { return _mm256_fmadd_ps(a, b, c); }
  static V Add(V a, V b) { return _mm256_add_ps(a, b); }
  static V Mul(V a, V b) { return _mm256_mul_ps(a, b); }
  static V Div(V a, V b) { return _mm256_div_ps(a, b); }
  static V Max(V a, V b) { return _mm256_max_ps(a, b); }
  static V Min(V a, V b) { return _mm256_min_ps(a, b); }
};

// Pixels per SlideTile: R accumulators, the KW weights and an input vector
// in 16 registers.
template <int KW>
struct RFor {
  static constexpr int value = KW <= 3 ? 8 : KW <= 5 ? 8 : 4;
};

}  // namespace

DepthwiseRowsFn DepthwiseRowsAvx2(const DepthwiseRowsArgs& a) {
  return depthwise_tiles::PickRows<Avx2Ops, RFor>(a);
}

}  // namespace x86
}  // namespace lite
