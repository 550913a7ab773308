// x86 concat (float inputs of equal rank, a static axis; an AxisTensor input
// declines at kernel pick). Registered at layout NHWC. Channel concats of
// rank-4 NHWC inputs, and inputs a fusion upscales (ConcatParam::upscale),
// are one NHWC loop writing each output pixel's channels once: oneDNN's
// concat copies them with a memcpy call per pixel and input. Other axes and layouts use oneDNN's
// concat primitive, re-created when any input's dims change; inputs with no
// elements are left out, as Paddle does.
// With ConcatParam::levels (int8_requantize_pass, registered as kInt8
// "levels_out") Out holds int8 levels (operators/quant_math.h: the very
// levels the int8 readers would compute): the NHWC loop quantizes each input
// once at its own resolution and joins the int8 rows (a nearest upscale
// copies values, so the levels are the same as quantizing after it); the
// oneDNN path concatenates into a float temporary and quantizes that.
// Inputs with InputScale (ConcatParam::input_scales, concat_scale_fuse_pass)
// take the NHWC loop too, each value multiplied by its sample's and
// channel's scale as it is copied or quantized.
#include <immintrin.h>

#include <cstring>
#include <vector>

#include "lite/backends/x86/omp_ranges.h"
#include "lite/kernels/x86/dnnl_kernel.h"
#include "lite/core/host_fallback.h"
#include "lite/operators/concat_split_ops.h"
#include "lite/base/quant_math.h"

namespace lite {
namespace kernels {
namespace x86 {

namespace {

class ConcatCompute : public DnnlKernel {
 protected:
  Status RunDnnl() override {
    const auto& p = Param<operators::ConcatParam>();
    std::vector<DDim> dims;
    for (const Tensor* x : p.xs) {
      if (x->dtype() != DataType::kFloat32) {
        if (Desc(*x) != lite::x86::PlainDesc(x->dims())) {
          return Unimplemented("x86 concat of a rank-4 " + std::string(DataTypeName(x->dtype())) +
                               " tensor");
        }
        return fallback_.Run(*this);
      }
      if (x->numel() > 0) dims.push_back(x->dims());
    }
    if (dims.empty()) {
      if (p.levels.enabled) {
        p.out->mutable_data<int8_t>();
      } else {
        p.out->mutable_data<float>();
      }
      return Status::OK();
    }
    if (!p.upscale.empty() || !p.input_scales.empty() || ChannelsOfNhwc(p)) {
      return RunNhwcChannels(p);
    }
    if (dims != dims_) {
      const int rank = static_cast<int>(p.out->dims().size());
      const int axis = p.axis < 0 ? p.axis + rank : p.axis;
      std::vector<dnnl::memory::desc> mds;
      for (const Tensor* x : p.xs) {
        if (x->numel() > 0) mds.push_back(Desc(*x));
      }
      concat_ = dnnl::concat(dnnl::concat::primitive_desc(Desc(*p.out), axis, mds,
                                                          lite::x86::CpuEngine()));
      dims_ = dims;
    }
    int i = 0;
    for (const Tensor* x : p.xs) {
      if (x->numel() == 0) continue;
      AddArg(DNNL_ARG_MULTIPLE_SRC + i, Mem(DNNL_ARG_MULTIPLE_SRC + i, Desc(*x), x->raw_data()));
      ++i;
    }
    if (!p.levels.enabled) {
      AddArg(DNNL_ARG_DST, Mem(DNNL_ARG_DST, Desc(*p.out), p.out->mutable_data<float>()));
      Execute(concat_);
      return Status::OK();
    }
    const dnnl::memory::desc float_out = Desc(*p.out);  // Out's dtype is int8 here
    dnnl::memory joined = Temp(float_out);
    AddArg(DNNL_ARG_DST, joined);
    Execute(concat_);
    operators::quant::QuantizeToInt8(static_cast<const float*>(joined.get_data_handle()),
                                     p.out->mutable_data<int8_t>(), p.out->numel(),
                                     p.levels.scale, 127, p.levels.round_type);
    return Status::OK();
  }

