// The x86 kernels of the `layout` op (inserted by layout_cast_pass): NCHW ->
// NHWC and back for rank-4 float tensors (any channel count), a plain copy
// otherwise.
#include <string>
#include <vector>

#include "lite/kernels/x86/x86_test_util.h"

namespace lite {
namespace {

// Runs layout/<alias> on `x` and returns Out.
std::vector<float> RunLayout(const std::string& alias, const DDim& dims,
                             const std::vector<float>& x) {
  OpTester t("layout");
  t.SetInput<float>("Input", "x", dims, x);
  t.SetOutput("Out", "out");
  const KernelDef* def = nullptr;
  for (const KernelDef* d : KernelRegistry::Global().Find("layout")) {
    if (d->alias == alias) def = d;
  }
  EXPECT_NE(def, nullptr) << alias;
  Status s = t.RunKernel(def);
  EXPECT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(t.Get("out").dims(), dims);
  return t.GetData<float>("out");
}

TEST(X86Layout, ReordersRank4AndCopiesOtherRanks) {
  const DDim d{2, 3, 5, 7};
  const auto x = RandomFloats(210, 1);
  const auto nhwc = RunLayout("nchw_to_nhwc", d, x);
  EXPECT_EQ(nhwc, x86_test::Permute(x, d, true));
  EXPECT_EQ(RunLayout("nhwc_to_nchw", d, nhwc), x);
  EXPECT_EQ(RunLayout("nchw_to_nhwc", {6, 35}, x), x);
}

// Channel counts 1 to 6 (images and more) round-trip through the reorders.
TEST(X86Layout, EveryChannelCountRoundTrips) {
  for (int64_t c = 1; c <= 6; ++c) {
    const DDim d{2, c, 3, 5};
    const auto x = RandomFloats(Product(d), 2);
    const auto nhwc = RunLayout("nchw_to_nhwc", d, x);
    EXPECT_EQ(nhwc, x86_test::Permute(x, d, true)) << c << " channels";
    EXPECT_EQ(RunLayout("nhwc_to_nchw", d, nhwc), x) << c << " channels";
  }
}

}  // namespace
}  // namespace lite
