// Convolution, transposed convolution, pooling and fully connected loops.
#include <algorithm>
#include <cfloat>

#include "lite/backends/npu/reference/reference_ops.h"

namespace lite {
namespace npu {
namespace reference {

namespace {
struct Window {
  int64_t sh, sw, top, left, dh, dw;
};

StatusOr<Window> ReadWindow(const Operation& op) {
  auto strides = op.Ints("strides"), pads = op.Ints("paddings"), dil = op.Ints("dilations");
  if (dil.empty()) dil = {1, 1};
  if (strides.size() != 2 || pads.size() != 4 || dil.size() != 2) {
    return InvalidArgument(op.origin + ": strides [2], paddings [4] and dilations [2] expected");
  }
  return Window{strides[0], strides[1], pads[0], pads[2], dil[0], dil[1]};
}

// acc[n, o, oh, ow] = sum over the window of (x - zx) * filter, in A (float
// for float32 operands, int32 for int8 levels). Padding contributes
// nothing: a padded position holds real 0, i.e. the level zx.
template <typename T, typename A>
Status Accumulate(const Operation& op, const T* xd, const std::vector<int64_t>& xdims,
                  const T* fd, const std::vector<int64_t>& fdims, A zx,
                  const std::vector<int64_t>& odims, A* acc) {
  ASSIGN_OR_RETURN(Window w, ReadWindow(op));
  const int64_t groups = std::max<int64_t>(1, op.Int("groups", 1));
  const bool transpose = op.type == OperationType::kConv2DTranspose;
  const int64_t N = xdims[0], C = xdims[1], H = xdims[2], W = xdims[3];
  const int64_t O = odims[1], OH = odims[2], OW = odims[3];
  const int64_t KH = fdims[2], KW = fdims[3];
  const int64_t cg = C / groups, og = O / groups;
  for (int64_t i = 0; i < N * O * OH * OW; ++i) acc[i] = A(0);
  for (int64_t n = 0; n < N; ++n) {
    for (int64_t g = 0; g < groups; ++g) {
      for (int64_t o = 0; o < og; ++o) {
        const int64_t oc = g * og + o;
        A* dst = acc + (n * O + oc) * OH * OW;
        for (int64_t c = 0; c < cg; ++c) {
          const int64_t ic = g * cg + c;
          const T* src = xd + (n * C + ic) * H * W;
          for (int64_t i = 0; i < KH; ++i) {
            for (int64_t j = 0; j < KW; ++j) {
              // conv: filter [O, C/groups, kh, kw]; transpose: [C, O/groups, kh, kw].
              const A wv = transpose ? A(fd[((ic * og + o) * KH + i) * KW + j])
                                     : A(fd[((oc * cg + c) * KH + i) * KW + j]);
              if (!transpose) {
                for (int64_t oh = 0; oh < OH; ++oh) {
                  const int64_t ih = oh * w.sh - w.top + i * w.dh;
                  if (ih < 0 || ih >= H) continue;
                  for (int64_t ow = 0; ow < OW; ++ow) {
                    const int64_t iw = ow * w.sw - w.left + j * w.dw;
                    if (iw >= 0 && iw < W) dst[oh * OW + ow] += wv * (A(src[ih * W + iw]) - zx);
                  }
                }
              } else {
                for (int64_t ih = 0; ih < H; ++ih) {
                  const int64_t oh = ih * w.sh - w.top + i * w.dh;
                  if (oh < 0 || oh >= OH) continue;
                  for (int64_t iw = 0; iw < W; ++iw) {
                    const int64_t ow = iw * w.sw - w.left + j * w.dw;
                    if (ow >= 0 && ow < OW) dst[oh * OW + ow] += wv * (A(src[ih * W + iw]) - zx);
                  }
                }
              }
            }
          }
        }
      }
    }
  }
  return Status::OK();
}

}  // namespace

Status RunConvolution(const Operation& op, const std::vector<View>& in, const MutableView& out) {
  RETURN_IF_ERROR(Accumulate(op, in[0].data, in[0].dims, in[1].data, in[1].dims, 0.f, out.dims,
                             out.data));
  if (in.size() > 2) {
    const int64_t O = out.dims[1], plane = out.dims[2] * out.dims[3];
    for (int64_t i = 0; i < out.dims[0] * O; ++i) {
      for (int64_t k = 0; k < plane; ++k) out.data[i * plane + k] += in[2].data[i % O];
    }
  }
  return Status::OK();
}

Status AccumulateQuantizedConvolution(const Operation& op, const int8_t* x,
                                      const std::vector<int64_t>& xdims, int32_t zx,
                                      const int8_t* filter, const std::vector<int64_t>& fdims,
                                      const std::vector<int64_t>& odims, int32_t* acc) {
  return Accumulate<int8_t, int32_t>(op, x, xdims, filter, fdims, zx, odims, acc);
}

Status RunPool(const Operation& op, const View& x, const MutableView& out) {
  auto ks = op.Ints("ksize"), strides = op.Ints("strides"), pads = op.Ints("paddings");
  if (ks.size() != 2 || strides.size() != 2 || pads.size() != 4) {
    return InvalidArgument(op.origin + ": ksize [2], strides [2] and paddings [4] expected");
  }
  const bool is_max = op.Int("pool_type", 0) == 0;
  const bool exclusive = op.Int("exclusive", 1) != 0;
  const int64_t NC = x.dims[0] * x.dims[1], H = x.dims[2], W = x.dims[3];
  const int64_t OH = out.dims[2], OW = out.dims[3];
  for (int64_t p = 0; p < NC; ++p) {
    const float* src = x.data + p * H * W;
    float* dst = out.data + p * OH * OW;
    for (int64_t oh = 0; oh < OH; ++oh) {
      // Paddle bounds the window end by the *top* padding (nn_ir.h).
      int64_t hs = oh * strides[0] - pads[0];
      int64_t he = std::min(hs + ks[0], H + pads[0]);
      for (int64_t ow = 0; ow < OW; ++ow) {
        int64_t ws = ow * strides[1] - pads[2];
        int64_t we = std::min(ws + ks[1], W + pads[2]);
        const int64_t full = (he - hs) * (we - ws);
        const int64_t h0 = std::max<int64_t>(hs, 0), h1 = std::min(he, H);
        const int64_t w0 = std::max<int64_t>(ws, 0), w1 = std::min(we, W);
        float acc = is_max ? -FLT_MAX : 0.f;
        for (int64_t h = h0; h < h1; ++h) {
          for (int64_t w = w0; w < w1; ++w) {
            const float v = src[h * W + w];
            acc = is_max ? std::max(acc, v) : acc + v;
          }
        }
        if (!is_max) {
          const int64_t count = exclusive ? (h1 - h0) * (w1 - w0) : full;
          acc = count > 0 ? acc / static_cast<float>(count) : 0.f;
        }
        dst[oh * OW + ow] = acc;
      }
    }
  }
  return Status::OK();
}

Status RunFullyConnected(const std::vector<View>& in, const MutableView& out) {
  const View& x = in[0];
  const View& w = in[1];
  const float* bias = in.size() > 2 ? in[2].data : nullptr;
  const int64_t M = x.dims[0], K = x.dims[1], N = w.dims[1];
  for (int64_t m = 0; m < M; ++m) {
    float* row = out.data + m * N;
    for (int64_t n = 0; n < N; ++n) row[n] = bias ? bias[n] : 0.f;
    for (int64_t k = 0; k < K; ++k) {
      const float xv = x.data[m * K + k];
      const float* wrow = w.data + k * N;
      for (int64_t n = 0; n < N; ++n) row[n] += xv * wrow[n];
    }
  }
  return Status::OK();
}

}  // namespace reference
}  // namespace npu
}  // namespace lite