 private:
  // A channel concat on NHWC, its inputs maybe nearest-upscaled into it
  // (concat_upscale_fuse_pass): each output pixel's channels are the inputs'
  // source pixels' channels one after another, written once.
  Status RunNhwcChannels(const operators::ConcatParam& p) {
    int axis = 0;
    ASSIGN_OR_RETURN(DDim od, operators::ComputeConcatDims(p, &axis));
    p.out->Resize(od);
    for (const Tensor* x : p.xs) {
      if (Desc(*x) != lite::x86::NhwcDesc(x->dims())) {
        return Unimplemented("x86 concat with input_upscale of a weight or non-rank-4 input " +
                             DimsToString(x->dims()));
      }
    }
    const int64_t rows = od[0] * od[2], ow = od[3], oc = od[1];
    const size_t count = p.xs.size();
    // Per input: its upscale factor, channels, and the offset of each output
    // column's source pixel within a source row (no division per pixel).
    std::vector<int64_t> factor(count), channels(count);
    col_offsets_.resize(count * ow);
    for (size_t i = 0; i < count; ++i) {
      factor[i] = p.upscale.empty() ? 1 : p.upscale[i];
      channels[i] = p.xs[i]->dims()[1];
      for (int64_t xo = 0; xo < ow; ++xo) col_offsets_[i * ow + xo] = (xo / factor[i]) * channels[i];
    }
    if (p.levels.enabled) return JoinLevels(p, od, factor, channels);
    float* out = p.out->mutable_data<float>();
    std::vector<const float*> src;
    for (const Tensor* x : p.xs) src.push_back(x->data<float>());
    lite::x86::OmpForRangesIf(true, threads(), rows, [&](int64_t r0, int64_t r1) {
      for (int64_t r = r0; r < r1; ++r) {
        const int64_t n = r / od[2], y = r % od[2];
        float* o = out + r * ow * oc;
        for (size_t i = 0; i < count; ++i) {
          if (p.xs[i]->numel() == 0) continue;  // no channels (the dims were checked)
          const DDim& d = p.xs[i]->dims();
          const float* srow = src[i] + (n * d[2] + y / factor[i]) * d[3] * channels[i];
          const int64_t* offs = col_offsets_.data() + i * ow;
          if (p.input_scales.empty()) {
            CopyRuns(srow, offs, ow, channels[i], oc, o);
          } else {
            const float* sc =
                p.input_scales[i]->data<float>() + operators::ConcatScaleOffset(p, i, n);
            for (int64_t xo = 0; xo < ow; ++xo) {
              ScaleRun(srow + offs[xo], sc, o + xo * oc, channels[i]);
            }
          }
          o += channels[i];
        }
      }
    });
    return Status::OK();
  }

  // The levels form: each input is quantized once at its own resolution
  // (a nearest upscale copies values, so quantizing before it gives the
  // same levels as after), then the int8 rows are joined.
  Status JoinLevels(const operators::ConcatParam& p, const DDim& od,
                    const std::vector<int64_t>& factor, const std::vector<int64_t>& channels) {
    const size_t count = p.xs.size();
    const int64_t rows = od[0] * od[2], ow = od[3], oc = od[1];
    std::vector<int64_t> start(count + 1, 0);
    for (size_t i = 0; i < count; ++i) start[i + 1] = start[i] + p.xs[i]->numel();
    levels_.resize(start[count]);
    for (size_t i = 0; i < count; ++i) {
      if (p.input_scales.empty()) {
        operators::quant::QuantizeToInt8(p.xs[i]->data<float>(), levels_.data() + start[i],
                                         p.xs[i]->numel(), p.levels.scale, 127,
                                         p.levels.round_type);
      } else {
        QuantizeScaled(p, i, levels_.data() + start[i]);
      }
    }
    int8_t* out = p.out->mutable_data<int8_t>();
    lite::x86::OmpForRangesIf(true, threads(), rows, [&](int64_t r0, int64_t r1) {
      for (int64_t r = r0; r < r1; ++r) {
        const int64_t n = r / od[2], y = r % od[2];
        int8_t* o = out + r * ow * oc;
        for (size_t i = 0; i < count; ++i) {
          if (p.xs[i]->numel() == 0) continue;
          const DDim& d = p.xs[i]->dims();
          const int8_t* srow =
              levels_.data() + start[i] + (n * d[2] + y / factor[i]) * d[3] * channels[i];
          CopyRuns(srow, col_offsets_.data() + i * ow, ow, channels[i], oc, o);
          o += channels[i];
        }
      }
    });
    return Status::OK();
  }

  // The levels of input i (NHWC, float) times its InputScale per sample
  // and channel, a pixel row at a time: the product is quantized where it is
  // made, never written.
  void QuantizeScaled(const operators::ConcatParam& p, size_t i, int8_t* q) {
    const DDim& d = p.xs[i]->dims();
    const int64_t c = d[1], row = d[3] * c;
    const float* x = p.xs[i]->data<float>();
    scaled_row_.resize(row);
    for (int64_t n = 0; n < d[0]; ++n) {
      const float* sc = p.input_scales[i]->data<float>() + operators::ConcatScaleOffset(p, i, n);
      for (int64_t y = 0; y < d[2]; ++y) {
        const int64_t base = (n * d[2] + y) * row;
        for (int64_t px = 0; px < d[3]; ++px) {
          ScaleRun(x + base + px * c, sc, scaled_row_.data() + px * c, c);
        }
        operators::quant::QuantizeToInt8(scaled_row_.data(), q + base, row, p.levels.scale, 127,
                                         p.levels.round_type);
      }
    }
  }

