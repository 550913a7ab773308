// x86 squeeze_excitation on NHWC activations (registered at layout NHWC, see
// lite/optimizer/passes/layout_cast_pass.cc), in vectorized C++ (AVX-512
// intrinsics where sums must stay in registers, plain loops otherwise): the
// block is a few thousand multiply-adds around two passes over X, too small
// for oneDNN primitives to pay off (on PP-OCR's classifier the four ops took
// ~15 us per block, this 3-4 by `perf`). X is summed per channel and scaled
// by the gate as one flat array, in chunks of a period that holds whole
// pixels (see PlanPeriod); the filters are transposed once at Prepare so
// both small products run over contiguous rows (Product). Chunks are split across the
// predictor's threads with OpenMP (the threading oneDNN uses too) when X is
// large enough (OmpForRangesIf: on one thread no OpenMP region is entered).
// With SqueezeExcitationParam::levels (int8_requantize_pass,
// registered as kInt8 "levels_out") each scaled chunk is quantized into Out
// by the int8 reader's own rule instead of being written as float32.
#include <omp.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "lite/backends/x86/omp_ranges.h"
#include "lite/core/kernel.h"
#include "lite/base/quant_math.h"
#include "lite/operators/squeeze_excitation_op.h"

namespace lite {
namespace kernels {
namespace x86 {

namespace {

constexpr int64_t kMinParallelElements = 1 << 15;
constexpr int64_t kMaxPeriod = 4096;

// y[0, n) += a * x[0, n)
inline void Axpy(float a, const float* x, float* y, int64_t n) {
#pragma omp simd
  for (int64_t i = 0; i < n; ++i) y[i] += a * x[i];
}

class SqueezeExcitationCompute : public KernelBase {
 public:
  Status Prepare() override {
    const auto& p = Param<operators::SqueezeExcitationParam>();
    c_ = p.squeeze_filter->dims()[1];
    r_ = p.squeeze_filter->dims()[0];
    squeeze_t_.resize(c_ * r_);
    excite_t_.resize(c_ * r_);
    const float* w1 = p.squeeze_filter->data<float>();  // [r][c]
    const float* w2 = p.excite_filter->data<float>();   // [c][r]
    for (int64_t i = 0; i < r_; ++i) {
      for (int64_t ch = 0; ch < c_; ++ch) {
        squeeze_t_[ch * r_ + i] = w1[i * c_ + ch];
        excite_t_[i * c_ + ch] = w2[ch * r_ + i];
      }
    }
    squeeze_bias_.assign(r_, 0.f);
    excite_bias_.assign(c_, 0.f);
    if (p.squeeze_bias) std::copy_n(p.squeeze_bias->data<float>(), r_, squeeze_bias_.begin());
    if (p.excite_bias) std::copy_n(p.excite_bias->data<float>(), c_, excite_bias_.begin());
    PlanPeriod();
    mean_.resize(c_);
    hidden_.resize(r_);
    gate_.resize(period_);
    return Status::OK();
  }

  Status Run() override {
    const auto& p = Param<operators::SqueezeExcitationParam>();
    const DDim& d = p.x->dims();
    const int64_t batch_size = d[2] * d[3] * c_;
    const int threads =
        batch_size >= kMinParallelElements ? std::max(1, ctx() ? ctx()->threads : 1) : 1;
    for (int64_t n = 0; n < d[0]; ++n) {
      const float* x = p.x->data<float>() + n * batch_size;
      SumChannels(x, batch_size, threads);
      ComputeGate(p, static_cast<float>(c_) / static_cast<float>(batch_size));
      if (p.levels.enabled) {
        ScaleChannelsToLevels(x, p.out->mutable_data<int8_t>() + n * batch_size, batch_size,
                              p.levels, threads);
      } else {
        ScaleChannels(x, p.out->mutable_data<float>() + n * batch_size, batch_size, threads);
      }
    }
    return Status::OK();
  }

 private:
  // X is read as a flat array in chunks of period_ floats: a multiple of
  // both C and the vector width (and at least 64, four independent vector
  // accumulators), so a chunk holds whole pixels and its loops have no
  // ragged tail even when C is 8 or 200. Channel c of the chunk sits at
  // c, c + C, c + 2C, ...
  void PlanPeriod() {
    const int64_t lcm = c_ / std::gcd<int64_t>(c_, 16) * 16;
    period_ = lcm * ((64 + lcm - 1) / lcm);
    if (period_ > kMaxPeriod) period_ = c_;  // rows then: C alone is long
  }

