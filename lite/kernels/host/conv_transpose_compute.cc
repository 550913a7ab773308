// Host fp32 kernel for conv2d_transpose / depthwise_conv2d_transpose
// (see lite/operators/conv_transpose_op.h): per image and group,
// col = W_g^T * X_g with the shared GEMM, then col2im (accumulating) into the
// zeroed output; 1x1 stride-1 pad-0 writes the GEMM result directly. Bias and
// the fused activation follow via ConvEpilogue. When stride == kernel size
// (no padding/dilation, e.g. 2x2 stride-2 upsampling) every output pixel gets
// exactly one contribution: RunTiled GEMMs blocks of input rows and scatters
// them, with the bias/activation applied per block. With a thread pool the
// (image, group) pairs, and in RunTiled the row blocks, are split across
// threads, each with its own col buffer; the blocking never depends on the
// thread count.
#include <algorithm>
#include <cstring>
#include <vector>

#include "lite/core/kernel.h"
#include "lite/kernels/host/conv_compute.h"
#include "lite/backends/host/conv_epilogue.h"
#include "lite/backends/host/gemm.h"
#include "lite/backends/host/im2col.h"
#include "lite/operators/conv_transpose_op.h"

namespace lite {
namespace kernels {
namespace host {

class ConvTransposeCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::ConvTransposeParam>();
    if (p.input->dtype() != DataType::kFloat32 ||
        p.filter->dtype() != DataType::kFloat32) {
      return Unimplemented("conv2d_transpose host kernel supports float32 only");
    }
    const DDim& in_dims = p.input->dims();
    const DDim& w_dims = p.filter->dims();
    const DDim& out_dims = p.output->dims();
    const int64_t batch = in_dims[0];
    const int c_in = static_cast<int>(in_dims[1]);
    const int h = static_cast<int>(in_dims[2]);
    const int w = static_cast<int>(in_dims[3]);
    const int c_out = static_cast<int>(out_dims[1]);
    const int out_h = static_cast<int>(out_dims[2]);
    const int out_w = static_cast<int>(out_dims[3]);
    const int groups = p.groups;
    const int cin_g = c_in / groups;
    const int cout_g = static_cast<int>(w_dims[1]);

    ConvWindow win;
    win.kh = static_cast<int>(w_dims[2]);
    win.kw = static_cast<int>(w_dims[3]);
    win.stride_h = p.strides[0];
    win.stride_w = p.strides[1];
    win.pad_top = p.eff_paddings[0];
    win.pad_left = p.eff_paddings[2];
    win.dil_h = p.eff_dilations[0];
    win.dil_w = p.eff_dilations[1];

    col_.resize(NumThreads(ctx()));
    const int64_t in_plane = static_cast<int64_t>(h) * w;
    const int64_t out_plane = static_cast<int64_t>(out_h) * out_w;
    const int64_t col_rows = static_cast<int64_t>(cout_g) * win.kh * win.kw;
    const bool no_pad = std::all_of(p.eff_paddings.begin(), p.eff_paddings.end(),
                                     [](int v) { return v == 0; });
    // stride == kernel, no padding or dilation: output pixels receive exactly
    // one contribution each, so the GEMM result is scattered, not accumulated.
    const bool tiled = no_pad && win.stride_h == win.kh && win.stride_w == win.kw &&
                       win.dil_h == 1 && win.dil_w == 1 && out_h == h * win.kh &&
                       out_w == w * win.kw;
    if (tiled) {
      RunTiled(p, win, batch, c_in, h, w, c_out, out_h, out_w, cin_g, cout_g, col_rows);
      return Status::OK();
    }
    const bool direct = win.kh == 1 && win.kw == 1 && win.stride_h == 1 &&
                        win.stride_w == 1 && out_h == h && out_w == w &&
                        std::all_of(p.eff_paddings.begin(), p.eff_paddings.end(),
                                    [](int v) { return v == 0; });
    const float* in = p.input->data<float>();
    const float* filter = p.filter->data<float>();
    float* out = p.output->mutable_data<float>();
    ParallelForChunks(ctx(), batch * groups, batch * col_rows * in_plane * c_in,
                      [&](int chunk, int64_t i0, int64_t i1) {
      std::vector<float>& col = col_[chunk];
      if (!direct && col.size() < static_cast<size_t>(col_rows * in_plane)) {
        col.resize(col_rows * in_plane);
      }
      for (int64_t i = i0; i < i1; ++i) {
        const int64_t n = i / groups;
        const int g = static_cast<int>(i % groups);
        const float* x_g = in + (n * c_in + static_cast<int64_t>(g) * cin_g) * in_plane;
        const float* w_g = filter + static_cast<int64_t>(g) * cin_g * col_rows;
        float* out_g = out + (n * c_out + static_cast<int64_t>(g) * cout_g) * out_plane;
        if (direct) {
          Gemm(true, false, cout_g, in_plane, cin_g, 1.f, w_g, col_rows, x_g, in_plane,
               0.f, out_g, out_plane);
          continue;
        }
        Gemm(true, false, col_rows, in_plane, cin_g, 1.f, w_g, col_rows, x_g, in_plane,
             0.f, col.data(), in_plane);
        std::memset(out_g, 0, sizeof(float) * cout_g * out_plane);
        Col2ImAdd(col.data(), cout_g, out_h, out_w, win, h, w, out_g);
      }
    });
    ConvEpilogue(p.bias ? p.bias->data<float>() : nullptr, batch, c_out, out_plane,
                 p.act, out);
    return Status::OK();
  }

