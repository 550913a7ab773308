// x86 nearest_interp(_v2) (oneDNN resampling for integer upscales, host on
// NCHW copies otherwise) against the host kernel.
#include <string>
#include <vector>

#include "lite/kernels/x86/x86_test_util.h"

namespace lite {
namespace {

TEST(X86Nearest, MatchesHost) {
  struct Case {
    std::string op;
    int out_h, out_w;
    float scale;
    bool align_corners;
  };
  const std::vector<Case> cases{{"nearest_interp_v2", 10, 14, 0.f, false},  // x2
                                {"nearest_interp_v2", 15, 21, 0.f, false},  // x3
                                {"nearest_interp_v2", 0, 0, 2.f, false},    // scale 2
                                {"nearest_interp_v2", 7, 9, 0.f, false},    // fractional
                                {"nearest_interp_v2", 3, 4, 0.f, false},    // down
                                {"nearest_interp_v2", 10, 14, 0.f, true},   // align corners
                                {"nearest_interp", 10, 14, 0.f, false}};
  for (const Case& c : cases) {
    auto setup = [&](OpTester* t) {
      t->SetInput<float>("X", "x", {2, 3, 5, 7}, RandomFloats(210, 8));
      t->SetOutput("Out", "out");
      t->SetAttr("interp_method", std::string("nearest"));
      t->SetAttr("align_corners", c.align_corners);
      t->SetAttr("align_mode", 1);
      t->SetAttr("out_h", c.out_h);
      t->SetAttr("out_w", c.out_w);
      if (c.scale > 0) {
        if (c.op == "nearest_interp_v2") {
          t->SetAttr("scale", std::vector<float>{c.scale, c.scale});
        } else {
          t->SetAttr("scale", c.scale);
        }
      }
    };
    x86_test::ExpectX86MatchesHost(c.op, setup, {"out"},
                                   c.op + " to " + std::to_string(c.out_h) + "x" +
                                       std::to_string(c.out_w) + " scale " +
                                       std::to_string(c.scale) +
                                       (c.align_corners ? " align_corners" : ""),
                                   0.f);
  }
}

}  // namespace
}  // namespace lite
