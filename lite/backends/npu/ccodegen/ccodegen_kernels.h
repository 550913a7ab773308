/* The ccodegen driver's kernel library: plain C99, static inline, float32,
 * row-major, in the NN IR layout (images NCHW, filters OIHW, fc weights
 * [K, N]).
 *
 * This header is not compiled into the engine. A genrule embeds its text in
 * the driver library; Compile() pastes it at the top of every generated
 * translation unit, whose entry function calls these kernels with every
 * shape as a literal, so the C compiler specializes each call. The loops
 * follow the reference driver's (lite/backends/npu/reference) order of
 * accumulation, so results match it closely. Buffers belong to the caller;
 * nothing here allocates; a kernel's input and output buffers never overlap
 * (every operand has its own), hence `restrict`. GCC's -O2 vectorizes only
 * loops of a known trip count, so hot loops have fixed-length inner blocks. Generic kernels take rank <= CCG_MAX_RANK.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#define CCG_MAX_RANK 6

enum {
  CCG_ADD = 0, CCG_SUB, CCG_MUL, CCG_DIV, CCG_MAX, CCG_MIN, CCG_PRELU
};
enum {
  CCG_RELU = 0, CCG_RELU6, CCG_LEAKY_RELU, CCG_SIGMOID, CCG_TANH, CCG_SWISH,
  CCG_HARD_SWISH, CCG_HARD_SIGMOID, CCG_CLIP, CCG_SCALE, CCG_EXP, CCG_ABS
};

#define CCG_LANES 16 /* columns per GEMM block: one fixed-length loop */

/* Rows of an im2col matrix are padded to a multiple of CCG_LANES floats. */
static inline int64_t ccg_padded(int64_t p) { return (p + CCG_LANES - 1) / CCG_LANES * CCG_LANES; }

/* y [O, P] = w [O, K] * col [K, P] (+ bias[o] last). col rows are
 * ccg_padded(P) apart (the padding zero, its results dropped). Blocks of
 * CCG_LANES columns outside, so a block of col stays in L1 while every
 * output row passes over it, 4 rows at a time in register accumulators.
 * Every element sums over k in order, as the reference driver does. */
static inline void ccg_gemm(const float* restrict w, const float* restrict col,
                            const float* restrict bias, float* restrict y, int64_t O, int64_t K,
                            int64_t P) {
  const int64_t stride = ccg_padded(P);
  for (int64_t p0 = 0; p0 < stride; p0 += CCG_LANES) {
    const int64_t cols = P - p0 < CCG_LANES ? P - p0 : CCG_LANES;
    for (int64_t o0 = 0; o0 < O; o0 += 4) {
      const int64_t rows = O - o0 < 4 ? O - o0 : 4;
      /* Rows past O repeat the last one; their sums are not stored. */
      const float* w0 = w + o0 * K;
      const float* w1 = w + (o0 + (rows > 1 ? 1 : 0)) * K;
      const float* w2 = w + (o0 + (rows > 2 ? 2 : 0)) * K;
      const float* w3 = w + (o0 + (rows > 3 ? 3 : 0)) * K;
      float a0[CCG_LANES] = {0}, a1[CCG_LANES] = {0}, a2[CCG_LANES] = {0}, a3[CCG_LANES] = {0};
      for (int64_t k = 0; k < K; ++k) {
        const float* x = col + k * stride + p0;
        const float v0 = w0[k], v1 = w1[k], v2 = w2[k], v3 = w3[k];
        for (int p = 0; p < CCG_LANES; ++p) {
          a0[p] += v0 * x[p];
          a1[p] += v1 * x[p];
          a2[p] += v2 * x[p];
          a3[p] += v3 * x[p];
        }
      }
      const float* acc[4] = {a0, a1, a2, a3};
      for (int64_t r = 0; r < rows; ++r) {
        float* dst = y + (o0 + r) * P + p0;
        const float b = bias ? bias[o0 + r] : 0.f;
        for (int64_t p = 0; p < cols; ++p) dst[p] = bias ? acc[r][p] + b : acc[r][p];
      }
    }
  }
}

/* col [(c * KH + i) * KW + j, oh * OW + ow] = x[c, ih, iw], 0 outside;
 * rows ccg_padded(OH * OW) apart, the padding zero. */
static inline void ccg_im2col(const float* restrict x, float* restrict col, int64_t C, int64_t H, int64_t W,
                              int64_t OH, int64_t OW, int64_t KH, int64_t KW, int64_t SH,
                              int64_t SW, int64_t PT, int64_t PL, int64_t DH, int64_t DW) {
  const int64_t stride = ccg_padded(OH * OW);
  for (int64_t c = 0; c < C; ++c) {
    for (int64_t i = 0; i < KH; ++i) {
      for (int64_t j = 0; j < KW; ++j) {
        float* dst = col + ((c * KH + i) * KW + j) * stride;
        for (int64_t p = OH * OW; p < stride; ++p) dst[p] = 0.f;
        for (int64_t oh = 0; oh < OH; ++oh) {
          const int64_t ih = oh * SH - PT + i * DH;
          float* out = dst + oh * OW;
          if (ih < 0 || ih >= H) {
            for (int64_t ow = 0; ow < OW; ++ow) out[ow] = 0.f;
            continue;
          }
          const float* row = x + (c * H + ih) * W;
          for (int64_t ow = 0; ow < OW; ++ow) {
            const int64_t iw = ow * SW - PL + j * DW;
            out[ow] = iw >= 0 && iw < W ? row[iw] : 0.f;
          }
        }
      }
    }
  }
}

