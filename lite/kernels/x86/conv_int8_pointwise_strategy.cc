// The int8 conv's 1x1 strategy (lite/backends/x86/pointwise_int8.h,
// AVX512-VNNI GEMM, impl_info() "lite:pointwise_int8"), which also computes
// conv2d_resize_add (conv_resize_add_op.h): no other strategy does.
//
// It takes 1x1 convs at stride 1 without padding whose activation it
// computes, ResidualData included (its epilogue adds it), where it is the
// faster one in whole-model --profile_ops runs (own / oneDNN's brgconv_1x1
// or jit_int8_1x1; the numbers are in docs/performance.md):
// - s8 input, every shape: oneDNN's s8 compensation path is slow, while
//   ours keeps its sums in registers (DotAdd), broadcasts the input from
//   memory, reads its store arguments once per tile and, for deep inputs,
//   broadcasts inside the vpdpbusd (InDot);
// - at most 8 output channels in its pair mode;
// - maps of at most 4 pixels (pooled SE convs: oneDNN's per-call cost
//   dominates there).
// Kept on oneDNN: other u8 input, which it does not win as a class.
#include <string>
#include <vector>

#include "lite/backends/x86/omp_ranges.h"
#include "lite/backends/x86/pointwise_int8.h"
#include "lite/kernels/x86/conv_int8_strategy.h"
#include "lite/operators/interpolate_op.h"

namespace lite {
namespace kernels {
namespace x86 {
namespace {

using PW = lite::x86::PointwiseInt8;

PW::Levels LevelsOf(const operators::ConvParam& p) {
  return p.input_dtype == DataType::kUInt8 ? PW::Levels::kU8 : PW::Levels::kS8;
}

class PointwiseStrategy : public ConvInt8Strategy {
 public:
  const char* name() const override { return "own_pointwise"; }

  Verdict Accepts(const ConvInt8Context& c) const override {
    const operators::ConvParam& p = c.p;
    if (p.addend) {
      // conv2d_resize_add: conv_resize_add_fuse_pass fuses only where this
      // kernel runs, but a model optimized on another CPU may still carry
      // the op here.
      if (!PW::Available()) {
        return Verdict::Decline("x86 conv2d_resize_add needs AVX512-VNNI on this CPU");
      }
      return Verdict::Accept();
    }
    const std::string gap = ConvInt8OwnEpilogueGap(p, true);
    if (!gap.empty()) return Verdict::Decline(gap);
    if (!PW::Available()) return Verdict::Decline("not in this build or on this CPU");
    const DDim& f = p.filter->dims();
    const DDim& in = p.input->dims();
    bool no_pad = true;
    for (int v : p.eff_paddings) no_pad = no_pad && v == 0;
    if (p.groups != 1 || f[2] != 1 || f[3] != 1 || p.strides[0] != 1 || p.strides[1] != 1 ||
        !no_pad) {
      return Verdict::Decline("not a dense 1x1 stride-1 unpadded conv");
    }
    if (!PW::Supports(p.act)) return Verdict::Decline("activation it does not compute");
    const bool s8_in = p.input_dtype != DataType::kUInt8;  // float input is quantized to s8
    if (!(s8_in || PW::PairMode(f[0], f[1]) || in[0] * in[2] * in[3] <= 4)) {
      return Verdict::Decline("u8 input outside pair mode on a map above 4 pixels");
    }
    return Verdict::Accept();
  }

  Status Plan(ConvInt8Context& c) override {
    const operators::ConvParam& p = c.p;
    const DDim& f = p.filter->dims();
    if (!planned_) {
      pointwise_.SetFilter(p.filter->data<int8_t>(), f[0], f[1]);
      SetConvInt8Epilogue(p, &pointwise_);
      planned_ = true;
    }
    return Status::OK();
  }

  Status Run(ConvInt8Context& c) override {
    const operators::ConvParam& p = c.p;
    const void* levels = nullptr;
    RETURN_IF_ERROR(c.Levels(&levels));
    if (p.addend) return RunResizeAdd(c, levels);
    const DDim& in = p.input->dims();
    pointwise_.Run(in[0] * in[2] * in[3], levels, LevelsOf(p), ConvInt8OutputData(p),
                   c.threads(), p.residual ? p.residual->data<float>() : nullptr);
    return Status::OK();
  }

  const std::string& impl_info() const override { return impl_info_; }

 private:
  // conv2d_resize_add on the 1x1 kernel: per image, the epilogue's scale
  // and bias take ConvScale's factors ((sum * scale + bias) * s as
  // sum * (scale * s) + bias * s); per output row, the kernel adds Addend
  // row y / fh as its residual, pixel x / fw for pixel x.
  Status RunResizeAdd(ConvInt8Context& c, const void* levels) {
    const operators::ConvParam& p = c.p;
    const DDim& in = p.input->dims();
    const DDim& out = p.output->dims();
    const DDim& a = p.addend->dims();
    const int64_t oc = out[1], ic = in[1], oh = out[2], ow = out[3];
    const int64_t fh = p.addend_factor_h, fw = p.addend_factor_w;
    const size_t out_bytes = p.output_dtype == DataType::kFloat32 ? sizeof(float) : 1;
    const PW::Levels in_type = LevelsOf(p);
    const std::vector<float> base_scale = ConvInt8ChannelScales(p);
    std::vector<float> scale(oc), bias(oc);
    const float* addend = p.addend->data<float>();
    char* dst = static_cast<char*>(ConvInt8OutputData(p));
    const char* src = static_cast<const char*>(levels);
    for (int64_t n = 0; n < out[0]; ++n) {
      for (int64_t ch = 0; ch < oc; ++ch) {
        const float s = p.conv_scale ? p.conv_scale->data<float>()[operators::ResidualScaleIndex(
                                           *p.conv_scale, n, ch, oc)]
                                     : 1.f;
        scale[ch] = base_scale[ch] * s;
        bias[ch] = p.bias ? p.bias->data<float>()[ch] * s : 0.f;
      }
      pointwise_.SetEpilogue(scale.data(), bias.data(), p.act, ConvInt8OwnOut<PW::Out>(p),
                             127.f * operators::quant::InverseScale(p.output_scale),
                             p.output_round_type);
      lite::x86::OmpForRangesIf(true, c.threads(), oh, [&](int64_t y0, int64_t y1) {
        for (int64_t y = y0; y < y1; ++y) {
          const float* arow = addend + ((n * a[2] + y / fh) * a[3]) * oc;
          const int64_t pixel = (n * oh + y) * ow;
          pointwise_.Run(ow, src + pixel * ic, in_type, dst + pixel * oc * out_bytes, 1, arow, fw);
        }
      });
    }
    return Status::OK();
  }

  const std::string impl_info_ = "lite:pointwise_int8";
  bool planned_ = false;  // pointwise_ holds the filter and epilogue
  PW pointwise_;
};

}  // namespace

std::unique_ptr<ConvInt8Strategy> MakeConvInt8PointwiseStrategy() {
  return std::make_unique<PointwiseStrategy>();
}

}  // namespace x86
}  // namespace kernels
}  // namespace lite
