// ConvInt8Context::Levels: the int8 conv's input as NHWC levels, shared by
// every strategy that reads levels (all but the first-conv kernel, which
// quantizes the image rows itself).
#include <string>
#include <vector>

#include "lite/base/quant_math.h"
#include "lite/kernels/x86/conv_int8_strategy.h"

namespace lite {
namespace kernels {
namespace x86 {
namespace {

// The quantized input of the int8 conv running on this thread, grown to
// the largest input seen and kept: a fresh buffer per run (the buffer pool
// hands large ones back to the system) costs a page fault per 4 KB, which
// would be most of the kernel's time. One op at a time runs on a thread.
int8_t* QuantizedInputBuffer(int64_t n) {
  thread_local std::vector<int8_t> buffer;
  if (static_cast<int64_t>(buffer.size()) < n) buffer.resize(n);
  return buffer.data();
}

#if defined(__AVX512F__) && defined(__AVX512VBMI__)
// 16 floats at x as 16 levels (bytes).
inline __m128i Levels16(const operators::quant::Quantizer16& q16, const float* x) {
  return q16.LevelBytes(_mm512_loadu_ps(x));
}
#endif

// Quantizes NCHW float32 input [n, C, hw] (C <= 4, a model's first conv on
// the fed image) by the op's rule into NHWC levels [n, hw, C]: the layout
// change and the quantization in one pass. 16 pixels a step: each plane's
// 16 levels packed to bytes, the C x 16 bytes interleaved by one byte
// permutation (AVX512-VBMI); the scalar rule elsewhere.
template <int C>
void QuantizeNchwToNhwc(const float* x, int64_t n, int64_t hw, float scale, int round_type,
                        int8_t* q) {
  const operators::quant::Quantizer scalar(scale, 127, round_type);
#if defined(__AVX512F__) && defined(__AVX512VBMI__)
  const operators::quant::Quantizer16 q16(scale, 127, round_type);
  alignas(64) uint8_t order[64] = {};  // output byte j: pixel j / C, channel j % C
  for (int j = 0; j < 16 * C; ++j) order[j] = static_cast<uint8_t>((j % C) * 16 + j / C);
  const __m512i idx = _mm512_load_si512(order);
  const __mmask64 bytes = C == 4 ? ~__mmask64{0} : (__mmask64{1} << (16 * C)) - 1;
#endif
  for (int64_t b = 0; b < n; ++b) {
    const float* xb = x + b * C * hw;
    int8_t* qb = q + b * C * hw;
    int64_t p = 0;
#if defined(__AVX512F__) && defined(__AVX512VBMI__)
    for (; p + 16 <= hw; p += 16) {
      __m512i planes = _mm512_setzero_si512();
      planes = _mm512_inserti32x4(planes, Levels16(q16, xb + p), 0);
      if (C > 1) planes = _mm512_inserti32x4(planes, Levels16(q16, xb + hw + p), 1);
      if (C > 2) planes = _mm512_inserti32x4(planes, Levels16(q16, xb + 2 * hw + p), 2);
      if (C > 3) planes = _mm512_inserti32x4(planes, Levels16(q16, xb + 3 * hw + p), 3);
      _mm512_mask_storeu_epi8(qb + p * C, bytes, _mm512_permutexvar_epi8(idx, planes));
    }
#endif
    for (; p < hw; ++p)
      for (int c = 0; c < C; ++c)
        qb[p * C + c] = static_cast<int8_t>(scalar.Level(xb[c * hw + p]));
  }
}

// The NCHW input of the first conv's binding into NHWC levels at q.
Status QuantizeNchwInput(const operators::ConvParam& p, int8_t* q) {
  const DDim& in = p.input->dims();
  const float* x = p.input->data<float>();
  const int64_t hw = in[2] * in[3];
  const float s = p.input_scale;
  const int r = p.quant_round_type;
  switch (in[1]) {
    case 1: QuantizeNchwToNhwc<1>(x, in[0], hw, s, r, q); break;
    case 2: QuantizeNchwToNhwc<2>(x, in[0], hw, s, r, q); break;
    case 3: QuantizeNchwToNhwc<3>(x, in[0], hw, s, r, q); break;
    case 4: QuantizeNchwToNhwc<4>(x, in[0], hw, s, r, q); break;
    default:
      return InvalidArgument("int8 conv reading NCHW input: " + std::to_string(in[1]) +
                             " channels, at most 4");
  }
  return Status::OK();
}

}  // namespace

Status ConvInt8Context::Levels(const void** levels) const {
  if (p.input_dtype != DataType::kFloat32) {
    *levels = p.input->raw_data();
    return Status::OK();
  }
  // Quantize the input (element order is irrelevant: one scale).
  int8_t* q = QuantizedInputBuffer(p.input->numel());
  if (nchw_input) {
    RETURN_IF_ERROR(QuantizeNchwInput(p, q));
  } else {
    operators::quant::QuantizeToInt8(p.input->data<float>(), q, p.input->numel(), p.input_scale,
                                     127, p.quant_round_type);
  }
  *levels = q;
  return Status::OK();
}

}  // namespace x86
}  // namespace kernels
}  // namespace lite
