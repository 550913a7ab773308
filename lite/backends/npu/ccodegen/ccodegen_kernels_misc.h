/* The ccodegen driver's kernel library, continued from ccodegen_kernels.h
 * (its convolutions): resize, pooling, fully connected, elementwise,
 * softmax, copies, gather, pad and batch norm, under the same rules. The
 * kernels_text genrule embeds this text after ccodegen_kernels.h's, without
 * this opening comment, so the generated code is as it was before the split.
 */

/* Source index (lo, hi) and the weight of hi along one axis (nn_ir.h). */
static inline void ccg_resize_axis(int nearest, int align_corners, int half_pixel, float ratio,
                                   int64_t in, int64_t k, int64_t* lo, int64_t* hi, float* d) {
  if (nearest) {
    int64_t v = align_corners ? (int64_t)(ratio * (float)k + 0.5f) : (int64_t)(ratio * (float)k);
    v = v < 0 ? 0 : v;
    *lo = *hi = v < in - 1 ? v : in - 1;
    *d = 0.f;
    return;
  }
  int64_t l = half_pixel ? (int64_t)(ratio * ((float)k + 0.5f) - 0.5f) : (int64_t)(ratio * (float)k);
  l = l < 0 ? 0 : l;
  l = l < in - 1 ? l : in - 1;
  *lo = l;
  *hi = l + 1 < in - 1 ? l + 1 : in - 1;
  float src = ratio * ((float)k + 0.5f) - 0.5f;
  src = src > 0.f ? src : 0.f;
  *d = half_pixel ? src - (float)l : ratio * (float)k - (float)l;
}

static inline void ccg_resize(const float* x, float* y, int64_t NC, int64_t H, int64_t W,
                              int64_t OH, int64_t OW, int nearest, int align_corners,
                              int half_pixel, float rh, float rw) {
  for (int64_t p = 0; p < NC; ++p) {
    const float* src = x + p * H * W;
    float* dst = y + p * OH * OW;
    for (int64_t oh = 0; oh < OH; ++oh) {
      int64_t y0, y1;
      float dy;
      ccg_resize_axis(nearest, align_corners, half_pixel, rh, H, oh, &y0, &y1, &dy);
      for (int64_t ow = 0; ow < OW; ++ow) {
        int64_t x0, x1;
        float dx;
        ccg_resize_axis(nearest, align_corners, half_pixel, rw, W, ow, &x0, &x1, &dx);
        if (nearest) {
          dst[oh * OW + ow] = src[y0 * W + x0];
          continue;
        }
        dst[oh * OW + ow] = (1 - dy) * ((1 - dx) * src[y0 * W + x0] + dx * src[y0 * W + x1]) +
                            dy * ((1 - dx) * src[y1 * W + x0] + dx * src[y1 * W + x1]);
      }
    }
  }
}

/* Window rules of nn_ir.h: the end is bounded by H + top, then clipped. */
static inline void ccg_pool2d(const float* restrict x, float* restrict y, int64_t NC, int64_t H, int64_t W,
                              int64_t OH, int64_t OW, int64_t KH, int64_t KW, int64_t SH,
                              int64_t SW, int64_t PT, int64_t PL, int is_max, int exclusive) {
  for (int64_t p = 0; p < NC; ++p) {
    const float* src = x + p * H * W;
    float* dst = y + p * OH * OW;
    for (int64_t oh = 0; oh < OH; ++oh) {
      const int64_t hs = oh * SH - PT;
      const int64_t he = hs + KH < H + PT ? hs + KH : H + PT;
      const int64_t h0 = hs > 0 ? hs : 0, h1 = he < H ? he : H;
      for (int64_t ow = 0; ow < OW; ++ow) {
        const int64_t ws = ow * SW - PL;
        const int64_t we = ws + KW < W + PL ? ws + KW : W + PL;
        const int64_t w0 = ws > 0 ? ws : 0, w1 = we < W ? we : W;
        float acc = is_max ? -FLT_MAX : 0.f;
        for (int64_t h = h0; h < h1; ++h) {
          for (int64_t w = w0; w < w1; ++w) {
            const float v = src[h * W + w];
            if (is_max) {
              acc = v > acc ? v : acc;
            } else {
              acc += v;
            }
          }
        }
        if (!is_max) {
          const int64_t count = exclusive ? (h1 - h0) * (w1 - w0) : (he - hs) * (we - ws);
          acc = count > 0 ? acc / (float)count : 0.f;
        }
        dst[oh * OW + ow] = acc;
      }
    }
  }
}