 private:
  // The stride == kernel fast path, blocked over input rows: GEMM a block
  // into col_, scatter it into the output rows it covers, then apply bias and
  // activation to those rows while hot.
  void RunTiled(const operators::ConvTransposeParam& p, const ConvWindow& win,
                int64_t batch, int c_in, int h, int w, int c_out, int out_h,
                int out_w, int cin_g, int cout_g, int64_t col_rows) {
    const int groups = p.groups;
    const int kh = win.kh, kw = win.kw;
    const int64_t in_plane = static_cast<int64_t>(h) * w;
    const int64_t out_plane = static_cast<int64_t>(out_h) * out_w;
    const int rows = static_cast<int>(std::min<int64_t>(
        h, std::max<int64_t>(1, kConvBlockFloats / (col_rows * std::max(w, 1)))));
    const int64_t blocks = rows > 0 ? (h + rows - 1) / rows : 0;
    const float* in = p.input->data<float>();
    const float* filter = p.filter->data<float>();
    const float* bias = p.bias ? p.bias->data<float>() : nullptr;
    float* out = p.output->mutable_data<float>();
    // Items are (image, group, block of input rows), in that order.
    ParallelForChunks(ctx(), batch * groups * blocks, batch * col_rows * in_plane * c_in,
                      [&](int chunk, int64_t i0, int64_t i1) {
      std::vector<float>& col = col_[chunk];
      if (col.size() < static_cast<size_t>(col_rows * rows * w)) col.resize(col_rows * rows * w);
      for (int64_t it = i0; it < i1; ++it) {
        const int64_t n = it / (groups * blocks);
        const int g = static_cast<int>(it / blocks % groups);
        const int ih0 = static_cast<int>(it % blocks) * rows;
        const float* x_g = in + (n * c_in + static_cast<int64_t>(g) * cin_g) * in_plane;
        const float* w_g = filter + static_cast<int64_t>(g) * cin_g * col_rows;
        float* out_g = out + (n * c_out + static_cast<int64_t>(g) * cout_g) * out_plane;
        const int nr = std::min(rows, h - ih0);
        const int64_t nb = static_cast<int64_t>(nr) * w;
        Gemm(true, false, col_rows, nb, cin_g, 1.f, w_g, col_rows,
             x_g + static_cast<int64_t>(ih0) * w, in_plane, 0.f, col.data(), nb);
        for (int oc = 0; oc < cout_g; ++oc) {
          float* out_c = out_g + oc * out_plane;
          for (int r = 0; r < nr; ++r) {
            for (int i = 0; i < kh; ++i) {
              float* dst = out_c + (static_cast<int64_t>(ih0 + r) * kh + i) * out_w;
              const float* src = col.data() + ((oc * kh + i) * kw) * nb + r * w;
              for (int j = 0; j < kw; ++j, src += nb) {
                for (int iw = 0; iw < w; ++iw) dst[iw * kw + j] = src[iw];
              }
            }
          }
          if (bias || p.act.enabled()) {
            float* blk = out_c + static_cast<int64_t>(ih0) * kh * out_w;
            BiasActRow(blk, bias ? bias[g * cout_g + oc] : 0.f, p.act,
                       static_cast<int64_t>(nr) * kh * out_w, blk);
          }
        }
      }
    });
  }

  std::vector<std::vector<float>> col_;  // one per thread
};

}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(conv2d_transpose, kHost, kFloat, kNCHW,
                     lite::kernels::host::ConvTransposeCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(depthwise_conv2d_transpose, kHost, kFloat, kNCHW,
                     lite::kernels::host::ConvTransposeCompute, def)
    .Finalize();
