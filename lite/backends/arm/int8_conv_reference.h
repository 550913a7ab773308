// The definition the arm int8 loops' conv forms are tested against
// (int8_gemm_test's window form, int8_depthwise_test): a grouped NHWC conv
// of s8 levels written out on the unpadded input (taps in the padding
// skipped, i.e. level 0), int32 sums, then
// min(max(fma(float(sum), scale[o], bias[o]), lo), hi); and the random
// operands both tests draw.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace lite {
namespace arm {
namespace testing {

// A conv's shape: n images of h x w x c levels, `out` channels in `groups`
// groups, window, stride, dilation and padding.
struct ConvShape {
  size_t n, h, w, c, out, groups, kh, kw, s, d, top, bottom, left, right;
  size_t oh() const { return (h + top + bottom - (kh - 1) * d - 1) / s + 1; }
  size_t ow() const { return (w + left + right - (kw - 1) * d - 1) / s + 1; }
};

// The output (n x oh x ow x out) of levels x and filter levels
// w[(o * kh * kw + ky * kw + kx) * (c / groups) + i].
inline std::vector<float> ReferenceConv(const ConvShape& k, const std::vector<int8_t>& x,
                                        const std::vector<int8_t>& w,
                                        const std::vector<float>& scale,
                                        const std::vector<float>& bias, float lo, float hi) {
  const size_t oh = k.oh(), ow = k.ow(), icg = k.c / k.groups, ocg = k.out / k.groups;
  std::vector<float> y(k.n * oh * ow * k.out);
  for (size_t i = 0; i < k.n; ++i)
    for (size_t oy = 0; oy < oh; ++oy)
      for (size_t ox = 0; ox < ow; ++ox)
        for (size_t o = 0; o < k.out; ++o) {
          int32_t sum = 0;
          for (size_t ky = 0; ky < k.kh; ++ky)
            for (size_t kx = 0; kx < k.kw; ++kx) {
              const long iy = long(oy * k.s + ky * k.d) - long(k.top);
              const long ix = long(ox * k.s + kx * k.d) - long(k.left);
              if (iy < 0 || ix < 0 || iy >= long(k.h) || ix >= long(k.w)) continue;
              for (size_t j = 0; j < icg; ++j) {
                const size_t ci = o / ocg * icg + j;
                sum += int32_t(x[((i * k.h + iy) * k.w + ix) * k.c + ci]) *
                       int32_t(w[(o * k.kh * k.kw + ky * k.kw + kx) * icg + j]);
              }
            }
          const float v = std::fma(static_cast<float>(sum), scale[o], bias[o]);
          y[((i * oh + oy) * ow + ox) * k.out + o] = std::min(std::max(v, lo), hi);
        }
  return y;
}

// Random operands of a shape: input levels in [-128, 127] and filter
// levels in [-127, 127], the first `extremes` of each at -128 / -127;
// scales 2^scale_exp x [-1, 1], biases in [-1, 1].
struct ConvOperands {
  std::vector<int8_t> x, w;
  std::vector<float> scale, bias;
};
inline ConvOperands RandomOperands(const ConvShape& k, std::mt19937& rng, size_t extremes,
                                   int scale_exp) {
  std::uniform_int_distribution<int> level(-128, 127), wlevel(-127, 127);
  std::uniform_real_distribution<float> uni(-1.f, 1.f);
  ConvOperands o;
  o.x.resize(k.n * k.h * k.w * k.c);
  o.w.resize(k.out * k.kh * k.kw * (k.c / k.groups));
  for (auto& v : o.x) v = static_cast<int8_t>(level(rng));
  for (auto& v : o.w) v = static_cast<int8_t>(wlevel(rng));
  std::fill(o.x.begin(), o.x.begin() + std::min(o.x.size(), extremes), int8_t{-128});
  std::fill(o.w.begin(), o.w.begin() + std::min(o.w.size(), extremes), int8_t{-127});
  o.scale.resize(k.out);
  o.bias.resize(k.out);
  for (size_t c = 0; c < k.out; ++c) {
    o.scale[c] = std::ldexp(uni(rng), scale_exp);
    o.bias[c] = uni(rng);
  }
  return o;
}

}  // namespace testing
}  // namespace arm
}  // namespace lite
