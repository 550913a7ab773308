// The driver's own convolutions against a direct grouped loop over NHWC
// data: FewChannelConv (every input channel count it takes, output counts
// on and off its 8-lane blocks) and DepthwiseConv (det's kernels and
// strides, channel counts on and off the blocks, other kernels), both with
// strides, dilations, uneven and over-wide paddings, clamps, batches and a
// thread pool.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "lite/backends/npu/xnnpack/depthwise_conv.h"
#include "lite/backends/npu/xnnpack/few_channel_conv.h"

namespace lite {
namespace npu {
namespace {

// groups 1 for FewChannelConv; groups == ic == oc for DepthwiseConv.
struct Case {
  int64_t n, ic, oc, groups, ih, iw, kh, kw, sh, sw, pt, pb, pl, pr, dh, dw;
  float lo, hi;
  bool bias;
};

// The case's data: an input, OIHW filters [oc, ic / groups, kh, kw], a
// bias, its geometry and the direct loop's output.
struct Data {
  std::vector<float> in, filter, bias, want;
  ConvGeometry g;
};

Data Prepare(const Case& c) {
  Data d;
  const int64_t icg = c.ic / c.groups, ocg = c.oc / c.groups;
  ConvGeometry& g = d.g;
  g.n = c.n, g.ih = c.ih, g.iw = c.iw;
  g.oh = (c.ih + c.pt + c.pb - (c.dh * (c.kh - 1) + 1)) / c.sh + 1;
  g.ow = (c.iw + c.pl + c.pr - (c.dw * (c.kw - 1) + 1)) / c.sw + 1;
  g.stride_h = c.sh, g.stride_w = c.sw, g.pad_top = c.pt, g.pad_left = c.pl;
  g.dilation_h = c.dh, g.dilation_w = c.dw;
  d.in.resize(static_cast<size_t>(c.n * c.ih * c.iw * c.ic));
  d.filter.resize(static_cast<size_t>(c.oc * icg * c.kh * c.kw));
  d.bias.resize(static_cast<size_t>(c.oc));
  for (size_t i = 0; i < d.in.size(); ++i) d.in[i] = std::sin(0.71f * i + 0.3f);
  for (size_t i = 0; i < d.filter.size(); ++i) d.filter[i] = std::cos(0.37f * i);
  for (size_t i = 0; i < d.bias.size(); ++i) d.bias[i] = 0.1f * i - 0.4f;
  d.want.resize(static_cast<size_t>(c.n * g.oh * g.ow * c.oc));
  for (int64_t n = 0; n < c.n; ++n)
    for (int64_t y = 0; y < g.oh; ++y)
      for (int64_t x = 0; x < g.ow; ++x)
        for (int64_t o = 0; o < c.oc; ++o) {
          double s = c.bias ? d.bias[o] : 0.0;
          const int64_t first_in = o / ocg * icg;
          for (int64_t ky = 0; ky < c.kh; ++ky)
            for (int64_t kx = 0; kx < c.kw; ++kx) {
              const int64_t iy = y * c.sh - c.pt + ky * c.dh, ix = x * c.sw - c.pl + kx * c.dw;
              if (iy < 0 || iy >= c.ih || ix < 0 || ix >= c.iw) continue;
              for (int64_t i = 0; i < icg; ++i) {
                s += double(d.in[((n * c.ih + iy) * c.iw + ix) * c.ic + first_in + i]) *
                     d.filter[((o * icg + i) * c.kh + ky) * c.kw + kx];
              }
            }
          d.want[((n * g.oh + y) * g.ow + x) * c.oc + o] =
              std::min(c.hi, std::max(c.lo, static_cast<float>(s)));
        }
  return d;
}

// Runs `conv` on the case's input (exactly as large as it is: a read past
// it is ASan's to see) and compares; one float past the output catches a
// store beyond it.
template <typename Conv>
void Check(const Case& c, const Data& d, const Conv& conv, pthreadpool_t pool) {
  std::vector<float> out(d.want.size() + 1, 12345.f);
  conv.Run(d.g, d.in.data(), out.data(), pool);
  for (size_t i = 0; i < d.want.size(); ++i) {
    ASSERT_NEAR(out[i], d.want[i], 1e-4f * (1.f + std::fabs(d.want[i])))
        << "element " << i << " of " << d.want.size() << " (ic " << c.ic << ", oc " << c.oc
        << ", k " << c.kh << "x" << c.kw << ")";
  }
  EXPECT_EQ(out.back(), 12345.f) << "wrote past the output";
}

// Each case's kernel, made by `make(case, data)`, without and with a
// 3-thread pool.
template <size_t N, typename Make>
void CheckCases(const Case (&cases)[N], Make make) {
  std::unique_ptr<pthreadpool, decltype(&pthreadpool_destroy)> pool(pthreadpool_create(3),
                                                                     pthreadpool_destroy);
  for (const Case& c : cases) {
    const Data d = Prepare(c);
    const auto conv = make(c, d);
    Check(c, d, conv, nullptr);
    Check(c, d, conv, pool.get());
  }
}

constexpr float kInf = INFINITY;

TEST(FewChannelConv, MatchesDirectLoop) {
  const Case cases[] = {
      // det's first conv: 3 -> 8, 3x3, stride 2, padding 1, relu6
      {1, 3, 8, 1, 37, 29, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 0.f, 6.f, true},
      // squeezenet's: 3 -> 64, 3x3, stride 2, no padding
      {1, 3, 64, 1, 23, 31, 3, 3, 2, 2, 0, 0, 0, 0, 1, 1, -kInf, kInf, true},
      // off the 8-lane blocks, one channel, no bias, uneven padding
      {2, 1, 5, 1, 17, 9, 3, 5, 1, 1, 2, 0, 0, 3, 1, 1, -kInf, kInf, false},
      {1, 2, 13, 1, 11, 20, 5, 5, 2, 1, 2, 2, 2, 2, 1, 1, -1.f, 1.f, true},
      {1, 4, 24, 1, 19, 15, 3, 3, 1, 2, 1, 1, 1, 1, 2, 2, 0.f, kInf, true},
      // fewer output columns than one 8-pixel block, 1x1 kernel
      {3, 3, 9, 1, 4, 6, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, -kInf, kInf, true},
      // padding wider than the input
      {1, 3, 8, 1, 2, 2, 3, 3, 1, 1, 3, 3, 3, 3, 1, 1, -kInf, kInf, true},
  };
  CheckCases(cases, [](const Case& c, const Data& d) {
    return FewChannelConv(d.filter.data(), c.bias ? d.bias.data() : nullptr, c.oc, c.ic, c.kh,
                          c.kw, c.lo, c.hi);
  });
}

TEST(DepthwiseConv, MatchesDirectLoop) {
  const Case cases[] = {
      // det's: 3x3 over 8 channels, stride 1; 3x3 stride 2 with relu6;
      // 5x5 stride 2; 5x5 stride 1, a batch of 2
      {1, 8, 8, 8, 21, 19, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, -kInf, kInf, true},
      {1, 32, 32, 32, 17, 22, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 0.f, 6.f, true},
      {1, 40, 40, 40, 13, 15, 5, 5, 2, 2, 2, 2, 2, 2, 1, 1, -kInf, kInf, true},
      {2, 64, 64, 64, 9, 11, 5, 5, 1, 1, 2, 2, 2, 2, 1, 1, 0.f, kInf, true},
      // off the 8-lane blocks: fewer than 8 channels; 8 and a tail of 5
      {1, 3, 3, 3, 10, 12, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, -kInf, kInf, false},
      {1, 13, 13, 13, 11, 9, 3, 3, 1, 2, 0, 2, 1, 0, 1, 1, -1.f, 1.f, true},
      // other kernels: 7x1, 2x4 with dilation 2 and a batch of 3, 1x1
      {1, 24, 24, 24, 14, 6, 7, 1, 1, 1, 3, 3, 0, 0, 1, 1, -kInf, kInf, true},
      {3, 17, 17, 17, 12, 16, 2, 4, 1, 1, 1, 0, 3, 2, 2, 2, -kInf, kInf, true},
      {1, 9, 9, 9, 4, 5, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, -kInf, kInf, true},
      // padding wider than the input; fewer columns than a 4-pixel block
      {1, 16, 16, 16, 2, 2, 3, 3, 1, 1, 3, 3, 3, 3, 1, 1, -kInf, kInf, true},
      {1, 8, 8, 8, 5, 3, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, -kInf, kInf, true},
  };
  CheckCases(cases, [](const Case& c, const Data& d) {
    return DepthwiseConv(d.filter.data(), c.bias ? d.bias.data() : nullptr, c.ic, c.kh, c.kw,
                         c.lo, c.hi);
  });
}

}  // namespace
}  // namespace npu
}  // namespace lite