/* out [M, N] = x [M, K] * w [K, N] + bias [N]. */
static inline void ccg_fully_connected(const float* restrict x, const float* restrict w,
                                       const float* restrict bias, float* restrict y, int64_t M, int64_t K, int64_t N) {
  for (int64_t m = 0; m < M; ++m) {
    float* row = y + m * N;
    for (int64_t n = 0; n < N; ++n) row[n] = bias ? bias[n] : 0.f;
    for (int64_t k = 0; k < K; ++k) {
      const float xv = x[m * K + k];
      const float* wrow = w + k * N;
      for (int64_t n = 0; n < N; ++n) row[n] += xv * wrow[n];
    }
  }
}

static inline float ccg_apply_binary(int op, float a, float b) {
  switch (op) {
    case CCG_ADD: return a + b;
    case CCG_SUB: return a - b;
    case CCG_MUL: return a * b;
    case CCG_DIV: return a / b;
    case CCG_MAX: return a > b ? a : b;
    case CCG_MIN: return a < b ? a : b;
    default: return a > 0 ? a : b * a; /* CCG_PRELU */
  }
}

/* Numpy broadcasting: dims are the output's, sx / sy the input strides per
 * output dim (0 where broadcast). The last dim is the inner loop. */
static inline void ccg_binary(int op, const float* restrict x, const float* restrict y,
                              float* restrict out, int rank,
                              const int64_t* dims, const int64_t* sx, const int64_t* sy) {
  int64_t index[CCG_MAX_RANK] = {0};
  int64_t outer = 1;
  for (int r = 0; r + 1 < rank; ++r) outer *= dims[r];
  const int64_t len = dims[rank - 1], ix1 = sx[rank - 1], iy1 = sy[rank - 1];
  int64_t ix = 0, iy = 0;
  for (int64_t o = 0; o < outer; ++o) {
    float* dst = out + o * len;
    if (ix1 == 1 && iy1 == 1) {
      for (int64_t k = 0; k < len; ++k) dst[k] = ccg_apply_binary(op, x[ix + k], y[iy + k]);
    } else if (ix1 == 1 && iy1 == 0) {
      const float b = y[iy];
      for (int64_t k = 0; k < len; ++k) dst[k] = ccg_apply_binary(op, x[ix + k], b);
    } else {
      for (int64_t k = 0; k < len; ++k) {
        dst[k] = ccg_apply_binary(op, x[ix + k * ix1], y[iy + k * iy1]);
      }
    }
    for (int r = rank - 2; r >= 0; --r) { /* odometer over the outer dims */
      ++index[r];
      ix += sx[r];
      iy += sy[r];
      if (index[r] < dims[r]) break;
      ix -= sx[r] * index[r];
      iy -= sy[r] * index[r];
      index[r] = 0;
    }
  }
}

/* p: alpha, beta, min, max, threshold, scale, offset, slope, bias. */
static inline void ccg_unary(int op, const float* restrict x, float* restrict y, int64_t n, const float* p) {
  for (int64_t i = 0; i < n; ++i) {
    const float v = x[i];
    float r;
    switch (op) {
      case CCG_RELU: r = v > 0.f ? v : 0.f; break;
      case CCG_RELU6: r = v > 0.f ? v : 0.f; r = r < 6.f ? r : 6.f; break;
      case CCG_LEAKY_RELU: r = v > 0 ? v : p[0] * v; break;
      case CCG_SIGMOID: r = 1.f / (1.f + expf(-v)); break;
      case CCG_TANH: r = tanhf(v); break;
      case CCG_SWISH: r = v / (1.f + expf(-p[1] * v)); break;
      case CCG_HARD_SWISH: {
        float t = v + p[6];
        t = t > 0.f ? t : 0.f;
        t = t < p[4] ? t : p[4];
        r = v * t / p[5];
        break;
      }
      case CCG_HARD_SIGMOID: {
        float t = p[7] * v + p[6];
        t = t > 0.f ? t : 0.f;
        r = t < 1.f ? t : 1.f;
        break;
      }
      case CCG_CLIP: r = v > p[2] ? v : p[2]; r = r < p[3] ? r : p[3]; break;
      case CCG_SCALE: r = p[5] * v + p[8]; break;
      case CCG_EXP: r = expf(v); break;
      default: r = fabsf(v); break; /* CCG_ABS */
    }
    y[i] = r;
  }
}

