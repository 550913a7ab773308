// FewChannelConv against a direct loop over NHWC data: every input channel
// count it takes, output channel counts on and off its 8-lane blocks,
// strides, dilations, uneven paddings, clamps, batches and a thread pool.
#include "lite/backends/npu/xnnpack/few_channel_conv.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

namespace lite {
namespace npu {
namespace {

struct Case {
  int64_t n, ic, oc, ih, iw, kh, kw, sh, sw, pt, pb, pl, pr, dh, dw;
  float lo, hi;
  bool bias;
};

std::vector<float> Direct(const Case& c, const std::vector<float>& in, const std::vector<float>& f,
                          const std::vector<float>& b, int64_t oh, int64_t ow) {
  std::vector<float> out(static_cast<size_t>(c.n * oh * ow * c.oc));
  for (int64_t n = 0; n < c.n; ++n)
    for (int64_t y = 0; y < oh; ++y)
      for (int64_t x = 0; x < ow; ++x)
        for (int64_t o = 0; o < c.oc; ++o) {
          double s = c.bias ? b[o] : 0.0;
          for (int64_t ky = 0; ky < c.kh; ++ky)
            for (int64_t kx = 0; kx < c.kw; ++kx) {
              const int64_t iy = y * c.sh - c.pt + ky * c.dh, ix = x * c.sw - c.pl + kx * c.dw;
              if (iy < 0 || iy >= c.ih || ix < 0 || ix >= c.iw) continue;
              for (int64_t i = 0; i < c.ic; ++i) {
                s += double(in[((n * c.ih + iy) * c.iw + ix) * c.ic + i]) *
                     f[((o * c.ic + i) * c.kh + ky) * c.kw + kx];
              }
            }
          out[((n * oh + y) * ow + x) * c.oc + o] =
              std::min(c.hi, std::max(c.lo, static_cast<float>(s)));
        }
  return out;
}

void Check(const Case& c, pthreadpool_t pool) {
  const int64_t oh = (c.ih + c.pt + c.pb - (c.dh * (c.kh - 1) + 1)) / c.sh + 1;
  const int64_t ow = (c.iw + c.pl + c.pr - (c.dw * (c.kw - 1) + 1)) / c.sw + 1;
  std::vector<float> in(static_cast<size_t>(c.n * c.ih * c.iw * c.ic));
  std::vector<float> f(static_cast<size_t>(c.oc * c.ic * c.kh * c.kw)), b(c.oc);
  for (size_t i = 0; i < in.size(); ++i) in[i] = std::sin(0.71f * i + 0.3f);
  for (size_t i = 0; i < f.size(); ++i) f[i] = std::cos(0.37f * i);
  for (size_t i = 0; i < b.size(); ++i) b[i] = 0.1f * i - 0.4f;
  FewChannelConv conv(f.data(), c.bias ? b.data() : nullptr, c.oc, c.ic, c.kh, c.kw, c.lo, c.hi);
  FewChannelConv::Geometry g;
  g.n = c.n, g.ih = c.ih, g.iw = c.iw, g.oh = oh, g.ow = ow;
  g.stride_h = c.sh, g.stride_w = c.sw, g.pad_top = c.pt, g.pad_left = c.pl;
  g.dilation_h = c.dh, g.dilation_w = c.dw;
  // One float past the output catches a store beyond it.
  std::vector<float> out(static_cast<size_t>(c.n * oh * ow * c.oc) + 1, 12345.f);
  conv.Run(g, in.data(), out.data(), pool);
  const std::vector<float> want = Direct(c, in, f, b, oh, ow);
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_NEAR(out[i], want[i], 1e-4f * (1.f + std::fabs(want[i])))
        << "element " << i << " of " << want.size() << " (ic " << c.ic << ", oc " << c.oc << ")";
  }
  EXPECT_EQ(out.back(), 12345.f) << "wrote past the output";
}

constexpr float kInf = INFINITY;

TEST(FewChannelConv, MatchesDirectLoop) {
  const Case cases[] = {
      // det's first conv: 3 -> 8, 3x3, stride 2, padding 1, relu6
      {1, 3, 8, 37, 29, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 0.f, 6.f, true},
      // squeezenet's: 3 -> 64, 3x3, stride 2, no padding
      {1, 3, 64, 23, 31, 3, 3, 2, 2, 0, 0, 0, 0, 1, 1, -kInf, kInf, true},
      // off the 8-lane blocks, one channel, no bias, uneven padding
      {2, 1, 5, 17, 9, 3, 5, 1, 1, 2, 0, 0, 3, 1, 1, -kInf, kInf, false},
      {1, 2, 13, 11, 20, 5, 5, 2, 1, 2, 2, 2, 2, 1, 1, -1.f, 1.f, true},
      {1, 4, 24, 19, 15, 3, 3, 1, 2, 1, 1, 1, 1, 2, 2, 0.f, kInf, true},
      // fewer output columns than one 8-pixel block, 1x1 kernel
      {3, 3, 9, 4, 6, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, -kInf, kInf, true},
      // padding wider than the input
      {1, 3, 8, 2, 2, 3, 3, 1, 1, 3, 3, 3, 3, 1, 1, -kInf, kInf, true},
  };
  for (const Case& c : cases) Check(c, nullptr);
  std::unique_ptr<pthreadpool, decltype(&pthreadpool_destroy)> pool(pthreadpool_create(3),
                                                                     pthreadpool_destroy);
  for (const Case& c : cases) Check(c, pool.get());
}

}  // namespace
}  // namespace npu
}  // namespace lite
