// NchwInputConv against a direct convolution accumulated in double: 1-4
// input channels; output channel counts for every register block (1-8 on
// ymm, 16 / 32 / 48 / 64 wide zmm chunks, tails of 4 and 36 channels);
// kernels 1x1, 3x3, 5x3, 7x7; strides 1, 2 and (2, 1); asymmetric padding
// wider than the kernel's reach; dilation 2; widths that leave every pixel
// tail; batch 2; every activation; 1 vs 2 threads (bit-identical); and the
// scalar loop for CPUs without AVX-512.
#include "lite/backends/x86/nchw_input_conv.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>
#include <vector>

#include "lite/core/op_tester.h"

namespace lite {
namespace x86 {
namespace {

using operators::FusedActivation;

struct Case {
  int64_t n, ic, ih, iw, oc, kh, kw;
  int sh, sw, top, bottom, left, right, dh, dw;
  FusedActivation::Kind act;
};

FusedActivation Act(FusedActivation::Kind k) {
  FusedActivation a;
  a.kind = k;
  if (k == FusedActivation::kRelu6) a.alpha = 0.5f;
  if (k == FusedActivation::kLeakyRelu) a.alpha = 0.1f;
  if (k == FusedActivation::kHardSwish) {
    a.alpha = 6.f;
    a.beta = 6.f;
    a.gamma = 3.f;
  }
  if (k == FusedActivation::kHardSigmoid) {
    a.alpha = 0.2f;
    a.beta = 0.5f;
  }
  if (k == FusedActivation::kSwish) a.alpha = 1.f;
  return a;
}

NchwInputConv::Shape ShapeOf(const Case& c) {
  NchwInputConv::Shape s;
  s.n = c.n;
  s.ih = c.ih;
  s.iw = c.iw;
  s.oh = (c.ih + c.top + c.bottom - ((c.kh - 1) * c.dh + 1)) / c.sh + 1;
  s.ow = (c.iw + c.left + c.right - ((c.kw - 1) * c.dw + 1)) / c.sw + 1;
  s.stride_h = c.sh;
  s.stride_w = c.sw;
  s.pad_top = c.top;
  s.pad_left = c.left;
  s.dilation_h = c.dh;
  s.dilation_w = c.dw;
  return s;
}

// Direct convolution, NCHW in, NHWC out, OIHW filter, double accumulation.
std::vector<float> Direct(const Case& c, const NchwInputConv::Shape& s,
                          const std::vector<float>& in, const std::vector<float>& f,
                          const std::vector<float>& bias) {
  const FusedActivation act = Act(c.act);
  std::vector<float> out(s.n * s.oh * s.ow * c.oc);
  for (int64_t b = 0; b < c.n; ++b)
    for (int64_t y = 0; y < s.oh; ++y)
      for (int64_t x = 0; x < s.ow; ++x)
        for (int64_t o = 0; o < c.oc; ++o) {
          double sum = bias[o];
          for (int64_t i = 0; i < c.ic; ++i)
            for (int64_t ky = 0; ky < c.kh; ++ky)
              for (int64_t kx = 0; kx < c.kw; ++kx) {
                const int64_t iy = y * c.sh - c.top + ky * c.dh;
                const int64_t ix = x * c.sw - c.left + kx * c.dw;
                if (iy < 0 || iy >= c.ih || ix < 0 || ix >= c.iw) continue;
                sum += double(in[((b * c.ic + i) * c.ih + iy) * c.iw + ix]) *
                       f[((o * c.ic + i) * c.kh + ky) * c.kw + kx];
              }
          out[((b * s.oh + y) * s.ow + x) * c.oc + o] = act.Apply(static_cast<float>(sum));
        }
  return out;
}

std::vector<float> RunConv(const NchwInputConv& conv, const Case& c,
                           const NchwInputConv::Shape& s, const std::vector<float>& in,
                           int threads) {
  std::vector<float> out(s.n * s.oh * s.ow * c.oc, -7.f);
  conv.Run(s, in.data(), Act(c.act), out.data(), threads);
  return out;
}

std::string Describe(const Case& c) {
  return "n" + std::to_string(c.n) + " ic" + std::to_string(c.ic) + " " + std::to_string(c.ih) +
         "x" + std::to_string(c.iw) + " oc" + std::to_string(c.oc) + " k" + std::to_string(c.kh) +
         "x" + std::to_string(c.kw) + " s" + std::to_string(c.sh) + "," + std::to_string(c.sw) +
         " act" + std::to_string(static_cast<int>(c.act));
}

void Check(const Case& c) {
  const NchwInputConv::Shape s = ShapeOf(c);
  const auto in = RandomFloats(c.n * c.ic * c.ih * c.iw, 1 + c.oc);
  const auto f = RandomFloats(c.oc * c.ic * c.kh * c.kw, 2 + c.ic);
  const auto bias = RandomFloats(c.oc, 3);
  NchwInputConv conv;
  conv.SetWeights(f.data(), bias.data(), c.oc, c.ic, c.kh, c.kw);
  const auto want = Direct(c, s, in, f, bias);
  const auto one = RunConv(conv, c, s, in, 1);
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_NEAR(one[i], want[i], 1e-5f * std::max(1.f, std::fabs(want[i])))
        << Describe(c) << " at " << i;
  }
  EXPECT_EQ(RunConv(conv, c, s, in, 2), one) << Describe(c) << ": threads changed the result";
}

using K = FusedActivation;

TEST(NchwInputConv, EveryRegisterBlockAndChannelTail) {
  for (int64_t oc : {1, 3, 8, 12, 16, 20, 32, 48, 64, 68, 100, 128, 200}) {
    Check({1, 3, 23, 41, oc, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, K::kRelu});
  }
}

TEST(NchwInputConv, InputChannelsKernelsStridesPaddingDilation) {
  Check({1, 1, 17, 30, 16, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, K::kNone});
  Check({1, 2, 19, 33, 24, 5, 3, 1, 2, 2, 0, 1, 3, 1, 1, K::kNone});
  Check({2, 4, 15, 26, 64, 7, 7, 2, 1, 3, 3, 3, 3, 1, 1, K::kRelu6});
  Check({1, 3, 20, 27, 8, 3, 3, 1, 1, 4, 2, 5, 4, 2, 2, K::kLeakyRelu});  // pad past the reach
  Check({1, 3, 227, 227, 64, 3, 3, 2, 2, 0, 0, 0, 0, 1, 1, K::kRelu});  // squeezenet's conv1
  Check({1, 3, 64, 64, 8, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, K::kHardSwish});  // det's stem, smaller
}

TEST(NchwInputConv, EveryActivation) {
  for (K::Kind k : {K::kNone, K::kRelu, K::kRelu6, K::kLeakyRelu, K::kHardSwish,
                    K::kHardSigmoid, K::kSigmoid, K::kSwish, K::kTanh}) {
    Check({1, 3, 12, 13, 20, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, k});
    Check({1, 3, 12, 13, 6, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, k});
  }
}

// Max pool of the conv output (NHWC), Paddle's windows, -FLT_MAX when empty.
std::vector<float> MaxPool(const std::vector<float>& x, int64_t n, int64_t h, int64_t w,
                           int64_t c, const NchwInputConv::Pool& p) {
  std::vector<float> out(n * p.oh * p.ow * c, -FLT_MAX);
  for (int64_t b = 0; b < n; ++b)
    for (int64_t py = 0; py < p.oh; ++py)
      for (int64_t px = 0; px < p.ow; ++px)
        for (int64_t ky = 0; ky < p.kh; ++ky)
          for (int64_t kx = 0; kx < p.kw; ++kx) {
            const int64_t y = py * p.stride_h - p.pad_top + ky;
            const int64_t xx = px * p.stride_w - p.pad_left + kx;
            if (y < 0 || y >= h || xx < 0 || xx >= w) continue;
            for (int64_t o = 0; o < c; ++o) {
              float& d = out[((b * p.oh + py) * p.ow + px) * c + o];
              d = std::max(d, x[((b * h + y) * w + xx) * c + o]);
            }
          }
  return out;
}

// Pooled dims with ceil mode (a last window may hang over the edge).
NchwInputConv::Pool PoolOf(const NchwInputConv::Shape& s, int k, int stride, int pad) {
  NchwInputConv::Pool p;
  p.kh = p.kw = k;
  p.stride_h = p.stride_w = stride;
  p.pad_top = p.pad_left = pad;
  p.oh = (s.oh + 2 * pad - k + stride - 1) / stride + 1;
  p.ow = (s.ow + 2 * pad - k + stride - 1) / stride + 1;
  return p;
}

void CheckPooled(const Case& c, int k, int stride, int pad) {
  const NchwInputConv::Shape s = ShapeOf(c);
  const NchwInputConv::Pool pool = PoolOf(s, k, stride, pad);
  const auto in = RandomFloats(c.n * c.ic * c.ih * c.iw, 4 + c.oc);
  const auto f = RandomFloats(c.oc * c.ic * c.kh * c.kw, 5 + c.ic);
  const auto bias = RandomFloats(c.oc, 6);
  NchwInputConv conv;
  conv.SetWeights(f.data(), bias.data(), c.oc, c.ic, c.kh, c.kw);
  const auto want = MaxPool(Direct(c, s, in, f, bias), c.n, s.oh, s.ow, c.oc, pool);
  const std::string what = Describe(c) + " pool k" + std::to_string(k) + " s" +
                           std::to_string(stride) + " p" + std::to_string(pad);
  std::vector<float> one;
  for (int threads : {1, 2}) {
    std::vector<float> out(c.n * pool.oh * pool.ow * c.oc, -7.f);
    conv.RunMaxPooled(s, pool, in.data(), Act(c.act), out.data(), threads);
    if (threads == 1) {
      for (size_t i = 0; i < want.size(); ++i) {
        ASSERT_NEAR(out[i], want[i], 1e-5f * std::max(1.f, std::fabs(want[i])))
            << what << " at " << i;
      }
      one = out;
    } else {
      EXPECT_EQ(out, one) << what << ": threads changed the result";
    }
  }
}

TEST(NchwInputConv, FusedMaxPool) {
  CheckPooled({1, 3, 227, 227, 64, 3, 3, 2, 2, 0, 0, 0, 0, 1, 1, K::kRelu}, 3, 2, 0);
  CheckPooled({2, 3, 30, 34, 8, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, K::kHardSwish}, 3, 2, 1);
  CheckPooled({1, 1, 21, 19, 20, 5, 5, 1, 1, 2, 2, 2, 2, 1, 1, K::kNone}, 2, 2, 0);
  CheckPooled({1, 4, 16, 15, 100, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, K::kSigmoid}, 3, 1, 1);
  CheckPooled({1, 3, 23, 25, 16, 3, 3, 2, 2, 0, 0, 0, 0, 1, 1, K::kNone}, 4, 3, 0);  // ceil
}

TEST(NchwInputConv, ScalarLoop) {
  NchwInputConv::ForceScalarForTesting(true);
  Check({1, 3, 23, 41, 20, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, K::kHardSwish});
  Check({2, 2, 11, 9, 5, 5, 3, 1, 2, 2, 0, 1, 3, 2, 1, K::kSigmoid});
  NchwInputConv::ForceScalarForTesting(false);
}

}  // namespace
}  // namespace x86
}  // namespace lite
