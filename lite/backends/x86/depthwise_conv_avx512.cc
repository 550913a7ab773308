// DepthwiseConv's AVX-512 instantiation (depthwise_conv_tiles.h): 16 lanes,
// tiles of 8 pixels (8 accumulators, the weights and one input vector in
// registers). Compiled with -mavx512f whatever the build's -march;
// DepthwiseConv::Run calls it only on CPUs with AVX-512F.
#include "lite/backends/x86/depthwise_conv_tiles.h"

#pragma GCC diagnostic push
// GCC 12's AVX-512 intrinsics pass _mm512_undefined_*(), which it defines
// from itself, and -Wall then flags every inlined use.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>

namespace lite {
namespace x86 {
namespace {

struct Avx512Ops {
  using V = __m512;
  using M = __mmask16;
  static constexpr int kLanes = 16;
  static M Mask(int n) { return n >= 16 ? static_cast<M>(0xFFFF) : static_cast<M>((1u << n) - 1); }
  static V Load(const float* p) { return _mm512_loadu_ps(p); }
  static V LoadAligned(const float* p) { return _mm512_load_ps(p); }
  static V LoadM(const float* p, M m) { return _mm512_maskz_loadu_ps(m, p); }
  static void Store(float* p, V v) { _mm512_storeu_ps(p, v); }
  static void StoreM(float* p, M m, V v) { _mm512_mask_storeu_ps(p, m, v); }
  static V Zero() { return _mm512_setzero_ps(); }
  static V Set1(float x) { return _mm512_set1_ps(x); }
  static V Fma(V a, V b, V c) { return _mm512_fmadd_ps(a, b, c); }
  static V Add(V a, V b) { return _mm512_add_ps(a, b); }
  static V Mul(V a, V b) { return _mm512_mul_ps(a, b); }
  static V Div(V a, V b) { return _mm512_div_ps(a, b); }
  static V Max(V a, V b) { return _mm512_max_ps(a, b); }
  static V Min(V a, V b) { return _mm512_min_ps(a, b); }
};

// Pixels per SlideTile: R accumulators, the KW weights and an input vector
// in 32 registers.
template <int KW>
struct RFor {
  static constexpr int value = KW <= 5 ? 12 : 8;
};

}  // namespace

DepthwiseRowsFn DepthwiseRowsAvx512(const DepthwiseRowsArgs& a) {
  return depthwise_tiles::PickRows<Avx512Ops, RFor>(a);
}

}  // namespace x86
}  // namespace lite
#pragma GCC diagnostic pop
