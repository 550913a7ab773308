// x86 slice, pad2d and pad on NHWC activations against the host kernels on
// random data: odd extents, channel-axis windows, decrease_axis changing the
// rank (a rank-4 result of a rank-5 slice is written in NHWC order, a rank-3
// result of a rank-4 one row-major), run-time StartsTensor and Paddings.
#include <string>
#include <vector>

#include "lite/kernels/x86/x86_test_util.h"

namespace lite {
namespace {

using x86_test::ExpectX86MatchesHost;

struct SliceCase {
  DDim in;
  std::vector<int64_t> axes, starts, ends, decrease;
};

TEST(X86Slice, WindowsMatchHost) {
  const std::vector<SliceCase> cases = {
      {{2, 7, 5, 6}, {1}, {1}, {5}, {}},                  // channels of NHWC
      {{1, 9, 3, 5}, {1}, {-4}, {100}, {}},               // the last channels, clamped
      {{2, 3, 7, 9}, {2, 3}, {1, -5}, {-1, 8}, {}},       // rows and columns
      {{3, 5, 4, 3}, {0, 1, 3}, {1, 2, 1}, {3, 3, 2}, {1, 3}},  // -> rank 2
      {{2, 6, 5, 3}, {1}, {4}, {5}, {1}},                 // one channel -> [2, 5, 3]
      {{2, 3, 4, 5, 6}, {0, 4}, {1, 2}, {2, 5}, {0}},     // rank 5 -> rank 4 (NHWC)
      {{3, 11, 7}, {2, 1}, {2, 3}, {6, 10}, {}},          // rank 3, row-major
      {{1, 4, 3, 3}, {1}, {2}, {2}, {}},                  // empty window
  };
  for (const SliceCase& c : cases) {
    auto setup = [&c](OpTester* t) {
      t->SetInput<float>("Input", "x", c.in, RandomFloats(Product(c.in), 11, -3.f, 3.f));
      t->SetOutput("Out", "out");
      t->SetAttr("axes", c.axes);
      t->SetAttr("starts", c.starts);
      t->SetAttr("ends", c.ends);
      if (!c.decrease.empty()) t->SetAttr("decrease_axis", c.decrease);
    };
    const std::string what = "slice " + DimsToString(c.in) + " axes " + DimsToString(c.axes);
    if (Product(c.in) > 0 && c.starts[0] == c.ends[0]) {
      // An empty result has nothing to compare: check that both run.
      OpTester x86("slice");
      setup(&x86);
      ASSERT_TRUE(x86.Run(TargetType::kX86).ok()) << what;
      EXPECT_EQ(x86.Get("out").numel(), 0) << what;
      continue;
    }
    ExpectX86MatchesHost("slice", setup, {"out"}, what, 0.f);
  }
}

// Starts from a run-time tensor: the window moves with its value.
TEST(X86Slice, StartsTensorMatchesHost) {
  for (int32_t start : {0, 3, -2}) {
    auto setup = [start](OpTester* t) {
      t->SetInput<float>("Input", "x", {1, 8, 3, 5}, RandomFloats(120, 12, -3.f, 3.f));
      t->SetInput<int32_t>("StartsTensor", "starts", {1}, {start});
      t->SetOutput("Out", "out");
      t->SetAttr("axes", std::vector<int64_t>{1});
      t->SetAttr("starts", std::vector<int64_t>{0});
      t->SetAttr("ends", std::vector<int64_t>{7});
    };
    ExpectX86MatchesHost("slice", setup, {"out"}, "StartsTensor " + std::to_string(start), 0.f);
  }
}

TEST(X86Pad2d, EveryModeMatchesHost) {
  const std::vector<std::vector<int>> paddings = {{1, 2, 0, 3}, {0, 0, 2, 2}, {2, 1, 1, 0}};
  for (const char* mode : {"constant", "reflect", "edge"}) {
    for (const auto& pads : paddings) {
      auto setup = [mode, pads](OpTester* t) {
        t->SetInput<float>("X", "x", {2, 5, 4, 7}, RandomFloats(280, 13, -3.f, 3.f));
        t->SetOutput("Out", "out");
        t->SetAttr("paddings", pads);
        t->SetAttr("mode", std::string(mode));
        t->SetAttr("pad_value", -1.5f);
      };
      ExpectX86MatchesHost("pad2d", setup, {"out"},
                           std::string("pad2d ") + mode + " " + std::to_string(pads[0]), 0.f);
    }
  }
}

TEST(X86Pad2d, PaddingsTensorMatchesHost) {
  auto setup = [](OpTester* t) {
    t->SetInput<float>("X", "x", {1, 3, 5, 6}, RandomFloats(90, 14, -3.f, 3.f));
    t->SetInput<int32_t>("Paddings", "p", {4}, {2, 0, 1, 3});
    t->SetOutput("Out", "out");
    t->SetAttr("paddings", std::vector<int>{0, 0, 0, 0});
    t->SetAttr("mode", std::string("edge"));
  };
  ExpectX86MatchesHost("pad2d", setup, {"out"}, "pad2d Paddings tensor", 0.f);
}

// The N-D pad: channel padding of an NHWC map (a face detector's shortcut
// widening; after the channels, and on both sides), every dim at once, and a
// rank-3 tensor.
TEST(X86Pad, ChannelsAndEveryDimMatchHost) {
  const std::vector<std::pair<DDim, std::vector<int>>> cases = {
      {{2, 5, 3, 4}, {0, 0, 0, 3, 0, 0, 0, 0}},
      {{1, 24, 7, 7}, {0, 0, 0, 24, 0, 0, 0, 0}},
      {{2, 7, 3, 5}, {0, 0, 2, 3, 0, 0, 0, 0}},
      {{2, 3, 5, 2}, {1, 0, 2, 1, 0, 2, 3, 1}},
      {{3, 4, 5}, {0, 1, 2, 0, 1, 1}},
  };
  for (const auto& c : cases) {
    auto setup = [&c](OpTester* t) {
      t->SetInput<float>("X", "x", c.first, RandomFloats(Product(c.first), 15, -3.f, 3.f));
      t->SetOutput("Out", "out");
      t->SetAttr("paddings", c.second);
      t->SetAttr("pad_value", 0.25f);
    };
    ExpectX86MatchesHost("pad", setup, {"out"}, "pad " + DimsToString(c.first), 0.f);
  }
}

}  // namespace
}  // namespace lite