/* Direct loops, for convolutions with few multiply-adds per output
 * (depthwise): out[n,o,oh,ow] = sum over c, i, j of x * w, then + bias[o]. */
static inline void ccg_conv2d_direct(const float* restrict x, const float* restrict w,
                                     const float* restrict bias, float* restrict y,
                                     int64_t N, int64_t C, int64_t H, int64_t W, int64_t O,
                                     int64_t OH, int64_t OW, int64_t KH, int64_t KW, int64_t SH,
                                     int64_t SW, int64_t PT, int64_t PL, int64_t DH, int64_t DW,
                                     int64_t G) {
  const int64_t cg = C / G, og = O / G;
  for (int64_t n = 0; n < N; ++n) {
    for (int64_t g = 0; g < G; ++g) {
      for (int64_t o = 0; o < og; ++o) {
        const int64_t oc = g * og + o;
        float* dst = y + (n * O + oc) * OH * OW;
        for (int64_t k = 0; k < OH * OW; ++k) dst[k] = 0.f;
        for (int64_t c = 0; c < cg; ++c) {
          const int64_t ic = g * cg + c;
          const float* src = x + (n * C + ic) * H * W;
          for (int64_t i = 0; i < KH; ++i) {
            for (int64_t j = 0; j < KW; ++j) {
              const float wv = w[((oc * cg + c) * KH + i) * KW + j];
              /* Output columns whose input column is inside [0, W). */
              int64_t ow0 = 0, ow1 = OW;
              while (ow0 < OW && ow0 * SW - PL + j * DW < 0) ++ow0;
              while (ow1 > ow0 && (ow1 - 1) * SW - PL + j * DW >= W) --ow1;
              for (int64_t oh = 0; oh < OH; ++oh) {
                const int64_t ih = oh * SH - PT + i * DH;
                if (ih < 0 || ih >= H) continue;
                const float* row = src + ih * W;
                const int64_t shift = j * DW - PL;
                float* out = dst + oh * OW;
                if (SW == 1) {
                  for (int64_t ow = ow0; ow < ow1; ++ow) out[ow] += wv * row[ow + shift];
                } else {
                  for (int64_t ow = ow0; ow < ow1; ++ow) out[ow] += wv * row[ow * SW + shift];
                }
              }
            }
          }
        }
        if (bias) {
          for (int64_t k = 0; k < OH * OW; ++k) dst[k] += bias[oc];
        }
      }
    }
  }
}

/* Depthwise convolution (one input and one output channel per group): each
 * channel is copied into a zero-padded plane in `buf` whose columns are
 * split into SW phases (column k * SW + q at phase q, index k), so that
 * every window tap reads 16 contiguous floats whatever the stride; the
 * generator's ConvBufferFloats sizes it. Every output sums over (i, j) in
 * order from 0, bias last, as the reference driver does. */
static inline void ccg_depthwise(const float* restrict x, const float* restrict w,
                                 const float* restrict bias, float* restrict y,
                                 float* restrict buf, int64_t N, int64_t C, int64_t H, int64_t W,
                                 int64_t OH, int64_t OW, int64_t KH, int64_t KW, int64_t SH,
                                 int64_t SW, int64_t PT, int64_t PL, int64_t DH, int64_t DW) {
  const int64_t OWP = ccg_padded(OW);
  const int64_t HP = (OH - 1) * SH + (KH - 1) * DH + 1;
  const int64_t WP = (OWP - 1) * SW + (KW - 1) * DW + 1;
  const int64_t WQ = (WP + SW - 1) / SW; /* floats per phase row */
  float* plane = buf;
  float* acc = buf + HP * SW * WQ;
  for (int64_t n = 0; n < N; ++n) {
    for (int64_t c = 0; c < C; ++c) {
      const float* src = x + (n * C + c) * H * W;
      for (int64_t k = 0; k < HP * SW * WQ; ++k) plane[k] = 0.f;
      const int64_t iw0 = PL < 0 ? -PL : 0;
      for (int64_t ih = PT < 0 ? -PT : 0; ih < H && PT + ih < HP; ++ih) {
        float* prow = plane + (PT + ih) * SW * WQ;
        int64_t q = (PL + iw0) % SW, k = (PL + iw0) / SW; /* phase and index of the column */
        for (int64_t iw = iw0; iw < W && PL + iw < WP; ++iw) {
          prow[q * WQ + k] = src[ih * W + iw];
          if (++q == SW) {
            q = 0;
            ++k;
          }
        }
      }
      const float* wc = w + c * KH * KW;
      float* dst = y + (n * C + c) * OH * OW;
      for (int64_t oh = 0; oh < OH; ++oh) {
        for (int64_t b = 0; b < OWP; b += CCG_LANES) {
          float a[CCG_LANES] = {0};
          for (int64_t i = 0; i < KH; ++i) {
            const int64_t row = oh * SH + i * DH;
            for (int64_t j = 0; j < KW; ++j) {
              const float wv = wc[i * KW + j];
              const int64_t off = b * SW + j * DW; /* padded column of tap (b, j) */
              const float* in = plane + (row * SW + off % SW) * WQ + off / SW;
              for (int p = 0; p < CCG_LANES; ++p) a[p] += wv * in[p];
            }
          }
          for (int p = 0; p < CCG_LANES; ++p) acc[b + p] = a[p];
        }
        const float bv = bias ? bias[c] : 0.f;
        for (int64_t ow = 0; ow < OW; ++ow) dst[oh * OW + ow] = bias ? acc[ow] + bv : acc[ow];
      }
    }
  }
}

