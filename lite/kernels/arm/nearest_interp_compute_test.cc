// arm nearest_interp(_v2) (own NHWC loop for integer upscales, host on
// NCHW copies otherwise) against the host kernel, with ResidualData and
// ResidualScale (interp_residual_fuse_pass) too.
#include <string>
#include <vector>

#include "lite/kernels/arm/arm_test_util.h"

namespace lite {
namespace {

struct Case {
  std::string op;
  int out_h, out_w;
  float scale;
  bool align_corners;
  bool residual = false, residual_scale = false;
};

arm_test::Setup NearestSetup(const Case& c) {
  return [c](OpTester* t) {
    t->SetInput<float>("X", "x", {2, 3, 5, 7}, RandomFloats(210, 8));
    if (c.residual) {
      t->SetInput<float>("ResidualData", "r", {2, 3, c.out_h, c.out_w},
                         RandomFloats(6 * c.out_h * c.out_w, 9));
    }
    if (c.residual_scale && c.out_h == 10) {  // per channel
      t->SetInput<float>("ResidualScale", "s", {3}, {0.5f, -2.f, 3.f});
    } else if (c.residual_scale) {  // per sample and channel
      t->SetInput<float>("ResidualScale", "s", {2, 3, 1, 1}, {0.5f, -2.f, 3.f, 1.f, 0.f, -1.f});
    }
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
}

TEST(ArmNearest, MatchesHost) {
  const std::vector<Case> cases{{"nearest_interp_v2", 10, 14, 0.f, false},  // x2
                                {"nearest_interp_v2", 15, 21, 0.f, false},  // x3
                                {"nearest_interp_v2", 0, 0, 2.f, false},    // scale 2
                                {"nearest_interp_v2", 0, 0, 4.f, false},    // scale 4
                                {"nearest_interp_v2", 7, 9, 0.f, false},    // fractional
                                {"nearest_interp_v2", 3, 4, 0.f, false},    // down
                                {"nearest_interp_v2", 10, 14, 0.f, true},   // align corners
                                {"nearest_interp", 10, 14, 0.f, false},
                                {"nearest_interp_v2", 10, 14, 0.f, false, true},
                                {"nearest_interp_v2", 15, 21, 0.f, false, true},
                                {"nearest_interp_v2", 7, 9, 0.f, false, true},  // host
                                {"nearest_interp_v2", 10, 14, 0.f, false, true, true},
                                {"nearest_interp_v2", 15, 21, 0.f, false, true, true},
                                {"nearest_interp_v2", 7, 9, 0.f, false, true, true}};
  for (const Case& c : cases) {
    for (int threads : {1, 2}) {
      arm_test::ExpectArmMatchesHost(c.op, NearestSetup(c), {"out"},
                                     c.op + " " + std::to_string(c.out_h) + "x" +
                                         std::to_string(c.out_w) + " scale " +
                                         std::to_string(c.scale) +
                                         (c.align_corners ? " align_corners" : "") +
                                         (c.residual ? " residual" : "") +
                                         (c.residual_scale ? " scaled" : ""),
                                     c.residual ? 1e-6f : 0.f, threads);  // a * b + c may fuse
    }
  }
}

}  // namespace
}  // namespace lite