  // o[k] = s[k] * x[k] for k < n (whole vectors and a masked tail on
  // AVX-512 builds; the product the SE multiply computed).
  static void ScaleRun(const float* x, const float* s, float* o, int64_t n) {
    int64_t k = 0;
#ifdef __AVX512F__
    for (; k + 16 <= n; k += 16) {
      _mm512_storeu_ps(o + k, _mm512_mul_ps(_mm512_loadu_ps(x + k), _mm512_loadu_ps(s + k)));
    }
    if (k < n) {
      const __mmask16 m = static_cast<__mmask16>((1u << (n - k)) - 1);
      const __m512 v = _mm512_mul_ps(_mm512_maskz_loadu_ps(m, x + k), _mm512_maskz_loadu_ps(m, s + k));
      _mm512_mask_storeu_ps(o + k, m, v);
    }
    return;
#endif
    for (; k < n; ++k) o[k] = x[k] * s[k];
  }

  // For each output column xo: `c` values from srow + offs[xo] to
  // o + xo * stride.
  template <typename T>
  static void CopyRuns(const T* srow, const int64_t* offs, int64_t ow, int64_t c, int64_t stride,
                       T* o) {
    for (int64_t xo = 0; xo < ow; ++xo) CopyRun(srow + offs[xo], o + xo * stride, c);
  }

  // n values, whole vectors and a masked tail on AVX-512 builds.
  static void CopyRun(const float* s, float* o, int64_t n) {
#ifdef __AVX512F__
    int64_t k = 0;
    for (; k + 16 <= n; k += 16) _mm512_storeu_ps(o + k, _mm512_loadu_ps(s + k));
    if (k < n) {
      const __mmask16 m = static_cast<__mmask16>((1u << (n - k)) - 1);
      _mm512_mask_storeu_ps(o + k, m, _mm512_maskz_loadu_ps(m, s + k));
    }
#else
    std::memcpy(o, s, n * sizeof(float));
#endif
  }
  static void CopyRun(const int8_t* s, int8_t* o, int64_t n) {
#if defined(__AVX512BW__) && defined(__AVX512VL__)
    int64_t k = 0;
    for (; k + 32 <= n; k += 32) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + k),
                          _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + k)));
    }
    if (k < n) {
      const __mmask32 m = static_cast<__mmask32>((uint64_t{1} << (n - k)) - 1);
      _mm256_mask_storeu_epi8(o + k, m, _mm256_maskz_loadu_epi8(m, s + k));
    }
#else
    std::memcpy(o, s, n);
#endif
  }

  // A channel concat of rank-4 NHWC inputs.
  bool ChannelsOfNhwc(const operators::ConcatParam& p) const {
    const int rank = static_cast<int>(p.out->dims().size());
    if (rank != 4 || (p.axis != 1 && p.axis != 1 - rank)) return false;
    for (const Tensor* x : p.xs) {
      if (Desc(*x) != lite::x86::NhwcDesc(x->dims())) return false;
    }
    return true;
  }

  std::vector<DDim> dims_;
  dnnl::concat concat_;
  std::vector<int64_t> col_offsets_;  // per input and output column, see RunNhwcChannels
  std::vector<int8_t> levels_;        // the inputs' levels, see JoinLevels
  std::vector<float> scaled_row_;     // a scaled pixel row, see QuantizeScaled
  HostFallback fallback_;
};

bool ConcatAccepts(const cpp::OpDesc& desc) {
  return !desc.HasInput("AxisTensor");
}

// int8_requantize_pass's form: float inputs, Out int8 levels.
bool ConcatLevelsAccepts(const cpp::OpDesc& desc) {
  return ConcatAccepts(desc) && desc.GetAttr<bool>("enable_int8", false) &&
         desc.GetAttr<std::string>("Output_dtype", "float32") == "int8";
}

}  // namespace
}  // namespace x86
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(concat, kX86, kFloat, kNHWC, lite::kernels::x86::ConcatCompute, def)
    .SetAccepts(lite::kernels::x86::ConcatAccepts)
    .Finalize();
REGISTER_LITE_KERNEL(concat, kX86, kInt8, kNHWC, lite::kernels::x86::ConcatCompute, levels_out)
    .BindInput("X", lite::Place(TARGET(kX86), PRECISION(kFloat), DATALAYOUT(kNHWC)))
    .BindOutput("Out", lite::Place(TARGET(kX86), PRECISION(kInt8), DATALAYOUT(kNHWC)))
    .SetAccepts(lite::kernels::x86::ConcatLevelsAccepts)
    .Finalize();