  // mean_[0, c) = sum of each channel over the batch item's pixels.
  void SumChannels(const float* x, int64_t size, int threads) {
    const int64_t period = period_, chunks = size / period;
    partial_.assign(threads * period, 0.f);
    lite::x86::OmpForRangesIf(threads > 1, threads, chunks, [&](int64_t k0, int64_t k1) {
      float* acc = partial_.data() + omp_get_thread_num() * period;  // 0 outside a region
      SumChunks(x, k0, k1, acc);
    });
    for (int64_t i = chunks * period; i < size; ++i) partial_[i - chunks * period] += x[i];
    for (int t = 1; t < threads; ++t) {
      Axpy(1.f, partial_.data() + t * period, partial_.data(), period);
    }
    std::copy_n(partial_.begin(), c_, mean_.begin());
    for (int64_t k = c_; k < period; k += c_) Axpy(1.f, partial_.data() + k, mean_.data(), c_);
  }

  // acc[0, period_) += chunks [k0, k1) of x. On AVX-512 builds the sums
  // of up to 8 vectors of the period stay in registers over all chunks
  // (PP-OCR's classifier: an accumulator in memory cost ~3 cycles a vector,
  // a store and a load back each time); otherwise one chunk at a time.
  void SumChunks(const float* x, int64_t k0, int64_t k1, float* acc) const {
    const int64_t period = period_;
#ifdef __AVX512F__
    if (period % 16 == 0) {
      for (int64_t j0 = 0; j0 < period; j0 += 128) {
        switch (std::min<int64_t>(8, (period - j0) / 16)) {
          case 8: SumVectors<8>(x + j0, period, k0, k1, acc + j0); break;
          case 7: SumVectors<7>(x + j0, period, k0, k1, acc + j0); break;
          case 6: SumVectors<6>(x + j0, period, k0, k1, acc + j0); break;
          case 5: SumVectors<5>(x + j0, period, k0, k1, acc + j0); break;
          case 4: SumVectors<4>(x + j0, period, k0, k1, acc + j0); break;
          case 3: SumVectors<3>(x + j0, period, k0, k1, acc + j0); break;
          case 2: SumVectors<2>(x + j0, period, k0, k1, acc + j0); break;
          default: SumVectors<1>(x + j0, period, k0, k1, acc + j0); break;
        }
      }
      return;
    }
#endif
    for (int64_t k = k0; k < k1; ++k) {
      const float* xk = x + k * period;
#pragma omp simd
      for (int64_t j = 0; j < period; ++j) acc[j] += xk[j];
    }
  }

#ifdef __AVX512F__
  // acc[0, 16 V) += x[k * stride, k * stride + 16 V) for k in [k0, k1).
  template <int V>
  static void SumVectors(const float* x, int64_t stride, int64_t k0, int64_t k1, float* acc) {
    __m512 s[V];
#pragma GCC unroll 8
    for (int v = 0; v < V; ++v) s[v] = _mm512_loadu_ps(acc + 16 * v);
    for (int64_t k = k0; k < k1; ++k) {
      const float* xk = x + k * stride;
#pragma GCC unroll 8
      for (int v = 0; v < V; ++v) s[v] = _mm512_add_ps(s[v], _mm512_loadu_ps(xk + 16 * v));
    }
#pragma GCC unroll 8
    for (int v = 0; v < V; ++v) _mm512_storeu_ps(acc + 16 * v, s[v]);
  }
#endif

  // gate_ = y_act(excite . qd(act(squeeze . qd(mean_ * inv_pixels) + b1))
  // + b2), repeated over a period; qd: the op's quant-dequant steps.
  void ComputeGate(const operators::SqueezeExcitationParam& p, float inv_pixels) {
    for (int64_t ch = 0; ch < c_; ++ch) mean_[ch] *= inv_pixels;
    operators::QuantDequantInPlace(p.squeeze_input_scale, p.squeeze_round_type, mean_.data(), c_);
    Product(mean_.data(), c_, squeeze_t_.data(), r_, squeeze_bias_.data(), hidden_.data());
    p.act.ApplyInPlace(hidden_.data(), r_);
    operators::QuantDequantInPlace(p.excite_input_scale, p.excite_round_type, hidden_.data(), r_);
    Product(hidden_.data(), r_, excite_t_.data(), c_, excite_bias_.data(), gate_.data());
    p.y_act.ApplyInPlace(gate_.data(), c_);
    for (int64_t k = c_; k < period_; k += c_) std::copy_n(gate_.begin(), c_, gate_.begin() + k);
  }

