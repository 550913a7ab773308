// x86 pool2d (oneDNN pooling, host fallback where oneDNN's windows differ)
// against the host kernel: max/avg, exclusive or not, ceil mode, padding,
// global pooling, odd sizes, batch 2; adaptive avg to 1x1 and global avg
// (plane_mean.h; 150 channels: two whole blocks of 64 and a partial one,
// large enough to split over threads, also on 2 threads) and adaptive avg
// to larger outputs (adaptive_pool_compute.cc), which the pick must route.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "lite/kernels/x86/x86_test_util.h"

namespace lite {
namespace {

struct Pool {
  std::string type = "max";
  std::vector<int> ksize{3, 3}, strides{2, 2}, pads{1, 1};
  bool ceil = false, exclusive = true, global = false;
  DDim x{2, 5, 11, 9};
};

TEST(X86Pool, MatchesHost) {
  std::vector<Pool> cases;
  for (const std::string type : {"max", "avg"}) {
    for (bool ceil : {false, true}) {
      for (bool exclusive : {true, false}) {
        for (auto pads : {std::vector<int>{0, 0}, std::vector<int>{1, 1},
                          std::vector<int>{0, 1, 1, 0}}) {
          Pool p;
          p.type = type;
          p.ceil = ceil;
          p.exclusive = exclusive;
          p.pads = pads;
          cases.push_back(p);
          p.ksize = {2, 2};
          p.strides = {2, 2};
          p.x = {1, 3, 10, 7};
          cases.push_back(p);
        }
      }
    }
  }
  Pool g;
  g.global = true;
  g.type = "avg";
  cases.push_back(g);
  g.type = "max";
  cases.push_back(g);
  Pool a;  // adaptive avg to 1x1 (squeeze-excitation)
  a.type = "avg";
  a.ksize = {1, 1};
  a.x = {2, 24, 7, 5};
  cases.push_back(a);
  a.x = {2, 150, 20, 23};
  cases.push_back(a);
  g.type = "avg";
  g.x = {2, 150, 20, 23};
  cases.push_back(g);
  for (const Pool& c : cases) {
    auto setup = [&](OpTester* t) {
      t->SetInput<float>("X", "x", c.x, RandomFloats(Product(c.x), 9));
      t->SetOutput("Out", "out");
      t->SetAttr("pooling_type", c.type);
      t->SetAttr("ksize", c.ksize);
      t->SetAttr("strides", c.strides);
      t->SetAttr("paddings", c.pads);
      t->SetAttr("ceil_mode", c.ceil);
      t->SetAttr("exclusive", c.exclusive);
      t->SetAttr("global_pooling", c.global);
      t->SetAttr("adaptive", c.ksize == std::vector<int>{1, 1});
    };
    std::string what = c.type + " k" + std::to_string(c.ksize[0]) + " pads " +
                       std::to_string(c.pads.size()) + ":" + std::to_string(c.pads[0]) +
                       (c.ceil ? " ceil" : "") + (c.exclusive ? " exclusive" : "") +
                       (c.global ? " global" : "") + (c.ksize[0] == 1 ? " adaptive" : "");
    // The large cases also on 2 threads (plane_mean splits channels).
    x86_test::ExpectX86MatchesHost("pool2d", setup, {"out"}, what, 1e-5f, c.x[1] == 150 ? 2 : 1);
  }
}

// Adaptive avg to more than 1 x 1 (a segmentation net's pyramid pools):
// uneven, overlapping windows (9 -> 4, 11 -> 3), equal ones (8 -> 2, 8 -> 4)
// and an output as large as the input; 19 channels (a vector tail). The
// kernel is the one kernel pick takes (the oneDNN one declines these), run
// by key on NHWC inputs.
TEST(X86Pool, AdaptiveAvgMatchesHost) {
  const KernelDef* adaptive =
      KernelRegistry::Global().FindByKey("pool2d/own_adaptive/x86/float/NHWC");
  const KernelDef* dnnl = KernelRegistry::Global().FindByKey("pool2d/def/x86/float/NHWC");
  ASSERT_NE(adaptive, nullptr);
  ASSERT_NE(dnnl, nullptr);
  const std::vector<std::pair<DDim, std::vector<int>>> cases = {
      {{2, 19, 9, 11}, {4, 3}}, {{1, 16, 8, 8}, {2, 2}}, {{1, 3, 8, 8}, {4, 4}},
      {{1, 5, 3, 4}, {3, 4}}, {{2, 19, 9, 11}, {1, 2}}};
  for (const auto& c : cases) {
    const std::string what = "adaptive avg " + DimsToString(c.first) + " to " +
                             std::to_string(c.second[0]) + "x" + std::to_string(c.second[1]);
    OpTester host("pool2d"), x86("pool2d");
    for (OpTester* t : {&host, &x86}) {
      t->SetInput<float>("X", "x", c.first, RandomFloats(Product(c.first), 10));
      t->SetOutput("Out", "out");
      t->SetAttr("pooling_type", std::string("avg"));
      t->SetAttr("ksize", c.second);
      t->SetAttr("adaptive", true);
    }
    EXPECT_TRUE(adaptive->Accepts(*x86.desc(), nullptr)) << what;
    EXPECT_FALSE(dnnl->Accepts(*x86.desc(), nullptr)) << what;
    x86_test::InputsToX86Layout(&x86);
    ASSERT_TRUE(host.Run(TargetType::kHost).ok()) << what;
    Status s = x86.RunKernel(adaptive);
    ASSERT_TRUE(s.ok()) << what << ": " << s.ToString();
    const auto want = host.GetData<float>("out");
    const auto got = x86_test::Permute(x86.GetData<float>("out"), x86.Get("out").dims(), false);
    ASSERT_EQ(host.Get("out").dims(), x86.Get("out").dims()) << what;
    for (size_t i = 0; i < want.size(); ++i) {
      ASSERT_NEAR(want[i], got[i], 1e-5f * std::max(1.f, std::fabs(want[i]))) << what << " at " << i;
    }
  }
}

}  // namespace
}  // namespace lite
