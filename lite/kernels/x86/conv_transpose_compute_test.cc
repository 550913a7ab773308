// x86 conv2d_transpose / depthwise_conv2d_transpose against the host
// kernel, and the strategy each shape is planned on
// (conv_transpose_compute.h): with our AVX-512 kernels in the build and on
// the CPU, and without them.
#include <string>
#include <vector>

#include "lite/backends/x86/narrow_deconv.h"
#include "lite/backends/x86/pointwise_conv.h"
#include "lite/kernels/x86/conv_transpose_compute.h"
#include "lite/kernels/x86/x86_test_util.h"

namespace lite {
namespace {

struct Deconv {
  int n = 1, c = 8, h = 7, w = 6, cout = 4, k = 2, groups = 1;
  std::vector<int> strides{2, 2}, pads{0, 0}, dils{1, 1}, output_padding;
  std::string act;
  // The strategy expected to win: with our own kernels available, without.
  std::string own, portable;
};

Deconv Expect(Deconv d, const char* own, const char* portable) {
  d.own = own;
  d.portable = portable;
  return d;
}

TEST(X86ConvTranspose, MatchesHost) {
  std::vector<std::pair<std::string, Deconv>> cases;
  Deconv d;
  cases.push_back({"k2 s2 (PP-OCR det)", Expect(d, "own_narrow", "onednn_scatter")});
  d.act = "relu";
  cases.push_back({"k2 s2 relu", Expect(d, "own_narrow", "onednn_scatter")});
  d = Deconv();
  d.k = 3;
  d.pads = {1, 1};
  d.output_padding = {1, 1};
  d.n = 2;
  cases.push_back({"k3 s2 pad 1 output_padding 1, batch 2", Expect(d, "host", "host")});
  d = Deconv();
  d.k = 3;
  d.strides = {1, 2};
  d.dils = {2, 1};
  d.groups = 2;
  d.cout = 6;
  cases.push_back({"groups 2, dilation", Expect(d, "host", "host")});
  d = Deconv();
  d.k = 3;
  d.strides = {1, 1};
  d.pads = {1, 1};
  d.groups = 2;
  d.cout = 6;
  cases.push_back({"stride 1 (deconvolution primitive), groups 2",
                   Expect(d, "onednn_deconv", "onednn_deconv")});
  d = Deconv();
  d.k = 3;
  d.strides = {3, 3};
  d.n = 2;
  d.c = 24;
  d.cout = 5;
  d.act = "sigmoid";
  cases.push_back({"k3 s3 (one matmul), batch 2, sigmoid",
                   Expect(d, "onednn_scatter", "onednn_scatter")});
  d.k = 2;
  d.strides = {2, 2};
  d.act = "relu";
  cases.push_back({"k2 s2 (one matmul), relu", Expect(d, "onednn_scatter", "onednn_scatter")});
  // Det's last layer (24 -> 1, sigmoid) and a two-entry activation.
  d = Deconv();
  d.c = 24;
  d.cout = 1;
  d.n = 2;
  d.act = "sigmoid";
  cases.push_back({"k2 s2 24 -> 1, batch 2, sigmoid", Expect(d, "own_narrow", "onednn_scatter")});
  d.cout = 3;
  d.act = "hard_sigmoid";
  cases.push_back({"k2 s2 24 -> 3, hard_sigmoid", Expect(d, "own_narrow", "onednn_scatter")});
  d.k = 2;
  d.strides = {2, 2};
  d.n = 2;
  // kw * C_out >= 16: batched matmuls writing the output rows in place.
  d.cout = 24;
  d.act = "relu";
  cases.push_back({"k2 s2 24 -> 24 (own 1x1 GEMM per kernel row), batch 2, relu",
                   Expect(d, "own_row_gemm", "onednn_rows")});
  d.act = "sigmoid";
  cases.push_back({"k2 s2 24 -> 24 (oneDNN strided matmuls), batch 2, sigmoid",
                   Expect(d, "onednn_rows", "onednn_rows")});
  d.act = "relu";
  d.k = 3;
  d.strides = {3, 3};
  d.cout = 8;
  d.n = 1;
  d.act = "";
  cases.push_back({"k3 s3 24 -> 8 (own 1x1 GEMM per kernel row)",
                   Expect(d, "own_row_gemm", "onednn_rows")});
  for (const auto& c : cases) {
    const Deconv k = c.second;
    auto setup = [&k](OpTester* t) {
      t->SetInput<float>("Input", "x", {k.n, k.c, k.h, k.w},
                         RandomFloats(int64_t{k.n} * k.c * k.h * k.w, 3));
      t->SetInput<float>("Filter", "f", {k.c, k.cout / k.groups, k.k, k.k},
                         RandomFloats(int64_t{k.c} * (k.cout / k.groups) * k.k * k.k, 4));
      t->SetInput<float>("Bias", "b", {k.cout}, RandomFloats(k.cout, 5));
      t->SetOutput("Output", "out");
      t->SetAttr("strides", k.strides);
      t->SetAttr("paddings", k.pads);
      t->SetAttr("dilations", k.dils);
      t->SetAttr("groups", k.groups);
      if (!k.output_padding.empty()) t->SetAttr("output_padding", k.output_padding);
      if (!k.act.empty()) t->SetAttr("fuse_activation", k.act);
      if (k.act == "hard_sigmoid") {  // slope, offset
        t->SetAttr("fuse_alpha", 0.2f);
        t->SetAttr("fuse_beta", 0.5f);
      }
    };
    const bool own = k.own == "own_narrow" ? lite::x86::NarrowDeconv::Available()
                     : k.own == "own_row_gemm" ? lite::x86::PointwiseConv::Available()
                                               : true;
    const std::string want = own ? k.own : k.portable;
    auto winner = [&](OpTester* t) {
      auto* kernel = dynamic_cast<kernels::x86::ConvTransposeCompute*>(t->kernel());
      ASSERT_NE(kernel, nullptr) << c.first;
      ASSERT_NE(kernel->strategies().winner(), nullptr) << c.first;
      EXPECT_EQ(kernel->strategies().winner()->name(), want) << c.first;
      EXPECT_FALSE(kernel->impl_info().empty()) << c.first;
    };
    x86_test::ExpectX86MatchesHost("conv2d_transpose", setup, {"out"}, c.first, 1e-5f, 1, 2,
                                   winner);
  }
  Deconv dw;
  dw.c = dw.cout = dw.groups = 8;
  auto setup = [&dw](OpTester* t) {
    t->SetInput<float>("Input", "x", {1, 8, 5, 5}, RandomFloats(200, 3));
    t->SetInput<float>("Filter", "f", {8, 1, 2, 2}, RandomFloats(32, 4));
    t->SetOutput("Output", "out");
    t->SetAttr("strides", dw.strides);
    t->SetAttr("paddings", dw.pads);
    t->SetAttr("dilations", dw.dils);
    t->SetAttr("groups", dw.groups);
  };
  x86_test::ExpectX86MatchesHost("depthwise_conv2d_transpose", setup, {"out"}, "depthwise",
                                 1e-5f);
}

}  // namespace
}  // namespace lite
