#include "lite/backends/x86/depthwise_conv.h"

#include <algorithm>
#include <cstdint>
#include <limits>

#include "lite/backends/x86/depthwise_conv_tiles.h"
#include "lite/backends/x86/omp_ranges.h"

namespace lite {
namespace x86 {

namespace {
bool HasAvx512() { return __builtin_cpu_supports("avx512f"); }
bool HasAvx2() { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"); }
}  // namespace

bool DepthwiseConv::Available() { return HasAvx512() || HasAvx2(); }

bool DepthwiseConv::UsesAvx512() const {
  return isa_ == Isa::kAvx512 || (isa_ == Isa::kAuto && HasAvx512());
}

const char* DepthwiseConv::isa_name() const {
  return UsesAvx512() ? "avx512" : (isa_ == Isa::kAvx2 || HasAvx2()) ? "avx2" : "";
}

void DepthwiseConv::SetFilter(const float* filter, int64_t c, int kh, int kw) {
  c_ = c;
  cp_ = (c + 15) / 16 * 16;
  kh_ = kh;
  kw_ = kw;
  const int64_t taps = static_cast<int64_t>(kh) * kw;
  w_.Resize({taps * cp_});
  float* w = w_.mutable_data<float>();
  std::fill(w, w + taps * cp_, 0.f);
  for (int64_t ch = 0; ch < c; ++ch)
    for (int64_t t = 0; t < taps; ++t) w[t * cp_ + ch] = filter[ch * taps + t];
}

void DepthwiseConv::Run(const Geometry& g, const float* in, const Epilogue& e, float* out,
                        int64_t ldo, int threads) const {
  using K = operators::FusedActivation;
  DepthwiseRowsArgs a;
  a.c = g.c;
  a.cp = cp_;
  a.h = g.h;
  a.w = g.w;
  a.oh = g.oh;
  a.ow = g.ow;
  a.kh = kh_;
  a.kw = kw_;
  a.sh = g.stride_h;
  a.sw = g.stride_w;
  a.pt = g.pad_top;
  a.pl = g.pad_left;
  a.dh = g.dilation_h;
  a.dw = g.dilation_w;
  a.in = in;
  a.wpk = w_.data<float>();
  a.bias = e.bias;
  a.res = e.residual;
  if (e.residual) {
    // The output's and the residual's extents, in bytes (ldo per pixel).
    const int64_t pixels = g.n * g.oh * g.ow;
    const auto res0 = reinterpret_cast<uintptr_t>(e.residual);
    const auto res1 = reinterpret_cast<uintptr_t>(e.residual + pixels * g.c);
    const auto out0 = reinterpret_cast<uintptr_t>(out);
    const auto out1 = reinterpret_cast<uintptr_t>(out + (pixels - 1) * ldo + g.c);
    a.rewrite = res1 <= out0 || out1 <= res0;
  } else {
    a.rewrite = true;
  }
  a.out = out;
  a.ldo = ldo;
  const K& act = e.act;
  a.hard_swish = act.kind == K::kHardSwish;
  a.lo = act.kind == K::kRelu || act.kind == K::kRelu6 ? 0.f
                                                        : -std::numeric_limits<float>::infinity();
  a.hi = act.kind == K::kRelu6 ? act.alpha : std::numeric_limits<float>::infinity();
  a.hs_alpha = act.alpha;
  a.hs_beta = act.beta;
  a.hs_gamma = act.gamma;
  a.post = e.post_scale != 1.f || e.post_bias != 0.f;
  a.post_scale = e.post_scale;
  a.post_bias = e.post_bias;
  const int64_t rows = g.n * g.oh;
  const int64_t work = rows * g.ow * g.c * kh_ * kw_;
  const DepthwiseRowsFn rows_fn = UsesAvx512() ? DepthwiseRowsAvx512(a) : DepthwiseRowsAvx2(a);
  OmpForRanges(threads, rows, work, [&](int64_t r0, int64_t r1) { rows_fn(a, r0, r1); });
}

}  // namespace x86
}  // namespace lite
