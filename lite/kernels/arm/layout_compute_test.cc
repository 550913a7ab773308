// The arm layout kernels: NCHW -> NHWC -> NCHW is the identity on float and
// int32 rank-4 tensors, NHWC places channels innermost, other ranks copy.
#include <vector>

#include <gtest/gtest.h>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

std::vector<float> RunLayout(const std::string& alias, const DDim& d,
                             const std::vector<float>& in) {
  const KernelDef* def =
      KernelRegistry::Global().FindByKey(std::string("layout/") + alias + "/arm/float/" +
                                         (alias == "nchw_to_nhwc" ? "NHWC" : "NCHW"));
  EXPECT_NE(def, nullptr) << alias;
  if (!def) return {};
  OpTester t("layout");
  t.SetInput<float>("Input", "x", d, in);
  t.SetOutput("Out", "out");
  Status s = t.RunKernel(def);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return t.GetData<float>("out");
}

TEST(ArmLayout, RoundTripAndChannelOrder) {
  const DDim d{2, 3, 2, 2};
  const auto x = RandomFloats(Product(d), 3);
  const auto nhwc = RunLayout("nchw_to_nhwc", d, x);
  ASSERT_EQ(nhwc.size(), x.size());
  // Pixel (0, 0) of sample 0: channels 0, 1, 2 are NCHW elements 0, 4, 8.
  EXPECT_EQ(nhwc[0], x[0]);
  EXPECT_EQ(nhwc[1], x[4]);
  EXPECT_EQ(nhwc[2], x[8]);
  EXPECT_EQ(RunLayout("nhwc_to_nchw", d, nhwc), x);
  const auto flat = RandomFloats(6, 4);
  EXPECT_EQ(RunLayout("nchw_to_nhwc", {2, 3}, flat), flat);
}

// Every element lands where the NHWC index says, and back: channels and
// pixels above and off the permute's 16 x 16 tiles, and its three-channel
// pass.
void ExpectEveryElement(const DDim& d) {
  const int64_t c = d[1], hw = d[2] * d[3];
  const auto x = RandomFloats(Product(d), 5);
  const auto nhwc = RunLayout("nchw_to_nhwc", d, x);
  ASSERT_EQ(nhwc.size(), x.size());
  for (int64_t n = 0; n < d[0]; ++n) {
    for (int64_t ch = 0; ch < c; ++ch) {
      for (int64_t p = 0; p < hw; ++p) {
        ASSERT_EQ(nhwc[(n * hw + p) * c + ch], x[(n * c + ch) * hw + p]) << n << " " << ch;
      }
    }
  }
  EXPECT_EQ(RunLayout("nhwc_to_nchw", d, nhwc), x);
}

TEST(ArmLayout, EveryElementAcrossTiles) {
  ExpectEveryElement({2, 19, 5, 7});  // tiles, both ways
  ExpectEveryElement({2, 3, 5, 7});   // three channels into NHWC: one pass
  ExpectEveryElement({1, 21, 1, 3});  // into NHWC by tiles, three pixels back in one pass
}

}  // namespace
}  // namespace lite
