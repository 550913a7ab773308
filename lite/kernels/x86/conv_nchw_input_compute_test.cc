// x86 conv2d for 1-4 input channels (conv_nchw_input_compute.cc): which
// convs it takes (and the oneDNN conv then declines), and its output (NHWC,
// from an NCHW input) against the host kernel.
#include <map>
#include <string>
#include <vector>

#include "lite/backends/x86/nchw_input_conv.h"
#include "lite/kernels/x86/conv_compute.h"
#include "lite/kernels/x86/x86_test_util.h"

namespace lite {
namespace {

const KernelDef* Kernel(const std::string& alias) {
  return KernelRegistry::Global().FindByKey("conv2d/" + alias + "/x86/float/NHWC");
}

cpp::OpDesc ConvDesc() {
  cpp::OpDesc d("conv2d");
  d.SetInput("Input", {"x"});
  d.SetInput("Filter", {"f"});
  d.SetOutput("Output", {"y"});
  d.SetAttr("groups", 1);
  return d;
}

TEST(X86ConvNchwInput, TakesDenseConvsOfOneToFourInputChannels) {
  if (!x86::NchwInputConv::Available()) GTEST_SKIP() << "no AVX-512 on this CPU";
  const KernelDef* mine = Kernel("nchw_input");
  const KernelDef* onednn = Kernel("def");
  ASSERT_TRUE(mine && onednn);
  std::map<std::string, std::vector<int64_t>> dims;
  const VarDimsFn lookup = [&dims](const std::string& v) { return dims[v]; };
  struct Case {
    std::vector<int64_t> x, f;
    int groups;
    std::string format;
    bool fits;
  };
  for (const Case& c : std::vector<Case>{{{-1, 3, 224, 224}, {64, 3, 3, 3}, 1, "NCHW", true},
                                         {{1, 1, 28, 28}, {8, 1, 5, 5}, 1, "NCHW", true},
                                         {{}, {16, 4, 7, 7}, 1, "NCHW", true},  // x undeclared
                                         {{1, 8, 32, 32}, {16, 8, 3, 3}, 1, "NCHW", false},
                                         {{1, 3, 32, 32}, {3, 1, 3, 3}, 3, "NCHW", false},
                                         {{1, 3, 32, 32}, {8, 3, 3, 3}, 1, "NHWC", false},
                                         {{1, 3, 32, 32}, {}, 1, "NCHW", false},
                                         {{1, 2, 32, 32}, {8, 3, 3, 3}, 1, "NCHW", false}}) {
    dims["x"] = c.x;
    dims["f"] = c.f;
    cpp::OpDesc d = ConvDesc();
    d.SetAttr("groups", c.groups);
    d.SetAttr("data_format", c.format);
    EXPECT_EQ(mine->Accepts(d, lookup), c.fits) << DimsToString(c.f);
    // (the oneDNN conv declines NHWC attributes on its own)
    EXPECT_EQ(onednn->Accepts(d, lookup), !c.fits && c.format == "NCHW") << DimsToString(c.f);
  }
}

struct Conv {
  int n, c, h, w, cout, k, stride, pad;
  std::string act;
  bool bias;
};

void ExpectMatchesHost(const Conv& k, int threads) {
  const std::string what = "c" + std::to_string(k.c) + " cout" + std::to_string(k.cout) + " k" +
                           std::to_string(k.k) + " s" + std::to_string(k.stride) + " " + k.act;
  auto setup = [&k](OpTester* t) {
    t->SetInput<float>("Input", "x", {k.n, k.c, k.h, k.w},
                       RandomFloats(int64_t{k.n} * k.c * k.h * k.w, 11, -2.f, 2.f));
    t->SetInput<float>("Filter", "f", {k.cout, k.c, k.k, k.k},
                       RandomFloats(int64_t{k.cout} * k.c * k.k * k.k, 5));
    if (k.bias) t->SetInput<float>("Bias", "b", {k.cout}, RandomFloats(k.cout, 3));
    t->SetOutput("Output", "out");
    t->SetAttr("strides", std::vector<int>{k.stride, k.stride});
    t->SetAttr("paddings", std::vector<int>{k.pad, k.pad});
    t->SetAttr("dilations", std::vector<int>{1, 1});
    t->SetAttr("groups", 1);
    if (!k.act.empty()) {
      t->SetAttr("fuse_activation", k.act);
      t->SetAttr("fuse_alpha", 6.f);
      t->SetAttr("fuse_beta", 6.f);
      t->SetAttr("fuse_gamma", 3.f);
    }
  };
  OpTester host("conv2d"), x86("conv2d");
  setup(&host);
  setup(&x86);  // Input stays NCHW: the kernel binds it so
  host.set_threads(threads);
  x86.set_threads(threads);
  for (int run = 0; run < 2; ++run) {
    ASSERT_TRUE(host.Run(TargetType::kHost).ok()) << what;
    Status s = x86.RunKernel(Kernel("nchw_input"));
    ASSERT_TRUE(s.ok()) << what << ": " << s.ToString();
  }
  ASSERT_EQ(host.Get("out").dims(), x86.Get("out").dims()) << what;
  const auto a = host.GetData<float>("out");
  const auto b = x86_test::Permute(x86.GetData<float>("out"), x86.Get("out").dims(), false);
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_NEAR(a[i], b[i], 1e-5f * std::max(1.f, std::fabs(a[i]))) << what << " at " << i;
  }
}

TEST(X86ConvNchwInput, MatchesHost) {
  ExpectMatchesHost({1, 3, 37, 41, 64, 3, 2, 0, "relu", true}, 1);  // squeezenet's stem
  ExpectMatchesHost({1, 3, 40, 36, 8, 3, 2, 1, "hard_swish", true}, 1);  // det's stem
  ExpectMatchesHost({2, 1, 20, 20, 20, 5, 1, 2, "", false}, 1);
  ExpectMatchesHost({1, 4, 30, 30, 100, 3, 1, 1, "sigmoid", true}, 2);
  ExpectMatchesHost({1, 2, 64, 64, 32, 7, 2, 3, "relu6", true}, 2);
}

}  // namespace
}  // namespace lite