/* Convolution per nn_ir.h: ccg_depthwise when every group has one input
 * and one output channel, else im2col + ccg_gemm per image and group, or
 * the direct loops when each output has few multiply-adds. `col` is sized
 * by the generator's ConvBufferFloats: the depthwise plane, else
 * (C / G) * KH * KW * ccg_padded(OH * OW) floats of im2col (unused by the
 * direct loops and by pointwise convolutions whose input rows are already
 * ccg_padded apart). */
static inline int ccg_conv2d_uses_gemm(int64_t C, int64_t KH, int64_t KW, int64_t G) {
  return (C / G) * KH * KW >= 8;
}

static inline void ccg_conv2d(const float* x, const float* w, const float* bias, float* y,
                              float* col, int64_t N, int64_t C, int64_t H, int64_t W, int64_t O,
                              int64_t OH, int64_t OW, int64_t KH, int64_t KW, int64_t SH,
                              int64_t SW, int64_t PT, int64_t PL, int64_t DH, int64_t DW,
                              int64_t G) {
  if (C == G && O == G) {
    ccg_depthwise(x, w, bias, y, col, N, C, H, W, OH, OW, KH, KW, SH, SW, PT, PL, DH, DW);
    return;
  }
  if (!ccg_conv2d_uses_gemm(C, KH, KW, G)) {
    ccg_conv2d_direct(x, w, bias, y, N, C, H, W, O, OH, OW, KH, KW, SH, SW, PT, PL, DH, DW, G);
    return;
  }
  const int64_t cg = C / G, og = O / G, K = cg * KH * KW, P = OH * OW;
  const int pointwise = KH == 1 && KW == 1 && SH == 1 && SW == 1 && PT == 0 && PL == 0 &&
                        OH == H && OW == W && ccg_padded(P) == P;
  for (int64_t n = 0; n < N; ++n) {
    for (int64_t g = 0; g < G; ++g) {
      const float* src = x + (n * C + g * cg) * H * W;
      if (!pointwise) {
        ccg_im2col(src, col, cg, H, W, OH, OW, KH, KW, SH, SW, PT, PL, DH, DW);
        src = col;
      }
      ccg_gemm(w + g * og * K, src, bias ? bias + g * og : 0, y + (n * O + g * og) * P, og, K, P);
    }
  }
}

/* Transposed convolution per nn_ir.h: filter [C, O / G, KH, KW]; every
 * input pixel scatters into the outputs it reaches, then + bias[o]. */
static inline void ccg_conv2d_transpose(const float* x, const float* w, const float* bias,
                                        float* y, int64_t N, int64_t C, int64_t H, int64_t W,
                                        int64_t O, int64_t OH, int64_t OW, int64_t KH, int64_t KW,
                                        int64_t SH, int64_t SW, int64_t PT, int64_t PL, int64_t DH,
                                        int64_t DW, int64_t G) {
  const int64_t cg = C / G, og = O / G;
  for (int64_t n = 0; n < N; ++n) {
    for (int64_t g = 0; g < G; ++g) {
      for (int64_t o = 0; o < og; ++o) {
        const int64_t oc = g * og + o;
        float* dst = y + (n * O + oc) * OH * OW;
        for (int64_t k = 0; k < OH * OW; ++k) dst[k] = 0.f;
        for (int64_t c = 0; c < cg; ++c) {
          const int64_t ic = g * cg + c;
          const float* src = x + (n * C + ic) * H * W;
          for (int64_t i = 0; i < KH; ++i) {
            for (int64_t j = 0; j < KW; ++j) {
              const float wv = w[((ic * og + o) * KH + i) * KW + j];
              for (int64_t ih = 0; ih < H; ++ih) {
                const int64_t oh = ih * SH - PT + i * DH;
                if (oh < 0 || oh >= OH) continue;
                for (int64_t iw = 0; iw < W; ++iw) {
                  const int64_t ow = iw * SW - PL + j * DW;
                  if (ow >= 0 && ow < OW) dst[oh * OW + ow] += wv * src[ih * W + iw];
                }
              }
            }
          }
        }
        if (bias) {
          for (int64_t k = 0; k < OH * OW; ++k) dst[k] += bias[oc];
        }
      }
    }
  }
}
