#include "lite/backends/x86/winograd_nhwc.h"

#include "lite/backends/x86/omp_ranges.h"

#include <immintrin.h>

#include <algorithm>

namespace lite {
namespace x86 {

namespace {
constexpr int kPos = 36;    // 6x6 transformed positions
constexpr int kBlock = 24;  // tiles per block (multiple of the GEMM row counts)
constexpr int64_t kPanel = 32;  // output channels per packed filter panel
}  // namespace

void WinogradNhwc::SetFilter(const float* filter, int64_t oc, int64_t ic) {
  static const double G[6][3] = {{1.0 / 4, 0, 0},
                                 {-1.0 / 6, -1.0 / 6, -1.0 / 6},
                                 {-1.0 / 6, 1.0 / 6, -1.0 / 6},
                                 {1.0 / 24, 1.0 / 12, 1.0 / 6},
                                 {1.0 / 24, -1.0 / 12, 1.0 / 6},
                                 {0, 0, 1}};
  ic_ = ic;
  oc_ = oc;
  ocp_ = (oc + 15) / 16 * 16;
  u_.assign(kPos * ic * ocp_, 0.f);
  for (int64_t o = 0; o < oc; ++o) {
    for (int64_t c = 0; c < ic; ++c) {
      const float* g = filter + (o * ic + c) * 9;
      double gg[6][3];  // G g
      for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 3; ++j)
          gg[i][j] = G[i][0] * g[0 * 3 + j] + G[i][1] * g[1 * 3 + j] + G[i][2] * g[2 * 3 + j];
      for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 6; ++j) {
          const double u = gg[i][0] * G[j][0] + gg[i][1] * G[j][1] + gg[i][2] * G[j][2];
          // Packed panels of kPanel output channels: [36][ocp / kPanel]
          // [ic][kPanel], the last panel kPanel or 16 wide, so each GEMM
          // streams one contiguous stretch (the prefetcher follows it when
          // the filter is not in cache, which on small maps is most of the
          // conv's time).
          const int64_t panel = o / kPanel * kPanel, width = std::min<int64_t>(kPanel, ocp_ - panel);
          u_[(i * 6 + j) * ic * ocp_ + panel * ic + c * width + (o - panel)] =
              static_cast<float>(u);
        }
    }
  }
}

#ifdef __AVX512F__

bool WinogradNhwc::Available() { return __builtin_cpu_supports("avx512f"); }

namespace {

typedef float v16 __attribute__((vector_size(64)));

inline __mmask16 TailMask(int64_t n) {
  return n >= 16 ? static_cast<__mmask16>(0xFFFF) : static_cast<__mmask16>((1u << n) - 1);
}

// v = B^T d B for 6x6 vectors (row-major).
inline void InputTransform(const v16* d, v16* v) {
  v16 t[36];
  for (int c = 0; c < 6; ++c) {
    const v16 d0 = d[c], d1 = d[6 + c], d2 = d[12 + c], d3 = d[18 + c], d4 = d[24 + c],
              d5 = d[30 + c];
    t[c] = 4.f * d0 - 5.f * d2 + d4;
    t[6 + c] = d3 + d4 - 4.f * (d1 + d2);
    t[12 + c] = d4 - d3 + 4.f * (d1 - d2);
    t[18 + c] = d4 - d2 + 2.f * (d3 - d1);
    t[24 + c] = d4 - d2 + 2.f * (d1 - d3);
    t[30 + c] = 4.f * d1 - 5.f * d3 + d5;
  }
  for (int r = 0; r < 6; ++r) {
    const v16* s = t + r * 6;
    v16* o = v + r * 6;
    o[0] = 4.f * s[0] - 5.f * s[2] + s[4];
    o[1] = s[3] + s[4] - 4.f * (s[1] + s[2]);
    o[2] = s[4] - s[3] + 4.f * (s[1] - s[2]);
    o[3] = s[4] - s[2] + 2.f * (s[3] - s[1]);
    o[4] = s[4] - s[2] + 2.f * (s[1] - s[3]);
    o[5] = 4.f * s[1] - 5.f * s[3] + s[5];
  }
}

// y = A^T m A (4x4 from 6x6).
inline void OutputTransform(const v16* m, v16* y) {
  v16 t[24];  // 4x6
  for (int c = 0; c < 6; ++c) {
    const v16 m1 = m[6 + c], m2 = m[12 + c], m3 = m[18 + c], m4 = m[24 + c];
    const v16 a = m1 + m2, b = m1 - m2, e = m3 + m4, f = m3 - m4;
    t[c] = m[c] + a + e;
    t[6 + c] = b + 2.f * f;
    t[12 + c] = a + 4.f * e;
    t[18 + c] = b + 8.f * f + m[30 + c];
  }
  for (int r = 0; r < 4; ++r) {
    const v16* s = t + r * 6;
    const v16 a = s[1] + s[2], b = s[1] - s[2], e = s[3] + s[4], f = s[3] - s[4];
    y[r * 4 + 0] = s[0] + a + e;
    y[r * 4 + 1] = b + 2.f * f;
    y[r * 4 + 2] = a + 4.f * e;
    y[r * 4 + 3] = b + 8.f * f + s[5];
  }
}

// c[R x 16*NV] = a[R x k] (row stride lda) * b[k x 16*NV] (row stride ldb).
template <int R, int NV>
inline void Gemm(const float* a, int64_t lda, const float* b, int64_t ldb, float* c,
                 int64_t ldc, int64_t k) {
  __m512 acc[R][NV];
#pragma GCC unroll 24
  for (int r = 0; r < R; ++r)
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j) acc[r][j] = _mm512_setzero_ps();
  for (int64_t kk = 0; kk < k; ++kk) {
    __m512 bv[NV];
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j) bv[j] = _mm512_loadu_ps(b + kk * ldb + 16 * j);
#pragma GCC unroll 24
    for (int r = 0; r < R; ++r) {
      const __m512 av = _mm512_set1_ps(a[r * lda + kk]);
#pragma GCC unroll 4
      for (int j = 0; j < NV; ++j) acc[r][j] = _mm512_fmadd_ps(av, bv[j], acc[r][j]);
    }
  }
