// Vec8: 8 floats computed on together, what the driver's own convolutions
// (FewChannelConv, DepthwiseConv) accumulate in, with the loads and the
// clamped stores they share. On x86 it is the compiler's generic vector of
// 8 floats (one AVX register, or two SSE ones); on aarch64 a pair of NEON
// vectors, because GCC keeps a 32-byte generic vector, having no register
// of that size there, in memory between operations (an accumulator then
// costs a load and a store per multiply-add) and turns a select on it
// into one compare and select per lane.
//
// A memcpy of a length known only at run time is a library call, so 8
// lanes take one fixed-size copy (an unaligned vector access) and fewer go
// lane by lane.
#pragma once

#include <cstdint>
#include <cstring>

namespace lite {
namespace npu {

#if defined(__aarch64__)
typedef float Vec4 __attribute__((vector_size(16)));
struct Vec8 {
  Vec4 lo, hi;
};
inline Vec8 operator*(Vec8 a, Vec8 b) { return {a.lo * b.lo, a.hi * b.hi}; }
inline Vec8 operator*(float s, Vec8 b) { return {s * b.lo, s * b.hi}; }
inline Vec8& operator+=(Vec8& a, Vec8 b) {
  a.lo += b.lo;
  a.hi += b.hi;
  return a;
}
#else
typedef float Vec8 __attribute__((vector_size(32)));
#endif

// Sets lane `lane` (0 to 7) of *v to x.
inline void SetLane(Vec8* v, int64_t lane, float x) {
  std::memcpy(reinterpret_cast<char*>(v) + sizeof(float) * lane, &x, sizeof x);
}

// 8 floats at p (unaligned).
inline Vec8 LoadVec8(const float* p) {
  Vec8 v;
#if defined(__aarch64__)
  // Half by half: a copy of the whole pair goes through the stack.
  std::memcpy(&v.lo, p, sizeof v.lo);
  std::memcpy(&v.hi, p + 4, sizeof v.hi);
#else
  std::memcpy(&v, p, sizeof v);
#endif
  return v;
}

// `lanes` (1 to 8) floats at p, the rest zero.
inline Vec8 LoadLanes(const float* p, int64_t lanes) {
  if (lanes == 8) return LoadVec8(p);
  Vec8 v = {};
  for (int64_t i = 0; i < lanes; ++i) SetLane(&v, i, p[i]);
  return v;
}

// v clamped to [lo, hi] lane by lane; a NaN lane stays NaN.
inline Vec8 Clamp(Vec8 v, float lo, float hi) {
#if defined(__aarch64__)
  v.lo = v.lo < lo ? lo : v.lo;
  v.lo = v.lo > hi ? hi : v.lo;
  v.hi = v.hi < lo ? lo : v.hi;
  v.hi = v.hi > hi ? hi : v.hi;
#else
  v = v < lo ? lo : v;
  v = v > hi ? hi : v;
#endif
  return v;
}

// The first `lanes` (1 to 8) of v clamped to [lo, hi], stored at p.
inline void StoreClamped(float* p, Vec8 v, float lo, float hi, int64_t lanes) {
  v = Clamp(v, lo, hi);
  if (lanes == 8) {
#if defined(__aarch64__)
    std::memcpy(p, &v.lo, sizeof v.lo);
    std::memcpy(p + 4, &v.hi, sizeof v.hi);
#else
    std::memcpy(p, &v, sizeof v);
#endif
  } else {
    float all[8];
    std::memcpy(all, &v, sizeof v);
    for (int64_t i = 0; i < lanes; ++i) p[i] = all[i];
  }
}

}  // namespace npu
}  // namespace lite
