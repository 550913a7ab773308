// Winograd F(2x2, 3x3): see conv_winograd.h. With B^T, G, A^T of Lavin &
// Gray, applied separably (rows, then columns) to each 4x4 or 4x3 block:
//   input  x -> [x0 - x2, x1 + x2, x2 - x1, x1 - x3]
//   filter g -> [g0, (g0 + g1 + g2) / 2, (g0 - g1 + g2) / 2, g2]
//   output m -> [m0 + m1 + m2, m1 - m2 - m3]
// The input transform works on zero-padded copies of the four input rows a
// row of tiles reads: rows are combined for the whole row segment, then the
// result is split into even and odd columns so that the per-tile column step
// has contiguous loads, no bounds checks, and vectorizes.
#include "lite/backends/host/conv_winograd.h"

#include <algorithm>
#include <cstring>

#include "lite/backends/host/conv_epilogue.h"
#include "lite/backends/host/gemm.h"
#include "lite/backends/host/padded_row.h"

namespace lite {
namespace kernels {
namespace host {

namespace {

// B^T d for all tiles of a row segment at once: combines the 4 padded input
// rows r[0..3] (len columns each) into t[0..3]. Tiles overlap by 2 columns,
// so combining rows once per segment rather than per tile halves the work.
// (Restrict parameters, not locals: GCC honours those when vectorizing.)
void CombineRows(const float* __restrict r0, const float* __restrict r1,
                 const float* __restrict r2, const float* __restrict r3, int len,
                 float* __restrict t0, float* __restrict t1, float* __restrict t2,
                 float* __restrict t3) {
  for (int j = 0; j < len; ++j) {
    t0[j] = r0[j] - r2[j];
    t1[j] = r1[j] + r2[j];
    t2[j] = r2[j] - r1[j];
    t3[j] = r1[j] - r3[j];
  }
}

// (B^T d) B for n tiles of one combined row: tile i's columns are e[i],
// o[i], e[i+1], o[i+1] (the even / odd columns); writes its 4 positions to
// v0[i] .. v3[i].
void CombineColumns(const float* __restrict e, const float* __restrict o, int n,
                    float* __restrict v0, float* __restrict v1, float* __restrict v2,
                    float* __restrict v3) {
  for (int i = 0; i < n; ++i) {
    const float x0 = e[i], x1 = o[i], x2 = e[i + 1], x3 = o[i + 1];
    v0[i] = x0 - x2;
    v1[i] = x1 + x2;
    v2[i] = x2 - x1;
    v3[i] = x1 - x3;
  }
}

// A^T M for column c of n tiles: m0..m3 hold rows 0..3 of that column.
// Writes the two combined rows to a[i] and b[i].
void OutputCombineRow(const float* __restrict m0, const float* __restrict m1,
                      const float* __restrict m2, const float* __restrict m3, int n,
                      float* __restrict a, float* __restrict b) {
  for (int i = 0; i < n; ++i) {
    a[i] = m0[i] + m1[i] + m2[i];
    b[i] = m1[i] - m2[i] - m3[i];
  }
}

// (A^T M) A for one combined row s[0..3] of n tiles: 2n output pixels.
void OutputCombineColumns(const float* __restrict s0, const float* __restrict s1,
                          const float* __restrict s2, const float* __restrict s3, int n,
                          float* __restrict y) {
  for (int i = 0; i < n; ++i) {
    y[2 * i] = s0[i] + s1[i] + s2[i];
    y[2 * i + 1] = s1[i] - s2[i] - s3[i];
  }
}

}  // namespace

bool UseWinograd(const ConvWindow& win, int groups, int c_in, int c_out, int out_h,
                 int out_w) {
  // Measured on this engine's shapes: with fewer input channels the GEMMs
  // (K = c_in instead of 9 c_in) run too far below Eigen's peak, and on small
  // maps the transforms and per-block GEMM overhead eat the 2.25x saving.
  return win.kh == 3 && win.kw == 3 && win.stride_h == 1 && win.stride_w == 1 &&
         win.dil_h == 1 && win.dil_w == 1 && groups == 1 && c_in >= 32 && c_out >= 8 &&
         out_h >= 4 && out_w >= 4 && static_cast<int64_t>(out_h) * out_w >= 1024;
}

std::vector<float> WinogradFilter(const float* filter, int c_out, int c_in) {
  const int64_t pairs = static_cast<int64_t>(c_out) * c_in;
  std::vector<float> u(16 * pairs);
  for (int64_t p = 0; p < pairs; ++p) {
    const float* g = filter + 9 * p;
    float gg[4][3];  // G g: combine rows
    for (int c = 0; c < 3; ++c) {
      gg[0][c] = g[c];
      gg[1][c] = 0.5f * (g[c] + g[3 + c] + g[6 + c]);
      gg[2][c] = 0.5f * (g[c] - g[3 + c] + g[6 + c]);
      gg[3][c] = g[6 + c];
    }
    for (int r = 0; r < 4; ++r) {  // (G g) G^T: combine columns
      u[(4 * r + 0) * pairs + p] = gg[r][0];
      u[(4 * r + 1) * pairs + p] = 0.5f * (gg[r][0] + gg[r][1] + gg[r][2]);
      u[(4 * r + 2) * pairs + p] = 0.5f * (gg[r][0] - gg[r][1] + gg[r][2]);
      u[(4 * r + 3) * pairs + p] = gg[r][2];
    }
  }
  return u;
}

const float* WinogradFilterCache::Get(const float* filter, int c_out, int c_in) {
  const size_t size = static_cast<size_t>(c_out) * c_in * 9;
  if (source_.size() != size || std::memcmp(source_.data(), filter, size * sizeof(float)) != 0) {
    source_.assign(filter, filter + size);
    transformed_ = WinogradFilter(filter, c_out, c_in);
  }
  return transformed_.data();
}

int64_t WinogradBlockTiles(int c_in, int c_out, int64_t tiles) {
  // 16 * (c_in + c_out) * block floats of V and M: about 1 MiB.
  const int64_t cache_fit = std::clamp<int64_t>(16384 / std::max(1, c_in + c_out), 32, 1024);
  // Small maps still make 4 blocks (of at least 16 tiles) to spread over
  // threads; like everything here this depends on the shape only.
  return std::min(cache_fit, std::max<int64_t>(16, (tiles + 3) / 4));
}

void WinogradConv3x3(const WinogradArgs& a, int64_t tile_begin, int64_t tile_end,
                     std::vector<float>* scratch) {
  const int tiles_w = (a.out_w + 1) / 2;
  const int64_t nb = tile_end - tile_begin;
  const int half_len = tiles_w + 1;  // even or odd columns of a padded row
  const int row_len = 2 * half_len;
  // Scratch, carved in order: V [16][c_in][nb], M [16][c_out][nb], then the
  // per-segment rows: 4 padded input rows, their 4 row combinations (B^T d),
  // the even/odd split of one, A^T M per column (2 x 4), 2 output rows.
  const size_t need = 16 * static_cast<size_t>(a.c_in + a.c_out) * nb + 9 * row_len +
                      12 * static_cast<size_t>(tiles_w);
  if (scratch->size() < need) scratch->resize(need);
  float* next = scratch->data();
  auto carve = [&next](int64_t n) {
    float* p = next;
    next += n;
    return p;
  };
  float* v = carve(16 * static_cast<int64_t>(a.c_in) * nb);
  float* m = carve(16 * static_cast<int64_t>(a.c_out) * nb);
  float* padded[4];
  float* combined[4];
  for (float*& r : padded) r = carve(row_len);
  for (float*& r : combined) r = carve(row_len);
  float* even = carve(half_len);
  float* odd = carve(half_len);
  float* s0[4];
  float* s1[4];
  for (float*& c : s0) c = carve(tiles_w);
  for (float*& c : s1) c = carve(tiles_w);
  float* y0 = carve(2 * tiles_w);
  float* y1 = carve(2 * tiles_w);

  // Calls fn(ty, tx0, tx1, index of tile (ty, tx0) in the block) per
  // tile-row segment of the block.
  auto for_segments = [&](auto fn) {
    for (int64_t t = tile_begin; t < tile_end;) {
      const int ty = static_cast<int>(t / tiles_w);
      const int tx0 = static_cast<int>(t % tiles_w);
      const int tx1 = static_cast<int>(std::min<int64_t>(tiles_w, tx0 + (tile_end - t)));
      fn(ty, tx0, tx1, t - tile_begin);
      t += tx1 - tx0;
    }
  };

  const int64_t v_stride = static_cast<int64_t>(a.c_in) * nb;
  for (int ic = 0; ic < a.c_in; ++ic) {
    const float* plane = a.in + static_cast<int64_t>(ic) * a.h * a.w;
    for_segments([&](int ty, int tx0, int tx1, int64_t idx) {
      const int n = tx1 - tx0;
      for (int r = 0; r < 4; ++r) {
        const int iy = 2 * ty - a.pad_top + r;
        const float* src = iy >= 0 && iy < a.h ? plane + static_cast<int64_t>(iy) * a.w : nullptr;
        PaddedRowSegment(src, a.w, a.pad_left, 2 * tx0, 2 * tx1 + 2, padded[r]);
      }
      CombineRows(padded[0], padded[1], padded[2], padded[3], 2 * n + 2, combined[0],
                  combined[1], combined[2], combined[3]);
      for (int r = 0; r < 4; ++r) {
        SplitEvenOdd(combined[r], n + 1, even, odd);
        float* vr = v + 4 * r * v_stride + ic * nb + idx;
        CombineColumns(even, odd, n, vr, vr + v_stride, vr + 2 * v_stride, vr + 3 * v_stride);
      }
    });
  }

  const int64_t pairs = static_cast<int64_t>(a.c_out) * a.c_in;
  for (int k = 0; k < 16; ++k) {
    Gemm(false, false, a.c_out, nb, a.c_in, 1.f, a.u + k * pairs, a.c_in, v + k * v_stride,
         nb, 0.f, m + k * a.c_out * nb, nb);
  }

  const int64_t m_stride = static_cast<int64_t>(a.c_out) * nb;
  const int64_t out_plane = static_cast<int64_t>(a.out_h) * a.out_w;
  for (int oc = 0; oc < a.c_out; ++oc) {
    float* out_c = a.out + oc * out_plane;
    const float bias = a.bias ? a.bias[oc] : 0.f;
    for_segments([&](int ty, int tx0, int tx1, int64_t idx) {
      const int n = tx1 - tx0;
      for (int c = 0; c < 4; ++c) {
        const float* mc = m + oc * nb + idx + c * m_stride;
        OutputCombineRow(mc, mc + 4 * m_stride, mc + 8 * m_stride, mc + 12 * m_stride, n,
                         s0[c], s1[c]);
      }
      OutputCombineColumns(s0[0], s0[1], s0[2], s0[3], n, y0);
      OutputCombineColumns(s1[0], s1[1], s1[2], s1[3], n, y1);
      const int oy = 2 * ty, ox = 2 * tx0;
      const int cols = std::min(2 * tx1, a.out_w) - ox;
      BiasActRow(y0, bias, *a.act, cols, out_c + static_cast<int64_t>(oy) * a.out_w + ox);
      if (oy + 1 < a.out_h) {
        BiasActRow(y1, bias, *a.act, cols, out_c + static_cast<int64_t>(oy + 1) * a.out_w + ox);
      }
    });
  }
}

}  // namespace host
}  // namespace kernels
}  // namespace lite