  // y[0, n) = bias + sum over i < k of x[i] * w[i][0, n) (w: k rows of n),
  // each y summed in the order of i with fused multiply-adds. On AVX-512
  // builds up to 8 vectors of y stay in registers over all k rows (as
  // axpys over y in memory, each row and vector costs a store and a load);
  // otherwise one axpy per row.
  static void Product(const float* x, int64_t k, const float* w, int64_t n, const float* bias,
                      float* y) {
#ifdef __AVX512F__
    for (int64_t j0 = 0; j0 < n; j0 += 128) {
      const int64_t m = std::min<int64_t>(128, n - j0);
      switch ((m + 15) / 16) {
        case 8: ProductBlock<8>(x, k, w + j0, n, m, bias + j0, y + j0); break;
        case 7: ProductBlock<7>(x, k, w + j0, n, m, bias + j0, y + j0); break;
        case 6: ProductBlock<6>(x, k, w + j0, n, m, bias + j0, y + j0); break;
        case 5: ProductBlock<5>(x, k, w + j0, n, m, bias + j0, y + j0); break;
        case 4: ProductBlock<4>(x, k, w + j0, n, m, bias + j0, y + j0); break;
        case 3: ProductBlock<3>(x, k, w + j0, n, m, bias + j0, y + j0); break;
        case 2: ProductBlock<2>(x, k, w + j0, n, m, bias + j0, y + j0); break;
        default: ProductBlock<1>(x, k, w + j0, n, m, bias + j0, y + j0); break;
      }
    }
#else
    std::copy_n(bias, n, y);
    for (int64_t i = 0; i < k; ++i) Axpy(x[i], w + i * n, y, n);
#endif
  }

#ifdef __AVX512F__
  // Product's y[0, m) (m <= 16 V; the last vector masked) of the columns
  // starting at w (row stride n).
  template <int V>
  static void ProductBlock(const float* x, int64_t k, const float* w, int64_t n, int64_t m,
                           const float* bias, float* y) {
    const __mmask16 last = static_cast<__mmask16>(m - 16 * (V - 1) >= 16
                                                      ? 0xFFFF
                                                      : (1u << (m - 16 * (V - 1))) - 1);
    __m512 acc[V];
#pragma GCC unroll 8
    for (int v = 0; v < V; ++v) {
      acc[v] = _mm512_maskz_loadu_ps(v == V - 1 ? last : __mmask16(0xFFFF), bias + 16 * v);
    }
    for (int64_t i = 0; i < k; ++i) {
      const __m512 xi = _mm512_set1_ps(x[i]);
      const float* wi = w + i * n;
#pragma GCC unroll 8
      for (int v = 0; v < V; ++v) {
        const __m512 wv =
            _mm512_maskz_loadu_ps(v == V - 1 ? last : __mmask16(0xFFFF), wi + 16 * v);
        acc[v] = _mm512_fmadd_ps(xi, wv, acc[v]);
      }
    }
#pragma GCC unroll 8
    for (int v = 0; v < V; ++v) {
      _mm512_mask_storeu_ps(y + 16 * v, v == V - 1 ? last : __mmask16(0xFFFF), acc[v]);
    }
  }
#endif

  void ScaleChannels(const float* x, float* y, int64_t size, int threads) {
    const int64_t period = period_, chunks = size / period;
    const float* g = gate_.data();
    lite::x86::OmpForRangesIf(threads > 1, threads, chunks, [&](int64_t k0, int64_t k1) {
      for (int64_t k = k0; k < k1; ++k) {
        const float* xk = x + k * period;
        float* yk = y + k * period;
#pragma omp simd
        for (int64_t j = 0; j < period; ++j) yk[j] = xk[j] * g[j];
      }
    });
    for (int64_t i = chunks * period; i < size; ++i) y[i] = x[i] * g[i - chunks * period];
  }

