#include "lite/backends/npu/xnnpack/few_channel_conv.h"

#include <algorithm>
#include <cstring>

namespace lite {
namespace npu {

FewChannelConv::FewChannelConv(const float* filter, const float* bias, int64_t oc, int64_t ic,
                               int64_t kh, int64_t kw, float lo, float hi)
    : oc_(oc), ic_(ic), kh_(kh), kw_(kw), blocks_((oc + 7) / 8), lo_(lo), hi_(hi) {
  w_.assign(static_cast<size_t>(blocks_ * kh * kw * ic), Vec8{});
  bias_.assign(static_cast<size_t>(blocks_), Vec8{});
  for (int64_t o = 0; o < oc; ++o) {
    const int64_t b = o / 8, lane = o % 8;
    if (bias) SetLane(&bias_[b], lane, bias[o]);
    for (int64_t c = 0; c < ic; ++c) {
      for (int64_t y = 0; y < kh; ++y) {
        for (int64_t x = 0; x < kw; ++x) {
          SetLane(&w_[((b * kh + y) * kw + x) * ic + c], lane,
                  filter[((o * ic + c) * kh + y) * kw + x]);
        }
      }
    }
  }
}

// P output pixels, every block of output channels. Tap (ky, kx) of
// channel c of pixel p is rows[ky][p * pixel_step + kx * tap_step + c].
// IC and KW are the input channels and kernel width when known at compile
// time (0: read from the object).
template <int P, int IC, int KW>
void FewChannelConv::Block(const float* const* rows, int64_t pixel_step, int64_t tap_step,
                           float* out) const {
  const int64_t ic = IC > 0 ? IC : ic_, kw = KW > 0 ? KW : kw_;
  for (int64_t b = 0; b < blocks_; ++b) {
    // The accumulators stay in registers only when the pixel loops are
    // unrolled, which -O2 does not do by itself.
    Vec8 acc[P];
#pragma GCC unroll 8
    for (int p = 0; p < P; ++p) acc[p] = bias_[b];
    const Vec8* w = &w_[static_cast<size_t>(b * kh_ * kw * ic)];
    for (int64_t ky = 0; ky < kh_; ++ky) {
      for (int64_t kx = 0; kx < kw; ++kx) {
        const float* at = rows[ky] + kx * tap_step;
        for (int64_t c = 0; c < ic; ++c, ++w) {
          const Vec8 wv = *w;
#pragma GCC unroll 8
          for (int p = 0; p < P; ++p) acc[p] += at[p * pixel_step + c] * wv;
        }
      }
    }
    const int64_t lanes = std::min<int64_t>(8, oc_ - b * 8);
#pragma GCC unroll 8
    for (int p = 0; p < P; ++p) StoreClamped(out + p * oc_ + b * 8, acc[p], lo_, hi_, lanes);
  }
}

// Output columns [x0, x1) of one row, all of whose taps lie inside the
// input columns: blocks of 8 pixels read the input rows in place (a
// missing row reads zeros), then single pixels.
template <int IC, int KW>
void FewChannelConv::Interior(const Geometry& g, const float* const* in_rows, int64_t x0,
                              int64_t x1, float* out) const {
  const int64_t ic = IC > 0 ? IC : ic_;
  const int64_t pixel_step = g.stride_w * ic, tap_step = g.dilation_w * ic;
  const float* rows[kMaxKernel];
  auto at = [&](int64_t x) {  // rows[] for output column x
    const int64_t first = (x * g.stride_w - g.pad_left) * ic;  // >= 0 inside
    for (int64_t ky = 0; ky < kh_; ++ky) rows[ky] = in_rows[ky] + first;
    return rows;
  };
  int64_t x = x0;
  for (; x + 8 <= x1; x += 8) Block<8, IC, KW>(at(x), pixel_step, tap_step, out + x * oc_);
  for (; x < x1; ++x) Block<1, IC, KW>(at(x), pixel_step, tap_step, out + x * oc_);
}

void FewChannelConv::RunRow(const Geometry& g, const float* in, float* out, int64_t row,
                            std::vector<float>* scratch) const {
  const int64_t row_floats = g.iw * ic_;
  // scratch: room for one border pixel's taps (kh x kw x ic at most
  // kTapFloats), then a zero input row: that part is never written, so it
  // stays zeros as the buffer grows.
  constexpr size_t kTapFloats = kMaxKernel * kMaxKernel * kMaxChannels;
  if (scratch->size() < kTapFloats + static_cast<size_t>(row_floats)) {
    scratch->assign(kTapFloats + static_cast<size_t>(row_floats), 0.f);
  }
  float* taps = scratch->data();
  const float* in_rows[kMaxKernel];
  g.TapRows(in, row_floats, row, kh_, scratch->data() + kTapFloats, in_rows);
  int64_t x0, x1;
  g.InteriorColumns(kw_, &x0, &x1);
  float* dst = out + row * g.ow * oc_;
  // An RGB image under a 3x3 kernel (most first convs) unrolled in full.
  if (ic_ == 3 && kw_ == 3) {
    Interior<3, 3>(g, in_rows, x0, x1, dst);
  } else {
    Interior<0, 0>(g, in_rows, x0, x1, dst);
  }
  // The border pixels, each from its taps gathered with zeros outside.
  const float* tap_rows[kMaxKernel];
  for (int64_t ky = 0; ky < kh_; ++ky) tap_rows[ky] = taps + ky * kw_ * ic_;
  auto border = [&](int64_t x) {
    for (int64_t ky = 0; ky < kh_; ++ky) {
      for (int64_t kx = 0; kx < kw_; ++kx) {
        const int64_t ix = x * g.stride_w - g.pad_left + kx * g.dilation_w;
        for (int64_t c = 0; c < ic_; ++c) {
          taps[(ky * kw_ + kx) * ic_ + c] =
              ix < 0 || ix >= g.iw ? 0.f : in_rows[ky][ix * ic_ + c];
        }
      }
    }
    Block<1, 0, 0>(tap_rows, 0, ic_, dst + x * oc_);
  };
  for (int64_t x = 0; x < x0; ++x) border(x);
  for (int64_t x = x1; x < g.ow; ++x) border(x);
}

struct FewChannelConv::Row {
  const FewChannelConv* conv;
  const Geometry* g;
  const float* in;
  float* out;
  static void Run(void* context, size_t row) {
    thread_local std::vector<float> scratch;
    auto* r = static_cast<Row*>(context);
    r->conv->RunRow(*r->g, r->in, r->out, static_cast<int64_t>(row), &scratch);
  }
};

void FewChannelConv::Run(const Geometry& g, const float* in, float* out,
                         pthreadpool_t pool) const {
  Row r{this, &g, in, out};
  pthreadpool_parallelize_1d(pool, &Row::Run, &r, static_cast<size_t>(g.n * g.oh), 0);
}

}  // namespace npu
}  // namespace lite
