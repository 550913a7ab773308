// The sample driver's loops: convolution (any groups, so depthwise too),
// pooling, fully connected, broadcasting binary ops, activations, softmax,
// reshape and concat, float32 NCHW, following the semantics stated in the
// engine's nn_ir.h. Written for clarity, not speed.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>

#include "examples/npu_plugin/sample_model.h"

namespace sample {

int64_t Tensor::numel() const {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

namespace {

std::string Conv(const Op& op, const std::vector<Tensor>& in, const Tensor& out) {
  const auto st = op.Ints("strides"), pad = op.Ints("paddings"), dil = op.Ints("dilations");
  const int64_t groups = op.Int("groups", 1);
  if (st.size() != 2 || pad.size() != 4 || dil.size() != 2 || groups < 1) {
    return "conv2d needs strides[2], paddings[4], dilations[2], groups >= 1";
  }
  const Tensor& x = in[0];
  const Tensor& w = in[1];
  const float* bias = in.size() > 2 ? in[2].data : nullptr;
  const int64_t N = x.dims[0], C = x.dims[1], H = x.dims[2], W = x.dims[3];
  const int64_t O = out.dims[1], OH = out.dims[2], OW = out.dims[3];
  const int64_t KH = w.dims[2], KW = w.dims[3], CG = C / groups, OG = O / groups;
  if (C % groups || O % groups || w.dims[1] != CG) return "conv2d: channels do not match groups";
  for (int64_t n = 0; n < N; ++n) {
    for (int64_t o = 0; o < O; ++o) {
      const int64_t g = o / OG;
      for (int64_t oh = 0; oh < OH; ++oh) {
        for (int64_t ow = 0; ow < OW; ++ow) {
          double acc = bias ? bias[o] : 0.0;
          for (int64_t c = 0; c < CG; ++c) {
            const float* plane = x.data + (n * C + g * CG + c) * H * W;
            const float* k = w.data + (o * CG + c) * KH * KW;
            for (int64_t i = 0; i < KH; ++i) {
              const int64_t h = oh * st[0] - pad[0] + i * dil[0];
              if (h < 0 || h >= H) continue;
              for (int64_t j = 0; j < KW; ++j) {
                const int64_t col = ow * st[1] - pad[2] + j * dil[1];
                if (col >= 0 && col < W) acc += plane[h * W + col] * k[i * KW + j];
              }
            }
          }
          out.data[((n * O + o) * OH + oh) * OW + ow] = static_cast<float>(acc);
        }
      }
    }
  }
  return "";
}

std::string Pool(const Op& op, const Tensor& x, const Tensor& out) {
  const auto k = op.Ints("ksize"), st = op.Ints("strides"), pad = op.Ints("paddings");
  if (k.size() != 2 || st.size() != 2 || pad.size() != 4) {
    return "pool2d needs ksize[2], strides[2], paddings[4]";
  }
  const bool is_max = op.Int("pool_type", 0) == 0, exclusive = op.Int("exclusive", 1) != 0;
  const int64_t planes = x.dims[0] * x.dims[1], H = x.dims[2], W = x.dims[3];
  const int64_t OH = out.dims[2], OW = out.dims[3];
  for (int64_t p = 0; p < planes; ++p) {
    for (int64_t oh = 0; oh < OH; ++oh) {
      const int64_t hs = oh * st[0] - pad[0], he = std::min(hs + k[0], H + pad[0]);
      for (int64_t ow = 0; ow < OW; ++ow) {
        const int64_t ws = ow * st[1] - pad[2], we = std::min(ws + k[1], W + pad[2]);
        const int64_t h0 = std::max<int64_t>(hs, 0), h1 = std::min(he, H);
        const int64_t w0 = std::max<int64_t>(ws, 0), w1 = std::min(we, W);
        double acc = is_max ? -FLT_MAX : 0.0;
        for (int64_t h = h0; h < h1; ++h) {
          for (int64_t c = w0; c < w1; ++c) {
            const float v = x.data[(p * H + h) * W + c];
            acc = is_max ? std::max<double>(acc, v) : acc + v;
          }
        }
        const int64_t count = exclusive ? (h1 - h0) * (w1 - w0) : (he - hs) * (we - ws);
        if (!is_max) acc = count > 0 ? acc / count : 0.0;
        out.data[(p * OH + oh) * OW + ow] = static_cast<float>(acc);
      }
    }
  }
  return "";
}

std::string FullyConnected(const std::vector<Tensor>& in, const Tensor& out) {
  const Tensor& x = in[0];
  const Tensor& w = in[1];
  const int64_t M = x.dims[0], K = x.dims[1], N = w.dims[1];
  if (w.dims[0] != K) return "fully_connected: x and w disagree on K";
  for (int64_t m = 0; m < M; ++m) {
    for (int64_t n = 0; n < N; ++n) {
      double acc = in.size() > 2 ? in[2].data[n] : 0.0;
      for (int64_t k = 0; k < K; ++k) acc += x.data[m * K + k] * w.data[k * N + n];
      out.data[m * N + n] = static_cast<float>(acc);
    }
  }
  return "";
}

float Apply(int32_t type, float a, float b) {
  switch (type) {
    case LITE_NPU_OP_ADD: return a + b;
    case LITE_NPU_OP_SUB: return a - b;
    case LITE_NPU_OP_MUL: return a * b;
    case LITE_NPU_OP_DIV: return a / b;
    case LITE_NPU_OP_MAX: return std::max(a, b);
    default: return std::min(a, b);
  }
}

// Numpy broadcasting: walk the output index, map it into x and y.
std::string Binary(int32_t type, const Tensor& x, const Tensor& y, const Tensor& out) {
  const size_t rank = out.dims.size();
  if (x.dims.size() > rank || y.dims.size() > rank) return "binary: input rank above output";
  std::vector<int64_t> sx(rank, 0), sy(rank, 0);
  int64_t ax = 1, ay = 1;
  for (size_t r = rank; r-- > 0;) {
    const size_t off_x = rank - x.dims.size(), off_y = rank - y.dims.size();
    if (r >= off_x && x.dims[r - off_x] != 1) sx[r] = ax;
    if (r >= off_y && y.dims[r - off_y] != 1) sy[r] = ay;
    if (r >= off_x) ax *= x.dims[r - off_x];
    if (r >= off_y) ay *= y.dims[r - off_y];
  }
  std::vector<int64_t> idx(rank, 0);
  const int64_t total = out.numel();
  for (int64_t i = 0; i < total; ++i) {
    int64_t ix = 0, iy = 0;
    for (size_t r = 0; r < rank; ++r) ix += idx[r] * sx[r], iy += idx[r] * sy[r];
    out.data[i] = Apply(type, x.data[ix], y.data[iy]);
    for (size_t r = rank; r-- > 0;) {
      if (++idx[r] < out.dims[r]) break;
      idx[r] = 0;
    }
  }
  return "";
}

std::string Unary(const Op& op, const Tensor& x, const Tensor& out) {
  const int64_t n = out.numel();
  for (int64_t i = 0; i < n; ++i) {
    const float v = x.data[i];
    float r = v;
    switch (op.type) {
      case LITE_NPU_OP_RELU: r = v > 0 ? v : 0; break;
      case LITE_NPU_OP_RELU6: r = std::min(std::max(v, 0.f), 6.f); break;
      case LITE_NPU_OP_LEAKY_RELU: r = v > 0 ? v : op.Float("alpha", 0.02f) * v; break;
      case LITE_NPU_OP_SIGMOID: r = 1.f / (1.f + std::exp(-v)); break;
      case LITE_NPU_OP_TANH: r = std::tanh(v); break;
      case LITE_NPU_OP_SWISH: r = v / (1.f + std::exp(-op.Float("beta", 1.f) * v)); break;
      case LITE_NPU_OP_HARD_SWISH:
        r = v * std::min(std::max(v + op.Float("offset", 3.f), 0.f), op.Float("threshold", 6.f)) /
            op.Float("scale", 6.f);
        break;
      case LITE_NPU_OP_HARD_SIGMOID:
        r = std::min(std::max(op.Float("slope", 0.2f) * v + op.Float("offset", 0.5f), 0.f), 1.f);
        break;
      case LITE_NPU_OP_CLIP:
        r = std::min(std::max(v, op.Float("min", 0.f)), op.Float("max", 0.f));
        break;
      case LITE_NPU_OP_SCALE: r = op.Float("scale", 1.f) * v + op.Float("bias", 0.f); break;
      case LITE_NPU_OP_EXP: r = std::exp(v); break;
      case LITE_NPU_OP_ABS: r = std::fabs(v); break;
      default: return "not an elementwise unary operation";
    }
    out.data[i] = r;
  }
  return "";
}

// outer x axis x inner view of `dims` around `axis`.
void Split3(const std::vector<int64_t>& dims, int64_t axis, int64_t* outer, int64_t* inner) {
  *outer = 1;
  *inner = 1;
  for (int64_t d = 0; d < axis; ++d) *outer *= dims[d];
  for (size_t d = axis + 1; d < dims.size(); ++d) *inner *= dims[d];
}

std::string Softmax(const Op& op, const Tensor& x, const Tensor& out) {
  const int64_t axis = op.Int("axis", static_cast<int64_t>(x.dims.size()) - 1);
  if (axis < 0 || axis >= static_cast<int64_t>(x.dims.size())) return "softmax: bad axis";
  int64_t outer, inner;
  Split3(x.dims, axis, &outer, &inner);
  const int64_t len = x.dims[axis];
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      const int64_t base = o * len * inner + i;
      float top = -FLT_MAX;
      for (int64_t a = 0; a < len; ++a) top = std::max(top, x.data[base + a * inner]);
      double sum = 0;
      for (int64_t a = 0; a < len; ++a) {
        out.data[base + a * inner] = std::exp(x.data[base + a * inner] - top);
        sum += out.data[base + a * inner];
      }
      for (int64_t a = 0; a < len; ++a) out.data[base + a * inner] /= static_cast<float>(sum);
    }
  }
  return "";
}

std::string Concat(const Op& op, const std::vector<Tensor>& in, const Tensor& out) {
  const int64_t axis = op.Int("axis", 0);
  if (axis < 0 || axis >= static_cast<int64_t>(out.dims.size())) return "concat: bad axis";
  int64_t outer, inner;
  Split3(out.dims, axis, &outer, &inner);
  float* dst = out.data;
  for (int64_t o = 0; o < outer; ++o) {
    for (const Tensor& t : in) {
      const int64_t chunk = t.dims[axis] * inner;
      std::memcpy(dst, t.data + o * chunk, chunk * sizeof(float));
      dst += chunk;
    }
  }
  return "";
}

}  // namespace

