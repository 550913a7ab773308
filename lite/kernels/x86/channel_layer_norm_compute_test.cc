// x86 channel_layer_norm (NHWC rows of C values) against the host kernel
// (NCHW planes): NAFNet-like widths (32 channels: two full vectors; 20: one
// and a tail), with and without Scale / Bias, a batch of two.
#include <string>
#include <vector>

#include "lite/kernels/x86/x86_test_util.h"

namespace lite {
namespace {

using x86_test::ExpectX86MatchesHost;

TEST(X86ChannelLayerNorm, MatchesHost) {
  uint32_t seed = 21;
  for (const DDim& d : {DDim{1, 32, 6, 7}, DDim{2, 20, 3, 5}}) {
    for (bool affine : {true, false}) {
      const int64_t c = d[1];
      const uint32_t s = seed += 3;
      auto setup = [&d, c, affine, s](OpTester* t) {
        t->SetInput<float>("X", "x", d, RandomFloats(d[0] * c * d[2] * d[3], s, -3.f, 4.f));
        if (affine) {
          t->SetInput<float>("Scale", "scale", {c}, RandomFloats(c, s + 1, -2.f, 2.f));
          t->SetInput<float>("Bias", "bias", {c}, RandomFloats(c, s + 2));
        }
        t->SetOutput("Y", "y");
        t->SetAttr("epsilon", 1e-6f);
      };
      ExpectX86MatchesHost("channel_layer_norm", setup, {"y"},
                           DimsToString(d) + (affine ? " affine" : ""), 2e-5f);
    }
  }
}

}  // namespace
}  // namespace lite