#pragma GCC unroll 24
  for (int r = 0; r < R; ++r)
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j) _mm512_storeu_ps(c + r * ldc + 16 * j, acc[r][j]);
}

struct Scratch {
  std::vector<float> v, m, patch;
};

}  // namespace

void WinogradNhwc::Run(int64_t n, int64_t ih, int64_t iw, int pad_top, int pad_left,
                       int64_t oh, int64_t ow, const float* in, const float* bias, Act act,
                       float relu6_max, float* out, int64_t ldo,
                       int threads) const {
  const int64_t ic = ic_, oc = oc_, ocp = ocp_;
  const int64_t th = (oh + 3) / 4, tw = (ow + 3) / 4, tiles = n * th * tw;
  const int64_t blocks = (tiles + kBlock - 1) / kBlock;
  const float* u = u_.data();
  const int64_t work = tiles * kPos * ic * ocp;
  auto run_blocks = [&](int64_t b0, int64_t b1) {
    // Per-thread scratch that outlives the call: a fresh 0.3 MB buffer per
    // run would be fresh pages (page faults) every time.
    thread_local Scratch s;
    // The patch: 36 pixels x icp channels (icp = ic rounded up to 16). The
    // extra lanes may hold another call's data: they only reach V's extra
    // lanes, which the GEMM (k < ic) never reads.
    const int64_t icp = (ic + 15) / 16 * 16;
    if (s.v.size() < static_cast<size_t>(kPos * kBlock * icp)) s.v.resize(kPos * kBlock * icp);
    if (s.m.size() < static_cast<size_t>(kPos * kBlock * ocp)) s.m.resize(kPos * kBlock * ocp);
    if (s.patch.size() < static_cast<size_t>(36 * icp)) s.patch.assign(36 * icp, 0.f);
    float* V = s.v.data();
    float* M = s.m.data();
    float* P = s.patch.data();
    v16 d[36], tv[36];
    for (int64_t blk = b0; blk < b1; ++blk) {
      const int64_t t0 = blk * kBlock, count = std::min<int64_t>(kBlock, tiles - t0);
      if (count < kBlock) {  // rows of missing tiles: zeros, not stale data
        std::fill(V + count * kPos * icp, V + kBlock * kPos * icp, 0.f);
      }
      // Input transform, tile by tile. The 6x6 patch is first copied row by
      // row (6 pixels x ic channels are contiguous in NHWC) into a local
      // buffer: sequential reads the prefetcher follows, where gathering
      // 16 channels of 36 pixels at a time stalled on every load.
      // The next tile to the right shares 2 of the 6 columns: they are
      // moved inside the buffer and only the 4 new columns are read.
      int64_t prev_tile = -2;
      for (int64_t t = 0; t < count; ++t) {
        const int64_t tile = t0 + t, b = tile / (th * tw), ty = tile / tw % th, tx = tile % tw;
        const int64_t y0 = ty * 4 - pad_top, x0 = tx * 4 - pad_left;
        const int64_t xa = std::max<int64_t>(x0, 0), xb = std::min<int64_t>(x0 + 6, iw);
        const bool slide = prev_tile == tile - 1 && tx > 0 && y0 >= 0 && y0 + 6 <= ih &&
                           x0 >= 0 && x0 + 6 <= iw && icp == ic;
        prev_tile = tile;
        if (slide) {
          for (int r = 0; r < 6; ++r) {
            float* row = P + r * 6 * icp;
            std::copy(row + 4 * icp, row + 6 * icp, row);
            const float* src = in + ((b * ih + y0 + r) * iw + x0 + 2) * ic;
            std::copy(src, src + 4 * ic, row + 2 * icp);
          }
        }
        for (int r = 0; r < 6 && !slide; ++r) {
          float* row = P + r * 6 * icp;
          const int64_t y = y0 + r;
          if (y < 0 || y >= ih || xa >= xb) {
            std::fill(row, row + 6 * icp, 0.f);
            continue;
          }
          if (xa > x0) std::fill(row, row + (xa - x0) * icp, 0.f);
          const float* src = in + ((b * ih + y) * iw + xa) * ic;
          float* dst = row + (xa - x0) * icp;
          if (icp == ic) {
            std::copy(src, src + (xb - xa) * ic, dst);
          } else {
            for (int64_t x = xa; x < xb; ++x, src += ic, dst += icp) std::copy(src, src + ic, dst);
          }
          if (xb < x0 + 6) std::fill(row + (xb - x0) * icp, row + 6 * icp, 0.f);
        }
        for (int64_t c0 = 0; c0 < ic; c0 += 16) {
          for (int q = 0; q < 36; ++q) d[q] = (v16)_mm512_loadu_ps(P + q * icp + c0);
          InputTransform(d, tv);
          // V is [tile][position][icp]: a tile's 36 vectors go to one
          // contiguous 13.5 KB stretch (for ic 96), not 36 places 9 KB
          // apart. Rows are icp long, so whole vectors are
          // stored (masked stores are slow on some CPUs); the GEMM reads
          // only ic of them.
          for (int p = 0; p < kPos; ++p)
            _mm512_storeu_ps(V + (t * kPos + p) * icp + c0, (__m512)tv[p]);
        }
      }
      // 36 GEMMs [count x ic] x [ic x ocp], rows rounded up to 4 (V's rows
      // past `count` are zeros). M is [tile][position][ocp] like V, so the
      // output transform reads a tile's 36 vectors from 9 KB in a row (for
      // ocp 64), not 36 places a block apart.
      for (int p = 0; p < kPos; ++p) {
        const float* a = V + p * icp;  // row t at (t * kPos + p) * icp
        const float* bm = u + p * ic * ocp;  // panel j at bm + j * ic
        float* cm = M + p * ocp;  // row t at (t * kPos + p) * ocp
        int64_t j = 0;
        for (; j + kPanel <= ocp; j += kPanel) {
          for (int64_t r = 0; r < count; r += 12) {
            const float* ar = a + r * kPos * icp;
            float* cr = cm + r * kPos * ocp + j;
            switch (std::min<int64_t>(count - r + 3, 12) / 4) {  // rows in 4s
              case 3: Gemm<12, 2>(ar, kPos * icp, bm + j * ic, kPanel, cr, kPos * ocp, ic); break;
              case 2: Gemm<8, 2>(ar, kPos * icp, bm + j * ic, kPanel, cr, kPos * ocp, ic); break;
              default: Gemm<4, 2>(ar, kPos * icp, bm + j * ic, kPanel, cr, kPos * ocp, ic); break;
            }
          }
        }
        for (int64_t r = 0; j < ocp && r < count; r += 24) {  // a 16-wide last panel
          const float* ar = a + r * kPos * icp;
          float* cr = cm + r * kPos * ocp + j;
          if (count - r > 12) Gemm<24, 1>(ar, kPos * icp, bm + j * ic, 16, cr, kPos * ocp, ic);
          else Gemm<12, 1>(ar, kPos * icp, bm + j * ic, 16, cr, kPos * ocp, ic);
        }
      }
      // Output transform, bias, activation, NHWC rows.
      for (int64_t t = 0; t < count; ++t) {
        const int64_t tile = t0 + t, b = tile / (th * tw), ty = tile / tw % th, tx = tile % tw;
        for (int64_t o0 = 0; o0 < oc; o0 += 16) {
          const __mmask16 mask = TailMask(oc - o0);
          const float* mt = M + t * kPos * ocp + o0;  // the tile's 36 vectors, ocp apart
          for (int p = 0; p < kPos; ++p) d[p] = (v16)_mm512_loadu_ps(mt + p * ocp);
          v16 y[16];
          OutputTransform(d, y);
          const v16 bv = bias ? (v16)_mm512_maskz_loadu_ps(mask, bias + o0) : (v16)_mm512_setzero_ps();
          for (int i = 0; i < 4; ++i) {
            const int64_t oy = ty * 4 + i;
            if (oy >= oh) break;
            for (int jx = 0; jx < 4; ++jx) {
              const int64_t ox = tx * 4 + jx;
              if (ox >= ow) break;
              __m512 r = (__m512)(y[i * 4 + jx] + bv);
              if (act != Act::kNone) r = _mm512_max_ps(r, _mm512_setzero_ps());
              if (act == Act::kRelu6) r = _mm512_min_ps(r, _mm512_set1_ps(relu6_max));
              float* dst = out + ((b * oh + oy) * ow + ox) * ldo + o0;
              if (mask == 0xFFFF) _mm512_storeu_ps(dst, r);
              else _mm512_mask_storeu_ps(dst, mask, r);
            }
          }
        }
      }
    }
  };
  OmpForRanges(threads, blocks, work, run_blocks);
}

#else  // !__AVX512F__

bool WinogradNhwc::Available() { return false; }

void WinogradNhwc::Run(int64_t, int64_t, int64_t, int, int, int64_t, int64_t, const float*,
                       const float*, Act, float, float*, int64_t, int) const {}

#endif

}  // namespace x86
}  // namespace lite
