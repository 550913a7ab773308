// x86 conv2d_transpose_pair (lite/operators/conv_transpose_pair_op.h): two
// non-overlapping transposes in a row, the second run on bands of the
// first's output (the file comment of conv_transpose_compute.h says why
// those transposes run on our own kernels).
#include <algorithm>
#include <string>
#include <vector>

#include "lite/backends/x86/narrow_deconv.h"
#include "lite/backends/x86/omp_ranges.h"
#include "lite/backends/x86/pointwise_conv.h"
#include "lite/backends/x86/post_ops.h"
#include "lite/kernels/x86/conv_transpose_util.h"
#include "lite/operators/conv_transpose_pair_op.h"

namespace lite {
namespace kernels {
namespace x86 {

namespace {

// conv2d_transpose_pair (lite/operators/conv_transpose_pair_op.h), both
// transposes non-overlapping (PairAccepts): per band of kBandRows input
// rows, the first (RowGemms) writes its kh0 output rows per input row into
// a per-thread buffer (det's 160x160 24 -> 24 -> 1 head: 4 x 2 rows of
// 320 x 24 floats, 240 KB, in L2) and the second (NarrowDeconv) reads them
// from there into its output rows; the second's activation then runs over
// the whole output (oneDNN eltwise, as RunNarrow). The intermediate map is
// never written to memory.
class ConvTransposePairCompute : public InPlaceActivationKernel {
 protected:
  static constexpr int64_t kBandRows = 4;

  Status RunDnnl() override {
    const auto& p = Param<operators::ConvTransposePairParam>();
    const operators::ConvTransposeParam& a = *p.first;
    const operators::ConvTransposeParam& b = *p.second;
    const DDim& in = a.input->dims();
    const DDim& fa = a.filter->dims();  // [C_in, C_mid, kh0, kw0]
    const DDim& fb = b.filter->dims();  // [C_mid, C_out, kh1, kw1]
    const DDim want{in[0], fb[1], in[2] * fa[2] * fb[2], in[3] * fa[3] * fb[3]};
    if (b.output->dims() != want) {
      return Internal("conv2d_transpose_pair: output " + DimsToString(b.output->dims()) +
                      ", windows that do not overlap give " + DimsToString(want));
    }
    if (!first_.ready()) {
      first_.Pack(a);
      second_.SetFilter(b.filter->data<float>(), b.bias ? b.bias->data<float>() : nullptr, fb[0],
                        fb[1], static_cast<int>(fb[2]), static_cast<int>(fb[3]));
    }
    const int64_t rows = in[0] * in[2], wd = in[3], k = fa[0], kh0 = fa[2];
    const int64_t mid_row = wd * fa[3] * fa[1];           // floats of an intermediate row
    const int64_t out_rows = kh0 * fb[2], out_row = want[3] * fb[1];
    const float* x = a.input->data<float>();
    float* out = b.output->mutable_data<float>();
    const int64_t work = rows * wd * k * fa[1] * kh0 * fa[3];
    lite::x86::OmpForRanges(threads(), rows, work, [&](int64_t r0, int64_t r1) {
      float* mid = BandBuffer(kBandRows * kh0 * mid_row);
      for (int64_t r = r0; r < r1; r += kBandRows) {
        const int64_t n = std::min(kBandRows, r1 - r);
        for (int64_t j = 0; j < n; ++j) {
          first_.RunRow(a, x + (r + j) * wd * k, wd, mid + j * kh0 * mid_row);
        }
        second_.Run(1, n * kh0, wd * fa[3], mid, out + r * out_rows * out_row, 1);
      }
    });
    ActivateInPlace(b.act, b.output);
    return Status::OK();
  }

 private:
  // A band of the intermediate map on this thread, grown and kept.
  static float* BandBuffer(int64_t n) {
    thread_local std::vector<float> buffer;
    if (static_cast<int64_t>(buffer.size()) < n) buffer.resize(n);
    return buffer.data();
  }

  RowGemms first_;
  lite::x86::NarrowDeconv second_;
};

// A transpose of a pair whose windows do not overlap: kernel == stride, no
// padding, dilation 1, one group, no output_padding / output_size, float;
// *f gets its declared filter dims.
bool NonOverlappingPart(const cpp::OpDesc& part, const VarDimsFn& dims,
                        std::vector<int64_t>* f) {
  if (!part.HasInput("Filter") || part.HasInput("OutputSize") ||
      part.GetAttr<bool>("enable_int8", false) ||
      part.GetAttr<std::string>("data_format", "NCHW") == "NHWC" ||
      part.GetAttr<int>("groups", 1) != 1 ||
      !part.GetAttr<std::vector<int>>("output_size", {}).empty()) {
    return false;
  }
  const std::string algo = part.GetAttr<std::string>("padding_algorithm", "EXPLICIT");
  if (algo != "EXPLICIT" && algo != "VALID") return false;
  for (int v : part.GetAttr<std::vector<int>>("paddings", {0, 0})) {
    if (v != 0) return false;
  }
  for (int v : part.GetAttr<std::vector<int>>("output_padding", {})) {
    if (v != 0) return false;
  }
  for (int v : part.GetAttr<std::vector<int>>("dilations", {1, 1})) {
    if (v != 1) return false;
  }
  *f = dims(part.Input("Filter")[0]);
  const std::vector<int> strides = part.GetAttr<std::vector<int>>("strides", {1, 1});
  return f->size() == 4 && strides.size() == 2 && (*f)[2] == strides[0] && (*f)[3] == strides[1];
}

// ConvTransposePairCompute takes the pair: both parts non-overlapping, the
// first's activation one our 1x1 GEMM computes, the second's output block
// per input pixel NarrowDeconv's, its activation oneDNN's.
bool PairAccepts(const cpp::OpDesc& desc, const VarDimsFn& dims) {
  const cpp::OpDesc a = operators::ConvTransposePairPart(desc, 0);
  const cpp::OpDesc b = operators::ConvTransposePairPart(desc, 1);
  std::vector<int64_t> fa, fb;
  if (!lite::x86::PointwiseConv::Available() || !lite::x86::NarrowDeconv::Available() ||
      !NonOverlappingPart(a, dims, &fa) || !NonOverlappingPart(b, dims, &fb) || fb[0] != fa[1] ||
      !lite::x86::NarrowDeconv::Fits(fb[1], fb[2], fb[3])) {
    return false;
  }
  auto act_a = operators::FusedActivation::FromOpDesc(a);
  auto act_b = operators::FusedActivation::FromOpDesc(b);
  return act_a.ok() && act_b.ok() && lite::x86::PointwiseConv::Supports(*act_a) &&
         lite::x86::DnnlExpressible(*act_b);
}

}  // namespace
}  // namespace x86
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(conv2d_transpose_pair, kX86, kFloat, kNHWC,
                     lite::kernels::x86::ConvTransposePairCompute, def)
    .SetAcceptsDims(lite::kernels::x86::PairAccepts)
    .Finalize();
