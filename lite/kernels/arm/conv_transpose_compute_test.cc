// arm conv2d_transpose (XNNPACK deconvolution) against the host kernel:
// PP-OCR det's k2 s2, paddings with output_padding, groups with dilation,
// stride 1, batch 2, fused relu / sigmoid / hard_sigmoid, 2 threads.
#include <string>
#include <vector>

#include "lite/kernels/arm/arm_test_util.h"

namespace lite {
namespace {

struct Deconv {
  int n = 1, c = 8, h = 7, w = 6, cout = 4, k = 2, groups = 1;
  std::vector<int> strides{2, 2}, pads{0, 0}, dils{1, 1}, output_padding;
  std::string act;
};

TEST(ArmConvTranspose, MatchesHost) {
  std::vector<std::pair<std::string, Deconv>> cases;
  Deconv d;
  cases.push_back({"k2 s2 (PP-OCR det)", d});
  d.act = "relu";
  cases.push_back({"k2 s2 relu", d});
  d = Deconv();
  d.k = 3;
  d.pads = {1, 1};
  d.output_padding = {1, 1};
  d.n = 2;
  cases.push_back({"k3 s2 pad 1 output_padding 1, batch 2", d});
  d = Deconv();
  d.k = 3;
  d.strides = {1, 2};
  d.dils = {2, 1};
  d.groups = 2;
  d.cout = 6;
  cases.push_back({"groups 2, dilation", d});
  d = Deconv();
  d.k = 3;
  d.strides = {1, 1};
  d.pads = {1, 1};
  d.groups = 2;
  d.cout = 6;
  cases.push_back({"stride 1, groups 2", d});
  d = Deconv();
  d.c = 24;
  d.cout = 1;
  d.n = 2;
  d.act = "sigmoid";
  cases.push_back({"k2 s2 24 -> 1, batch 2, sigmoid", d});
  d.cout = 3;
  d.act = "hard_sigmoid";
  cases.push_back({"k2 s2 24 -> 3, hard_sigmoid", d});
  for (const auto& c : cases) {
    const Deconv k = c.second;
    auto setup = [k](OpTester* t) {
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
      if (k.act == "hard_sigmoid") {
        t->SetAttr("fuse_alpha", 0.2f);
        t->SetAttr("fuse_beta", 0.5f);
      }
    };
    for (int threads : {1, 2}) {
      arm_test::ExpectArmMatchesHost("conv2d_transpose", setup, {"out"},
                                     c.first + " threads " + std::to_string(threads), 1e-5f,
                                     threads);
    }
  }
}

}  // namespace
}  // namespace lite
