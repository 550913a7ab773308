// x86 elementwise ops (oneDNN binary) against the host kernels: Paddle axis
// broadcasting, every kind, fused activations, and X broadcast (swapped
// sources, or the host path);
// the int8 "levels_out" add against the host sum quantized by quant_math.h.
#include <string>
#include <vector>

#include "lite/kernels/x86/x86_test_util.h"

namespace lite {
namespace {

using x86_test::ExpectX86MatchesHost;

x86_test::Setup Binary(DDim x, DDim y, int axis, const std::string& act = "") {
  return [=](OpTester* t) {
    t->SetInput<float>("X", "x", x, RandomFloats(Product(x), 1, -2.f, 2.f));
    auto yv = RandomFloats(Product(y), 2, 0.5f, 2.f);  // away from 0 for div
    t->SetInput<float>("Y", "y", y, yv);
    t->SetOutput("Out", "out");
    t->SetAttr("axis", axis);
    if (!act.empty()) {
      t->SetAttr("fuse_activation", act);
      t->SetAttr("fuse_alpha", 6.f);
    }
  };
}

TEST(X86Elementwise, EveryKindWithBroadcastsMatchesHost) {
  struct Shape {
    DDim x, y;
    int axis;
  };
  const std::vector<Shape> shapes{{{2, 3, 5, 7}, {2, 3, 5, 7}, -1},
                                  {{2, 3, 5, 7}, {3}, 1},
                                  {{2, 3, 5, 7}, {3, 1, 1}, 1},
                                  {{1, 16, 9, 9}, {1, 16, 1, 1}, -1},
                                  {{2, 3, 5, 7}, {5, 7}, -1},
                                  {{2, 3, 5, 7}, {1}, -1}};
  for (const std::string op : {"elementwise_add", "elementwise_sub", "elementwise_mul",
                               "elementwise_div", "elementwise_max", "elementwise_min"}) {
    for (const Shape& s : shapes) {
      ExpectX86MatchesHost(op, Binary(s.x, s.y, s.axis), {"out"},
                           op + " " + DimsToString(s.x) + " with " + DimsToString(s.y));
    }
  }
}

TEST(X86Elementwise, FusedActivationsAndABroadcastXMatchHost) {
  for (const std::string act : {"relu", "relu6", "sigmoid", "tanh"}) {
    ExpectX86MatchesHost("elementwise_add", Binary({1, 8, 6, 6}, {1, 8, 6, 6}, -1, act),
                         {"out"}, "add + " + act, 1e-5f);
  }
  // X is broadcast against Y: oneDNN runs add / mul / max / min / sub with
  // the sources swapped (sub negated, before the activation), the host
  // kernel div and X broadcast against a broadcast Y.
  for (const std::string op : {"elementwise_add", "elementwise_sub", "elementwise_mul",
                               "elementwise_div", "elementwise_max", "elementwise_min"}) {
    ExpectX86MatchesHost(op, Binary({1, 8, 1, 1}, {2, 8, 3, 3}, -1), {"out"},
                         op + " with a broadcast X");
    ExpectX86MatchesHost(op, Binary({1}, {2, 8, 3, 3}, -1), {"out"}, op + " with an X of [1]");
    ExpectX86MatchesHost(op, Binary({1}, {2, 8, 3, 3}, -1, "relu6"), {"out"},
                         op + " with an X of [1] + relu6", 1e-5f);
  }
  ExpectX86MatchesHost("elementwise_mul", Binary({1, 8, 1, 3}, {2, 8, 3, 1}, -1), {"out"},
                       "both broadcast");
}

// int8_requantize_pass's add: Out holds the levels of act(X + Y) at scale
// 1.5, equal to the host sum quantized by the readers' rule; a same-shaped Y
// (the fused loop) and a per-channel Y (oneDNN into a temporary).
TEST(X86Elementwise, AddWritingLevelsEqualsTheQuantizedHostSum) {
  const DDim x{1, 16, 9, 9};
  for (const DDim& y : {x, DDim{1, 16, 1, 1}}) {
    for (const std::string act : {"", "relu"}) {
      for (int round_type : {0, 1}) {
        x86_test::ExpectX86LevelsMatchQuantizedHost(
            "elementwise_add", Binary(x, y, -1, act), "elementwise_add/levels_out/x86/int8/NHWC",
            1.5f, round_type,
            DimsToString(y) + " " + act + " round_type " + std::to_string(round_type));
      }
    }
  }
}

}  // namespace
}  // namespace lite
