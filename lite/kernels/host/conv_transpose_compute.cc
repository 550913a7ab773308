// Host fp32 kernel for conv2d_transpose / depthwise_conv2d_transpose
// (see lite/operators/conv_transpose_op.h): per image and group,
// col = W_g^T * X_g with the shared GEMM, then col2im (accumulating) into the
// zeroed output; 1x1 stride-1 pad-0 writes the GEMM result directly. Bias and
// the fused activation follow via ConvEpilogue.
#include <algorithm>
#include <cstring>
#include <vector>

#include "lite/core/kernel.h"
#include "lite/kernels/host/conv_compute.h"
#include "lite/kernels/host/gemm.h"
#include "lite/kernels/host/im2col.h"
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

    const int64_t in_plane = static_cast<int64_t>(h) * w;
    const int64_t out_plane = static_cast<int64_t>(out_h) * out_w;
    const int64_t col_rows = static_cast<int64_t>(cout_g) * win.kh * win.kw;
    const bool direct = win.kh == 1 && win.kw == 1 && win.stride_h == 1 &&
                        win.stride_w == 1 && out_h == h && out_w == w &&
                        std::all_of(p.eff_paddings.begin(), p.eff_paddings.end(),
                                    [](int v) { return v == 0; });
    if (!direct && col_.size() < static_cast<size_t>(col_rows * in_plane)) {
      col_.resize(col_rows * in_plane);
    }

    const float* in = p.input->data<float>();
    const float* filter = p.filter->data<float>();
    float* out = p.output->mutable_data<float>();
    for (int64_t n = 0; n < batch; ++n) {
      for (int g = 0; g < groups; ++g) {
        const float* x_g = in + (n * c_in + static_cast<int64_t>(g) * cin_g) * in_plane;
        const float* w_g = filter + static_cast<int64_t>(g) * cin_g * col_rows;
        float* out_g = out + (n * c_out + static_cast<int64_t>(g) * cout_g) * out_plane;
        if (direct) {
          Gemm(true, false, cout_g, in_plane, cin_g, 1.f, w_g, col_rows, x_g, in_plane,
               0.f, out_g, out_plane);
          continue;
        }
        Gemm(true, false, col_rows, in_plane, cin_g, 1.f, w_g, col_rows, x_g, in_plane,
             0.f, col_.data(), in_plane);
        std::memset(out_g, 0, sizeof(float) * cout_g * out_plane);
        Col2ImAdd(col_.data(), cout_g, out_h, out_w, win, h, w, out_g);
      }
    }
    ConvEpilogue(p.bias ? p.bias->data<float>() : nullptr, batch, c_out, out_plane,
                 p.act, out);
    return Status::OK();
  }

 private:
  std::vector<float> col_;
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
