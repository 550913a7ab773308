// x86 squeeze_excitation (NHWC, vectorized C++) against the host kernel:
// channel counts off the vector width, batches, biases absent, other
// activations, channel counts that make the flat period short (8), ragged
// or too long (257), maps large enough to split across two threads, and
// quantized blocks (m and h quant-dequantized).
#include <string>
#include <vector>

#include "lite/kernels/x86/x86_test_util.h"

namespace lite {
namespace {

using x86_test::ExpectX86MatchesHost;

struct Case {
  DDim x;
  int64_t r;
  bool biases;
  std::string act, gate;
  float squeeze_scale = 0.f, excite_scale = 0.f;  // a quantized block's
  int round_type = 1;
};

void SetUpCase(const Case& c, OpTester* t) {
  const int64_t ch = c.x[1];
  t->SetInput<float>("X", "x", c.x, RandomFloats(Product(c.x), 1, -2.f, 2.f));
  t->SetInput<float>("SqueezeFilter", "w1", {c.r, ch, 1, 1}, RandomFloats(c.r * ch, 2));
  t->SetInput<float>("ExciteFilter", "w2", {ch, c.r, 1, 1}, RandomFloats(c.r * ch, 3));
  if (c.biases) {
    t->SetInput<float>("SqueezeBias", "b1", {c.r}, RandomFloats(c.r, 4));
    t->SetInput<float>("ExciteBias", "b2", {ch}, RandomFloats(ch, 5));
  }
  t->SetOutput("Out", "out");
  if (!c.act.empty()) t->SetAttr("fuse_activation", c.act);
  if (!c.gate.empty()) t->SetAttr("y_activation", c.gate);
  if (c.squeeze_scale > 0.f) {
    t->SetAttr("Squeeze_input_scale", c.squeeze_scale);
    t->SetAttr("Squeeze_round_type", c.round_type);
    t->SetAttr("Excite_input_scale", c.excite_scale);
    t->SetAttr("Excite_round_type", c.round_type);
  }
}

TEST(X86SqueezeExcitation, MatchesHost) {
  const Case cases[] = {
      {{1, 200, 2, 96}, 50, true, "relu", "hard_sigmoid"},  // PP-OCR cls's last block
      {{2, 20, 3, 7}, 5, false, "relu", "sigmoid"},
      {{1, 3, 1, 1}, 1, true, "", ""},
      {{1, 8, 3, 7}, 2, true, "relu", "hard_sigmoid"},  // 2 periods of 64 and a 40 tail
      {{1, 257, 3, 5}, 7, true, "relu", "sigmoid"},  // period too long: one pixel
      {{1, 40, 32, 32}, 10, true, "hard_swish", "hard_sigmoid"},  // rows split by threads
      // quantized blocks: m and h quant-dequantized (both rounding rules)
      {{1, 88, 3, 96}, 22, true, "relu", "hard_sigmoid", 0.6f, 1.7f, 1},
      {{2, 20, 3, 7}, 5, true, "relu", "sigmoid", 0.4f, 1.1f, 0},
  };
  for (const Case& c : cases) {
    for (int threads : {1, 2}) {
      const std::string what = DimsToString(c.x) + " " + c.act + "/" + c.gate + ", " +
                               std::to_string(threads) + " threads";
      ExpectX86MatchesHost(
          "squeeze_excitation", [&c](OpTester* t) { SetUpCase(c, t); }, {"out"}, what, 1e-5f,
          threads, 2);
    }
  }
}

}  // namespace
}  // namespace lite