std::string Unsupported(int32_t type) {
  switch (type) {
    case LITE_NPU_OP_CONV2D: case LITE_NPU_OP_POOL2D: case LITE_NPU_OP_FULLY_CONNECTED:
    case LITE_NPU_OP_ADD: case LITE_NPU_OP_SUB: case LITE_NPU_OP_MUL: case LITE_NPU_OP_DIV:
    case LITE_NPU_OP_MAX: case LITE_NPU_OP_MIN: case LITE_NPU_OP_RELU: case LITE_NPU_OP_RELU6:
    case LITE_NPU_OP_LEAKY_RELU: case LITE_NPU_OP_SIGMOID: case LITE_NPU_OP_TANH:
    case LITE_NPU_OP_SWISH: case LITE_NPU_OP_HARD_SWISH: case LITE_NPU_OP_HARD_SIGMOID:
    case LITE_NPU_OP_CLIP: case LITE_NPU_OP_SCALE: case LITE_NPU_OP_EXP: case LITE_NPU_OP_ABS:
    case LITE_NPU_OP_SOFTMAX: case LITE_NPU_OP_RESHAPE: case LITE_NPU_OP_CONCAT:
      return "";
    default:
      return "operation type " + std::to_string(type) + " is not implemented by sample_ref";
  }
}

