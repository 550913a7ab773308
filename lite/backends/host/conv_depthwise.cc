#include "lite/backends/host/conv_depthwise.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "lite/backends/host/conv_epilogue.h"
#include "lite/backends/host/padded_row.h"

namespace lite {
namespace kernels {
namespace host {

namespace {
// Output columns computed per step; rows are computed rounded up to this.
constexpr int kV = 8;

// Padded plane: `rows` rows, each split into `phases` (= stride_w) column
// phases of `pw` floats; phase p of row r holds padded columns p, p+S, ...
// at buf[(r * phases + p) * pw + q].
struct Padded {
  int rows, phases, pw;
  int64_t row_stride() const { return static_cast<int64_t>(phases) * pw; }
};

void FillPadded(const float* in_c, int height, int width, const ConvWindow& win,
                const Padded& g, float* buf, float* tmp) {
  const int s = g.phases;
  const int full = s * g.pw;  // padded row length before the phase split
  for (int r = 0; r < g.rows; ++r) {
    float* dst = buf + r * g.row_stride();
    const int ih = r - win.pad_top;
    if (ih < 0 || ih >= height) {
      std::memset(dst, 0, sizeof(float) * g.row_stride());
      continue;
    }
    float* row = s == 1 ? dst : tmp;
    PaddedRowSegment(in_c + static_cast<int64_t>(ih) * width, width, win.pad_left, 0, full,
                     row);
    if (s == 2) {
      SplitEvenOdd(row, g.pw, dst, dst + g.pw);
    } else if (s > 2) {
      for (int p = 0; p < s; ++p) {
        for (int q = 0; q < g.pw; ++q) dst[p * g.pw + q] = row[q * s + p];
      }
    }
  }
}

// One output row, K x K taps, stride_w S, no dilation. `base` points at
// padded row oh*stride_h (phase 0). One accumulator per kernel row keeps K
// independent FMA chains.
template <int K, int S>
void RowFixed(const float* base, int64_t row_stride, int pw, const float* w,
              int nchunk, float* dst) {
  for (int c = 0; c < nchunk; ++c) {
    float acc[K][kV] = {};
#pragma GCC unroll 8
    for (int i = 0; i < K; ++i) {
      const float* row = base + i * row_stride + c * kV;
#pragma GCC unroll 8
      for (int j = 0; j < K; ++j) {
        const float* src = row + (j % S) * pw + j / S;
        const float wv = w[i * K + j];
        for (int v = 0; v < kV; ++v) acc[i][v] = MulAdd(wv, src[v], acc[i][v]);
      }
    }
    for (int v = 0; v < kV; ++v) {
      float s = acc[0][v];
#pragma GCC unroll 8
      for (int i = 1; i < K; ++i) s += acc[i][v];
      dst[c * kV + v] = s;
    }
  }
}

// Any geometry: tap t reads base + off[t].
void RowGeneric(const float* base, const int64_t* off, const float* w, int ntaps,
                int nchunk, float* dst) {
  for (int c = 0; c < nchunk; ++c) {
    float acc[kV] = {};
    for (int t = 0; t < ntaps; ++t) {
      const float* src = base + off[t] + c * kV;
      const float wv = w[t];
      for (int v = 0; v < kV; ++v) acc[v] = MulAdd(wv, src[v], acc[v]);
    }
    for (int v = 0; v < kV; ++v) dst[c * kV + v] = acc[v];
  }
}

using RowFn = void (*)(const float*, int64_t, int, const float*, int, float*);

RowFn PickFixed(const ConvWindow& win) {
  if (win.kh != win.kw || win.dil_h != 1 || win.dil_w != 1) return nullptr;
  const int k = win.kh, s = win.stride_w;
  if (k == 3 && s == 1) return RowFixed<3, 1>;
  if (k == 3 && s == 2) return RowFixed<3, 2>;
  if (k == 5 && s == 1) return RowFixed<5, 1>;
  if (k == 5 && s == 2) return RowFixed<5, 2>;
  return nullptr;
}
}  // namespace

void DepthwiseConv2d(const float* in, int channels, int height, int width,
                     const float* filter, const ConvWindow& win, int out_h,
                     int out_w, float* out, const float* bias,
                     const operators::FusedActivation* act,
                     std::vector<float>* scratch) {
  if (out_h <= 0 || out_w <= 0) return;
  const operators::FusedActivation none;
  if (!act) act = &none;
  const int ksize = win.kh * win.kw;
  const int nchunk = (out_w + kV - 1) / kV;
  Padded g;
  g.phases = win.stride_w;
  g.rows = (out_h - 1) * win.stride_h + (win.kh - 1) * win.dil_h + 1;
  g.pw = nchunk * kV + ((win.kw - 1) * win.dil_w) / win.stride_w + 1;
  g.pw = (g.pw + kV - 1) / kV * kV;
  const int64_t plane = g.rows * g.row_stride();
  std::vector<float> local;
  std::vector<float>& buf = scratch ? *scratch : local;
  const int64_t need = plane + nchunk * kV + g.row_stride();
  if (buf.size() < static_cast<size_t>(need)) buf.resize(need);
  float* pad = buf.data();
  float* row_out = pad + plane;
  float* row_tmp = row_out + nchunk * kV;

  // Offset of tap (i, j) from padded row oh*stride_h, phase 0.
  std::vector<int64_t> off(ksize);
  for (int i = 0; i < win.kh; ++i) {
    for (int j = 0; j < win.kw; ++j) {
      const int col = j * win.dil_w;
      off[i * win.kw + j] = i * win.dil_h * g.row_stride() +
                            (col % win.stride_w) * g.pw + col / win.stride_w;
    }
  }
  const RowFn fixed = PickFixed(win);
  const int64_t step = win.stride_h * g.row_stride();

  for (int c = 0; c < channels; ++c) {
    FillPadded(in + static_cast<int64_t>(c) * height * width, height, width, win, g,
               pad, row_tmp);
    const float* w_c = filter + static_cast<int64_t>(c) * ksize;
    const float b = bias ? bias[c] : 0.f;
    float* out_c = out + static_cast<int64_t>(c) * out_h * out_w;
    for (int oh = 0; oh < out_h; ++oh) {
      const float* base = pad + oh * step;
      if (fixed) {
        fixed(base, g.row_stride(), g.pw, w_c, nchunk, row_out);
      } else {
        RowGeneric(base, off.data(), w_c, ksize, nchunk, row_out);
      }
      BiasActRow(row_out, b, *act, out_w, out_c + static_cast<int64_t>(oh) * out_w);
    }
  }
}

}  // namespace host
}  // namespace kernels
}  // namespace lite
