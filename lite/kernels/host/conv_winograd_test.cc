// Winograd F(2x2, 3x3) conv2d path: which shapes take it, and that it
// matches the naive convolution on odd and even output sizes, every padding
// pattern, batches, several tile blocks, bias with every fused activation,
// and a filter that changes between runs.
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "lite/kernels/host/conv_test_util.h"
#include "lite/backends/host/conv_winograd.h"

namespace lite {
namespace {

using namespace conv_test;  // NOLINT: the shared conv test vocabulary
using kernels::host::UseWinograd;
using kernels::host::WinogradBlockTiles;
using kernels::host::WinogradTiles;

kernels::host::ConvWindow Window3x3() {
  kernels::host::ConvWindow w;
  w.kh = w.kw = 3;
  return w;
}

TEST(Winograd, TakesOnly3x3Stride1UngroupedConvsWithEnoughChannels) {
  auto w = Window3x3();
  EXPECT_TRUE(UseWinograd(w, 1, 32, 8, 32, 32));
  EXPECT_TRUE(UseWinograd(w, 1, 96, 24, 160, 160));
  EXPECT_FALSE(UseWinograd(w, 1, 3, 64, 56, 56));   // first layer: too few inputs
  EXPECT_FALSE(UseWinograd(w, 1, 16, 64, 56, 56));  // squeezenet's: too few inputs
  EXPECT_FALSE(UseWinograd(w, 1, 64, 256, 14, 14)); // small map
  EXPECT_FALSE(UseWinograd(w, 1, 64, 4, 56, 56));   // too few outputs
  EXPECT_FALSE(UseWinograd(w, 2, 64, 64, 56, 56));  // grouped
  EXPECT_FALSE(UseWinograd(w, 1, 64, 64, 3, 56));   // tiny output
  auto s2 = w;
  s2.stride_h = 2;
  EXPECT_FALSE(UseWinograd(s2, 1, 64, 64, 56, 56));
  auto d2 = w;
  d2.dil_w = 2;
  EXPECT_FALSE(UseWinograd(d2, 1, 64, 64, 56, 56));
  auto k5 = w;
  k5.kh = k5.kw = 5;
  EXPECT_FALSE(UseWinograd(k5, 1, 64, 64, 56, 56));
  EXPECT_EQ(WinogradTiles(5, 7), 3 * 4);
  EXPECT_EQ(WinogradBlockTiles(64, 256, 49), 16);  // small map: still 4 blocks
  EXPECT_EQ(WinogradBlockTiles(8, 8, 100000), 1024);
}

ConvCfg Cfg(int n, int c, int cout, int h, int w, std::vector<int> pads) {
  ConvCfg k;
  k.n = n;
  k.c = c;
  k.cout = cout;
  k.h = h;
  k.w = w;
  k.pads = std::move(pads);
  return k;
}

TEST(Winograd, MatchesNaiveAcrossSizesAndPaddings) {
  struct Case {
    ConvCfg k;
    const char* what;
  };
  const Case cases[] = {
      {Cfg(1, 32, 8, 34, 34, {0, 0, 0, 0}), "even output, no padding"},
      {Cfg(1, 32, 8, 35, 37, {0, 0, 0, 0}), "odd output both ways"},
      {Cfg(2, 33, 10, 32, 32, {1, 1, 1, 1}), "batch 2, same padding"},
      {Cfg(1, 32, 8, 33, 31, {2, 0, 1, 2}), "asymmetric padding"},
      {Cfg(1, 32, 16, 33, 33, {0, 1, 0, 1}), "bottom/right padding only"},
      {Cfg(1, 32, 8, 4, 257, {1, 1, 1, 1}), "one tile row pair, odd width"},
  };
  int seed = 600;
  for (const Case& c : cases) {
    ASSERT_TRUE(UseWinograd(Window3x3(), 1, c.k.c, c.k.cout, c.k.OutH(), c.k.OutW()))
        << c.what;
    CheckConvWithAct("conv2d", c.k, kActs[0], seed++, c.what);
  }
}

TEST(Winograd, SeveralTileBlocksWithPartialRowSegments) {
  // A 70x69 output has 35 x 35 tiles, more than one block,
  // and blocks start and end inside tile rows.
  ConvCfg k = Cfg(2, 32, 8, 70, 69, {1, 1, 1, 1});
  const int64_t tiles = WinogradTiles(k.OutH(), k.OutW());
  ASSERT_LT(WinogradBlockTiles(32, 8, tiles), tiles);
  CheckConvWithAct("conv2d", k, kActs[1], 650, "several blocks");
  ConvRun one("conv2d", k, k.pads, 651);
  ConvRun two("conv2d", k, k.pads, 651);
  two.t.set_threads(2);
  ASSERT_TRUE(one.t.Run().ok());
  ASSERT_TRUE(two.t.Run().ok());
  EXPECT_EQ(one.t.GetData<float>("out"), two.t.GetData<float>("out"))
      << "1 and 2 threads must give identical bits";
}

TEST(Winograd, BiasWithEveryFusedActivation) {
  int seed = 700;
  for (const ActCase& a : kActs) {
    CheckConvWithAct("conv2d", Cfg(1, 32, 9, 32, 33, {1, 1, 1, 1}), a, seed, "winograd");
    seed += 2;
  }
}

TEST(Winograd, NewFilterValuesAreTransformedAgain) {
  ConvCfg k = Cfg(1, 32, 8, 32, 32, {1, 1, 1, 1});
  ConvRun r("conv2d", k, k.pads, 800);
  ASSERT_TRUE(r.t.Run().ok());
  ExpectNear(r.t.GetData<float>("out"), NaiveConv(k, r.x, r.f, nullptr), "first filter");
  // Overwrite the filter in place (same buffer): the next run must use it.
  auto f2 = RandomFloats(static_cast<int64_t>(r.f.size()), 801);
  float* filter = r.t.scope()->FindVar("f")->GetMutableTensor()->mutable_data<float>();
  std::copy(f2.begin(), f2.end(), filter);
  ASSERT_TRUE(r.t.Run().ok());
  ExpectNear(r.t.GetData<float>("out"), NaiveConv(k, r.x, f2, nullptr), "second filter");
}

}  // namespace
}  // namespace lite