std::string RunOp(const Op& op, const std::vector<Tensor>& in, const std::vector<Tensor>& out) {
  if (in.empty() || out.size() != 1) return "one output and some inputs expected";
  switch (op.type) {
    case LITE_NPU_OP_CONV2D: return in.size() < 2 ? "conv2d: no filter" : Conv(op, in, out[0]);
    case LITE_NPU_OP_POOL2D: return Pool(op, in[0], out[0]);
    case LITE_NPU_OP_FULLY_CONNECTED:
      return in.size() < 2 ? "fully_connected: no weights" : FullyConnected(in, out[0]);
    case LITE_NPU_OP_ADD: case LITE_NPU_OP_SUB: case LITE_NPU_OP_MUL: case LITE_NPU_OP_DIV:
    case LITE_NPU_OP_MAX: case LITE_NPU_OP_MIN:
      return in.size() != 2 ? "binary: two inputs expected" : Binary(op.type, in[0], in[1], out[0]);
    case LITE_NPU_OP_SOFTMAX: return Softmax(op, in[0], out[0]);
    case LITE_NPU_OP_RESHAPE:
      if (in[0].numel() != out[0].numel()) return "reshape: element counts differ";
      std::memcpy(out[0].data, in[0].data, out[0].numel() * sizeof(float));
      return "";
    case LITE_NPU_OP_CONCAT: return Concat(op, in, out[0]);
    default: return Unary(op, in[0], out[0]);
  }
}

}  // namespace sample
