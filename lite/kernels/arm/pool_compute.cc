// arm pool2d (float32, NHWC) on XNNPACK: max pooling on
// max_pooling2d_nhwc_f32, average pooling on average_pooling2d_nhwc_f32
// (padding excluded from the divisor: Paddle's exclusive mode), and a whole-
// plane average (global_pooling, or adaptive to 1 x 1) on
// global_average_pooling_nwc_f32; a global max is a max pool over the plane.
// ceil_mode extends the bottom / right padding to the output the op infers;
// where that leaves a window wholly outside the input (Paddle's value for it
// is its own convention) the op runs the host kernel on NCHW copies
// (lite/core/host_fallback.h).
// The operator is created again only when the input dims change (windows
// and paddings follow them). Declines at kernel pick: other adaptive
// sizes, average pools that count padding (exclusive false with padding or
// ceil_mode), NHWC data_format, and 1 x 1 windows (XNNPACK refuses them).
#include <algorithm>
#include <limits>

#include "lite/core/host_fallback.h"
#include "lite/kernels/arm/arm_kernel.h"
#include "lite/operators/pool_op.h"

namespace lite {
namespace kernels {
namespace arm {

namespace {

class PoolCompute : public ArmKernel {
 public:
  Status Run() override {
    const auto& p = Param<operators::PoolParam>();
    const DDim in = p.x->dims();
    const float* x = p.x->data<float>();
    float* y = p.out->mutable_data<float>();
    const bool recreate = (!op_ && !on_host_) || in != dims_;
    if (recreate) RETURN_IF_ERROR(Create(p));
    if (on_host_) return RunOnHost(p);
    if (recreate || x != x_ || y != y_ || PoolChanged()) {
      if (global_avg_) {
        RETURN_IF_ERROR(Check(xnn_setup_global_average_pooling_nwc_f32(
                                  op_.get(), in[0], in[2] * in[3], x, y, pool()),
                              "xnn_setup_global_average_pooling_nwc_f32"));
      } else if (max_) {
        RETURN_IF_ERROR(Check(xnn_setup_max_pooling2d_nhwc_f32(op_.get(), in[0], in[2], in[3], x,
                                                               y, pool()),
                              "xnn_setup_max_pooling2d_nhwc_f32"));
      } else {
        RETURN_IF_ERROR(Check(xnn_setup_average_pooling2d_nhwc_f32(op_.get(), in[0], in[2],
                                                                   in[3], x, y, pool()),
                              "xnn_setup_average_pooling2d_nhwc_f32"));
      }
      x_ = x;
      y_ = y;
    }
    return Check(xnn_run_operator(op_.get(), pool()), "xnn_run_operator (pool2d)");
  }

 private:
  // The host kernel on NCHW copies of X and Out.
  Status RunOnHost(const operators::PoolParam& p) {
    nchw_param_ = p;
    nchw_param_.x = NchwInput(*p.x, &x_nchw_);
    out_nchw_.Resize(p.out->dims());
    nchw_param_.out = NchwOutput(p.out, &out_nchw_);
    RETURN_IF_ERROR(fallback_.Run(*this, &nchw_param_));
    StoreNchwOutput(*nchw_param_.out, p.out);
    return Status::OK();
  }