static inline void ccg_softmax(const float* restrict x, float* restrict y, int64_t outer, int64_t len,
                               int64_t inner) {
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t in = 0; in < inner; ++in) {
      const float* src = x + o * len * inner + in;
      float* dst = y + o * len * inner + in;
      float m = -INFINITY;
      for (int64_t k = 0; k < len; ++k) m = src[k * inner] > m ? src[k * inner] : m;
      float sum = 0;
      for (int64_t k = 0; k < len; ++k) {
        dst[k * inner] = expf(src[k * inner] - m);
        sum += dst[k * inner];
      }
      for (int64_t k = 0; k < len; ++k) dst[k * inner] /= sum;
    }
  }
}

/* Copies x's [outer, len, inner] block into (or, when split, out of) the
 * [outer, total, inner] tensor y at offset along the middle dim. */
static inline void ccg_copy_block(const float* x, float* y, int64_t outer, int64_t len,
                                  int64_t total, int64_t offset, int64_t inner, int split) {
  for (int64_t o = 0; o < outer; ++o) {
    const int64_t part = o * len * inner, whole = (o * total + offset) * inner;
    if (split) {
      memcpy(y + part, x + whole, (size_t)(len * inner) * sizeof(float));
    } else {
      memcpy(y + whole, x + part, (size_t)(len * inner) * sizeof(float));
    }
  }
}

/* y[idx] = x[base + sum idx[r] * sx[r]] over the output dims: transpose
 * (sx permuted) and slice (base at the begins). */
static inline void ccg_gather(const float* x, float* y, int rank, const int64_t* dims,
                              const int64_t* sx, int64_t base) {
  int64_t index[CCG_MAX_RANK] = {0};
  int64_t total = 1;
  for (int r = 0; r < rank; ++r) total *= dims[r];
  int64_t src = base;
  for (int64_t i = 0; i < total; ++i) {
    y[i] = x[src];
    for (int r = rank - 1; r >= 0; --r) {
      ++index[r];
      src += sx[r];
      if (index[r] < dims[r]) break;
      src -= sx[r] * index[r];
      index[r] = 0;
    }
  }
}

/* mode 0 constant (value), 1 reflect, 2 edge; pads {before0, after0, ...}. */
static inline void ccg_pad(const float* x, float* y, int rank, const int64_t* xdims,
                           const int64_t* ydims, const int64_t* pads, int mode, float value) {
  int64_t index[CCG_MAX_RANK] = {0}, xs[CCG_MAX_RANK];
  int64_t total = 1, s = 1;
  for (int r = rank - 1; r >= 0; --r) {
    xs[r] = s;
    s *= xdims[r];
    total *= ydims[r];
  }
  for (int64_t i = 0; i < total; ++i) {
    int64_t src = 0;
    for (int r = 0; r < rank; ++r) {
      int64_t p = index[r] - pads[2 * r];
      const int64_t n = xdims[r];
      if (p < 0 || p >= n) {
        if (mode == 0) {
          src = -1;
          break;
        }
        if (mode == 1) {
          p = p < 0 ? -p : 2 * (n - 1) - p;
        } else {
          p = p < 0 ? 0 : n - 1;
        }
      }
      src += p * xs[r];
    }
    y[i] = src < 0 ? value : x[src];
    for (int r = rank - 1; r >= 0; --r) {
      if (++index[r] < ydims[r]) break;
      index[r] = 0;
    }
  }
}

/* Per channel (dim 1): (x - mean) / sqrt(variance + eps) * scale + bias. */
static inline void ccg_batch_norm(const float* restrict x, const float* scale, const float* bias,
                                  const float* mean, const float* variance, float* y,
                                  int64_t N, int64_t C, int64_t inner, float eps) {
  for (int64_t n = 0; n < N; ++n) {
    for (int64_t c = 0; c < C; ++c) {
      const float k = scale[c] / sqrtf(variance[c] + eps);
      const float b = bias[c] - mean[c] * k;
      const float* src = x + (n * C + c) * inner;
      float* dst = y + (n * C + c) * inner;
      for (int64_t i = 0; i < inner; ++i) dst[i] = src[i] * k + b;
    }
  }
}