  // ScaleChannels quantized into y a block of whole periods at a time.
  void ScaleChannelsToLevels(const float* x, int8_t* y, int64_t size,
                             const operators::LevelsOutput& levels, int threads) {
    const int64_t block = period_ * std::max<int64_t>(1, kMaxPeriod / period_);
    const int64_t blocks = (size + block - 1) / block;
    lite::x86::OmpForRangesIf(threads > 1, threads, blocks, [&](int64_t k0, int64_t k1) {
      for (int64_t k = k0; k < k1; ++k) {
        ScaleBlockToLevels(x + k * block, y + k * block, std::min(block, size - k * block),
                           block, levels);
      }
    });
  }

  // n values (whole periods but maybe the last) of x times the gate into
  // levels: on AVX-512 builds each 16 products go straight to levels
  // (Quantizer16); otherwise through a float buffer of `block` values.
  void ScaleBlockToLevels(const float* xk, int8_t* yk, int64_t n, int64_t block,
                          const operators::LevelsOutput& levels) const {
    const float* g = gate_.data();
#ifdef __AVX512F__
    if (period_ % 16 == 0) {
      const operators::quant::Quantizer16 q16(levels.scale, 127, levels.round_type);
      const operators::quant::Quantizer q(levels.scale, 127, levels.round_type);
      for (int64_t j0 = 0; j0 < n; j0 += period_) {
        const int64_t m = std::min(period_, n - j0);
        int64_t j = 0;
        for (; j + 16 <= m; j += 16) {
          const __m512 v = _mm512_mul_ps(_mm512_loadu_ps(xk + j0 + j), _mm512_loadu_ps(g + j));
          _mm_storeu_si128(reinterpret_cast<__m128i*>(yk + j0 + j), q16.LevelBytes(v));
        }
        for (; j < m; ++j) yk[j0 + j] = static_cast<int8_t>(q.Level(xk[j0 + j] * g[j]));
      }
      return;
    }
#endif
    thread_local std::vector<float> scaled;
    if (static_cast<int64_t>(scaled.size()) < block) scaled.resize(block);
    for (int64_t j0 = 0; j0 < n; j0 += period_) {
      const int64_t m = std::min(period_, n - j0);
#pragma omp simd
      for (int64_t j = 0; j < m; ++j) scaled[j0 + j] = xk[j0 + j] * g[j];
    }
    operators::quant::QuantizeToInt8(scaled.data(), yk, n, levels.scale, 127, levels.round_type);
  }

  int64_t c_ = 0, r_ = 0;
  std::vector<float> squeeze_t_;  // [c][r]
  std::vector<float> excite_t_;   // [r][c]
  std::vector<float> squeeze_bias_, excite_bias_;
  int64_t period_ = 0;            // see PlanPeriod
  std::vector<float> partial_;    // [threads][period]
  std::vector<float> mean_;       // [c]
  std::vector<float> hidden_;     // [r]
  std::vector<float> gate_;       // [period]: the gate, repeated
};

}  // namespace
}  // namespace x86
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(squeeze_excitation, kX86, kFloat, kNHWC,
                     lite::kernels::x86::SqueezeExcitationCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(squeeze_excitation, kX86, kInt8, kNHWC,
                     lite::kernels::x86::SqueezeExcitationCompute, levels_out)
    .BindInput("X", lite::Place(TARGET(kX86), PRECISION(kFloat), DATALAYOUT(kNHWC)))
    .BindInput("SqueezeFilter", lite::Place(TARGET(kX86), PRECISION(kFloat), DATALAYOUT(kNHWC)))
    .BindInput("SqueezeBias", lite::Place(TARGET(kX86), PRECISION(kFloat), DATALAYOUT(kNHWC)))
    .BindInput("ExciteFilter", lite::Place(TARGET(kX86), PRECISION(kFloat), DATALAYOUT(kNHWC)))
    .BindInput("ExciteBias", lite::Place(TARGET(kX86), PRECISION(kFloat), DATALAYOUT(kNHWC)))
    .BindOutput("Out", lite::Place(TARGET(kX86), PRECISION(kInt8), DATALAYOUT(kNHWC)))
    .SetAccepts([](const lite::cpp::OpDesc& desc) {
      return desc.GetAttr<bool>("enable_int8", false) &&
             desc.GetAttr<std::string>("Output_dtype", "float32") == "int8";
    })
    .Finalize();