  Status Create(const operators::PoolParam& p) {
    const DDim& in = p.x->dims();
    op_.reset();
    on_host_ = false;
    dims_ = in;
    const DDim& out = p.out->dims();
    const size_t c = static_cast<size_t>(in[1]);
    const float inf = std::numeric_limits<float>::infinity();
    const bool whole = p.global_pooling || (p.adaptive && out[2] == 1 && out[3] == 1);
    max_ = p.pooling_type == "max";
    global_avg_ = whole && !max_;
    xnn_operator_t op = nullptr;
    if (global_avg_) {
      RETURN_IF_ERROR(Check(xnn_create_global_average_pooling_nwc_f32(c, c, c, -inf, inf, 0, &op),
                            "xnn_create_global_average_pooling_nwc_f32"));
    } else {
      if (p.adaptive && !whole) {
        return Unimplemented(What() + ": adaptive pooling to " + DimsToString(out));
      }
      const int64_t kh = whole ? in[2] : p.eff_ksize[0], kw = whole ? in[3] : p.eff_ksize[1];
      const int64_t sh = whole ? 1 : p.strides[0], sw = whole ? 1 : p.strides[1];
      int64_t top = whole ? 0 : p.eff_paddings[0], bottom = whole ? 0 : p.eff_paddings[1];
      int64_t left = whole ? 0 : p.eff_paddings[2], right = whole ? 0 : p.eff_paddings[3];
      // A last window starting past the input: the host kernel's case.
      if ((out[2] - 1) * sh - top >= in[2] || (out[3] - 1) * sw - left >= in[3]) {
        on_host_ = true;
        return Status::OK();
      }
      // The windows the op's output dims need (ceil_mode adds some).
      bottom = std::max(bottom, (out[2] - 1) * sh + kh - in[2] - top);
      right = std::max(right, (out[3] - 1) * sw + kw - in[3] - left);
      if ((in[2] + top + bottom - kh) / sh + 1 != out[2] ||
          (in[3] + left + right - kw) / sw + 1 != out[3]) {
        return Unimplemented(What() + ": windows of the output " + DimsToString(out) +
                             " for input " + DimsToString(in));
      }
      if (max_) {
        RETURN_IF_ERROR(Check(xnn_create_max_pooling2d_nhwc_f32(top, right, bottom, left, kh, kw,
                                                                sh, sw, 1, 1, c, c, c, -inf, inf,
                                                                0, &op),
                              "xnn_create_max_pooling2d_nhwc_f32"));
      } else {
        RETURN_IF_ERROR(Check(xnn_create_average_pooling2d_nhwc_f32(top, right, bottom, left, kh,
                                                                    kw, sh, sw, c, c, c, -inf,
                                                                    inf, 0, &op),
                              "xnn_create_average_pooling2d_nhwc_f32"));
      }
    }
    op_.reset(op);
    return Status::OK();
  }

  lite::arm::XnnOperator op_;
  bool max_ = false, global_avg_ = false;
  bool on_host_ = false;  // this input's windows need the host kernel
  operators::PoolParam nchw_param_;
  Tensor x_nchw_, out_nchw_;
  HostFallback fallback_;
  DDim dims_;
  const float* x_ = nullptr;
  float* y_ = nullptr;
};

bool PoolAccepts(const cpp::OpDesc& desc) {
  const bool whole = desc.GetAttr<bool>("global_pooling", false) ||
                     (desc.GetAttr<bool>("adaptive", false) &&
                      desc.GetAttr<std::vector<int>>("ksize", {}) == std::vector<int>{1, 1});
  const std::string type = desc.GetAttr<std::string>("pooling_type", "");
  if (type != "max" && type != "avg") return false;
  if (desc.GetAttr<std::string>("data_format", "NCHW") == "NHWC") return false;
  if (whole) return true;
  if (desc.GetAttr<bool>("adaptive", false)) return false;
  const auto k = desc.GetAttr<std::vector<int>>("ksize", {});
  if (k.size() != 2 || k[0] * k[1] <= 1) return false;
  if (type == "avg" && !desc.GetAttr<bool>("exclusive", true)) {
    const auto pads = desc.GetAttr<std::vector<int>>("paddings", {0, 0});
    const bool padded = std::any_of(pads.begin(), pads.end(), [](int v) { return v != 0; }) ||
                        desc.GetAttr<std::string>("padding_algorithm", "EXPLICIT") == "SAME";
    if (padded || desc.GetAttr<bool>("ceil_mode", false)) return false;
  }
  return true;
}

}  // namespace
}  // namespace arm
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(pool2d, kARM, kFloat, kNHWC, lite::kernels::arm::PoolCompute, def)
    .SetAccepts(lite::kernels::arm::PoolAccepts)
    .Finalize();
