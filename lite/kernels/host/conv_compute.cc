#include "lite/kernels/host/conv_compute.h"

#include <algorithm>

#include "lite/backends/host/conv_depthwise.h"
#include "lite/backends/host/conv_epilogue.h"
#include "lite/backends/host/conv_winograd.h"
#include "lite/backends/host/gemm.h"
#include "lite/backends/host/im2col.h"
#include "lite/operators/conv_op.h"

namespace lite {
namespace kernels {
namespace host {

void ConvEpilogue(const float* bias, int64_t batch, int64_t channels,
                  int64_t plane, const operators::FusedActivation& act,
                  float* out) {
  if (!bias && !act.enabled()) return;
  for (int64_t n = 0; n < batch; ++n) {
    for (int64_t c = 0; c < channels; ++c) {
      float* p = out + (n * channels + c) * plane;
      BiasActRow(p, bias ? bias[c] : 0.f, act, plane, p);
    }
  }
}

namespace {

// Work items a GEMM conv is split into at least, where its shape allows.
constexpr int64_t kMinConvItems = 4;

// Shapes of one conv2d run, read once from the param.
struct ConvGeometry {
  int64_t batch = 0;
  int c_in = 0, h = 0, w = 0, c_out = 0, out_h = 0, out_w = 0, groups = 1;
  ConvWindow win;
  int64_t in_plane = 0, out_plane = 0;
};

ConvGeometry MakeGeometry(const operators::ConvParam& p) {
  const DDim& in_dims = p.input->dims();
  const DDim& w_dims = p.filter->dims();
  const DDim& out_dims = p.output->dims();
  ConvGeometry g;
  g.batch = in_dims[0];
  g.c_in = static_cast<int>(in_dims[1]);
  g.h = static_cast<int>(in_dims[2]);
  g.w = static_cast<int>(in_dims[3]);
  g.c_out = static_cast<int>(w_dims[0]);
  g.out_h = static_cast<int>(out_dims[2]);
  g.out_w = static_cast<int>(out_dims[3]);
  g.groups = p.groups;
  g.win.kh = static_cast<int>(w_dims[2]);
  g.win.kw = static_cast<int>(w_dims[3]);
  g.win.stride_h = p.strides[0];
  g.win.stride_w = p.strides[1];
  g.win.pad_top = p.eff_paddings[0];
  g.win.pad_left = p.eff_paddings[2];
  g.win.dil_h = p.eff_dilations[0];
  g.win.dil_w = p.eff_dilations[1];
  g.in_plane = static_cast<int64_t>(g.h) * g.w;
  g.out_plane = static_cast<int64_t>(g.out_h) * g.out_w;
  return g;
}

using Scratch = std::vector<std::vector<float>>;  // one buffer per thread

// Items are (image, channel); each chunk runs its channel ranges with its
// own padded scratch.
void RunDepthwise(const KernelContext* ctx, const operators::ConvParam& p,
                  const ConvGeometry& g, Scratch* scratch) {
  const float* in = p.input->data<float>();
  const float* filter = p.filter->data<float>();
  const float* bias = p.bias ? p.bias->data<float>() : nullptr;
  float* out = p.output->mutable_data<float>();
  const int c_in = g.c_in;
  const int64_t ksize = static_cast<int64_t>(g.win.kh) * g.win.kw;
  ParallelForChunks(ctx, g.batch * c_in, g.batch * c_in * g.out_plane * ksize,
                    [&](int chunk, int64_t i0, int64_t i1) {
    for (int64_t i = i0; i < i1;) {
      const int64_t n = i / c_in;
      const int c = static_cast<int>(i % c_in);
      const int cnt = static_cast<int>(std::min<int64_t>(i1 - i, c_in - c));
      const int64_t plane0 = n * c_in + c;
      DepthwiseConv2d(in + plane0 * g.in_plane, cnt, g.h, g.w, filter + c * ksize, g.win,
                      g.out_h, g.out_w, out + plane0 * g.out_plane, bias ? bias + c : nullptr,
                      &p.act, &(*scratch)[chunk]);
      i += cnt;
    }
  });
}

// Items are (image, block of tiles); the blocks depend on shapes only.
void RunWinograd(const KernelContext* ctx, const operators::ConvParam& p,
                 const ConvGeometry& g, WinogradFilterCache* cache, Scratch* scratch) {
  const float* in = p.input->data<float>();
  float* out = p.output->mutable_data<float>();
  WinogradArgs args;
  args.c_in = g.c_in;
  args.h = g.h;
  args.w = g.w;
  args.pad_top = g.win.pad_top;
  args.pad_left = g.win.pad_left;
  args.u = cache->Get(p.filter->data<float>(), g.c_out, g.c_in);
  args.c_out = g.c_out;
  args.out_h = g.out_h;
  args.out_w = g.out_w;
  args.bias = p.bias ? p.bias->data<float>() : nullptr;
  args.act = &p.act;
  const int64_t tiles = WinogradTiles(g.out_h, g.out_w);
  const int64_t block = WinogradBlockTiles(g.c_in, g.c_out, tiles);
  const int64_t blocks = (tiles + block - 1) / block;
  ParallelForChunks(ctx, g.batch * blocks, g.batch * tiles * 16 * g.c_in * g.c_out,
                    [&](int chunk, int64_t i0, int64_t i1) {
    for (int64_t i = i0; i < i1; ++i) {
      WinogradArgs image = args;
      image.in = in + i / blocks * g.c_in * g.in_plane;
      image.out = out + i / blocks * g.c_out * g.out_plane;
      const int64_t t0 = i % blocks * block;
      WinogradConv3x3(image, t0, std::min(tiles, t0 + block), &(*scratch)[chunk]);
    }
  });
}

// Per-group GEMM on blocks of im2col columns (or the input itself for 1x1).
void RunGemm(const KernelContext* ctx, const operators::ConvParam& p, const ConvGeometry& geo,
             Scratch* scratch) {
  const float* in = p.input->data<float>();
  const float* filter = p.filter->data<float>();
  const float* bias = p.bias ? p.bias->data<float>() : nullptr;
  float* out = p.output->mutable_data<float>();
  const int64_t batch = geo.batch;
  const int c_in = geo.c_in, h = geo.h, w = geo.w, c_out = geo.c_out;
  const int out_h = geo.out_h, out_w = geo.out_w, groups = geo.groups;
  const ConvWindow& win = geo.win;
  const int64_t in_plane = geo.in_plane, out_plane = geo.out_plane;
  const int cin_g = c_in / groups;
  const int cout_g = c_out / groups;
  const int64_t k = static_cast<int64_t>(cin_g) * win.kh * win.kw;
  const bool direct_1x1 = win.kh == 1 && win.kw == 1 && win.stride_h == 1 &&
                          win.stride_w == 1 && win.dil_h == 1 && win.dil_w == 1 &&
                          std::all_of(p.eff_paddings.begin(), p.eff_paddings.end(),
                                      [](int v) { return v == 0; });
  // Spatial blocking: each block of output pixels (whole output rows for
  // im2col) keeps its K x block columns in L2 and gets its bias/activation
  // while still cached.
  const int64_t cols_per_block = std::max<int64_t>(kConvBlockFloats / std::max<int64_t>(k, 1), 64);
  const int rows_per_block = static_cast<int>(
      std::min<int64_t>(out_h, std::max<int64_t>(1, cols_per_block / out_w)));
  const int64_t step = direct_1x1 ? cols_per_block
                                  : static_cast<int64_t>(rows_per_block) * out_w;
  const int64_t blocks = (out_plane + step - 1) / step;
  // Layers with few pixel blocks (small late feature maps) also split their
  // output channels, in multiples of 16, so they still spread over threads.
  // Like the pixel blocks this depends on the shapes only, never on threads.
  const int64_t per_group = batch * groups * blocks;
  int64_t m_step = cout_g;
  if (per_group < kMinConvItems && cout_g >= 32) {
    const int64_t parts = std::min<int64_t>((kMinConvItems + per_group - 1) / per_group, cout_g / 16);
    m_step = ((cout_g + parts - 1) / parts + 15) / 16 * 16;
  }
  const int64_t m_blocks = (cout_g + m_step - 1) / m_step;
  // Items are (image, group, pixel block, channel block), in that order; a
  // chunk reuses its last im2col block across channel blocks.
  ParallelForChunks(ctx, per_group * m_blocks, batch * c_out * out_plane * k,
                    [&](int chunk, int64_t i0, int64_t i1) {
    std::vector<float>& col = (*scratch)[chunk];
    if (!direct_1x1 && col.size() < static_cast<size_t>(k * step)) col.resize(k * step);
    int64_t col_block = -1;  // the (image, group, pixel block) now in col
    for (int64_t i = i0; i < i1; ++i) {
      const int64_t blk = i / m_blocks;
      const int64_t n = blk / (groups * blocks);
      const int g = static_cast<int>(blk / blocks % groups);
      const int64_t j0 = blk % blocks * step;
      const int64_t m0 = i % m_blocks * m_step;
      const int64_t mb = std::min<int64_t>(m_step, cout_g - m0);
      const float* in_g = in + (n * c_in + static_cast<int64_t>(g) * cin_g) * in_plane;
      const float* w_g = filter + (static_cast<int64_t>(g) * cout_g + m0) * k;
      const float* b_g = bias ? bias + static_cast<int64_t>(g) * cout_g + m0 : nullptr;
      float* out_g = out + (n * c_out + static_cast<int64_t>(g) * cout_g + m0) * out_plane;
      const int64_t nb = std::min(step, out_plane - j0);
      const float* b = in_g + j0;
      int64_t ldb = in_plane;
      if (!direct_1x1) {
        const int oh0 = static_cast<int>(j0 / out_w);
        if (col_block != blk) {
          Im2ColRows(in_g, cin_g, h, w, win, oh0, oh0 + static_cast<int>(nb / out_w),
                     out_w, col.data());
          col_block = blk;
        }
        b = col.data();
        ldb = nb;
      }
      float* c = out_g + j0;
      Gemm(false, false, mb, nb, k, 1.f, w_g, k, b, ldb, 0.f, c, out_plane);
      if (b_g || p.act.enabled()) {
        for (int oc = 0; oc < mb; ++oc) {
          float* row = c + oc * out_plane;
          BiasActRow(row, b_g ? b_g[oc] : 0.f, p.act, nb, row);
        }
      }
    }
  });
}

}  // namespace

Status ConvCompute::Run() {
  auto& p = Param<operators::ConvParam>();
  if (p.input->dtype() != DataType::kFloat32 || p.filter->dtype() != DataType::kFloat32) {
    return Unimplemented(std::string("conv2d host kernel supports float32 only, got ") +
                         DataTypeName(p.input->dtype()) + " input and " +
                         DataTypeName(p.filter->dtype()) + " filter");
  }
  if (!p.residual) {
    RETURN_IF_ERROR(RunConv(p));
    ApplyPostAffine(p);
    return Status::OK();
  }
  if (p.residual->dtype() != DataType::kFloat32 || p.residual->dims() != p.output->dims()) {
    return InvalidArgument("conv2d host kernel: ResidualData must be float32 of Output's dims " +
                           DimsToString(p.output->dims()) + ", got " +
                           DataTypeName(p.residual->dtype()) + " " +
                           DimsToString(p.residual->dims()));
  }
  // conv + bias first, then act(out + residual) a cache-sized block at a
  // time: the same float operations as the conv and the add apart.
  operators::ConvParam conv = p;
  conv.act = operators::FusedActivation();
  conv.residual = nullptr;
  RETURN_IF_ERROR(RunConv(conv));
  const float* r = p.residual->data<float>();
  float* out = p.output->mutable_data<float>();
  const int64_t n = p.output->numel();
  constexpr int64_t kBlock = 4096;
  for (int64_t b = 0; b < n; b += kBlock) {
    const int64_t m = std::min(kBlock, n - b);
    for (int64_t i = b; i < b + m; ++i) out[i] += r[i];
    if (p.act.enabled()) BiasActRow(out + b, 0.f, p.act, m, out + b);
  }
  ApplyPostAffine(p);
  return Status::OK();
}

void ConvCompute::ApplyPostAffine(const operators::ConvParam& p) {
  if (!p.has_post_affine()) return;
  float* out = p.output->mutable_data<float>();
  const float a = p.post_scale, b = p.post_bias;
  const int64_t n = p.output->numel();
  for (int64_t i = 0; i < n; ++i) out[i] = out[i] * a + b;
}

Status ConvCompute::RunConv(const operators::ConvParam& p) {
  const ConvGeometry g = MakeGeometry(p);
  if (g.out_plane == 0 || g.batch == 0) return Status::OK();
  scratch_.resize(NumThreads(ctx()));
  const bool depthwise = g.groups == g.c_in && g.c_out == g.c_in && p.filter->dims()[1] == 1;
  if (depthwise) {
    RunDepthwise(ctx(), p, g, &scratch_);
  } else if (UseWinograd(g.win, g.groups, g.c_in, g.c_out, g.out_h, g.out_w)) {
    RunWinograd(ctx(), p, g, &winograd_filter_, &scratch_);
  } else {
    RunGemm(ctx(), p, g, &scratch_);
  }
  return Status::OK();
}

}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(conv2d, kHost, kFloat, kNCHW, lite::kernels::host::ConvCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(depthwise_conv2d, kHost, kFloat, kNCHW,
                     lite::kernels::host::ConvCompute, def)
    .Finalize();
