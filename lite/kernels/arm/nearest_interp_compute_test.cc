// arm nearest_interp(_v2) (own NHWC loop for integer upscales, host on
// NCHW copies otherwise) against the host kernel; ResidualData is declined.
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
};

arm_test::Setup NearestSetup(const Case& c) {
  return [c](OpTester* t) {
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
}

TEST(ArmNearest, MatchesHost) {
  const std::vector<Case> cases{{"nearest_interp_v2", 10, 14, 0.f, false},  // x2
                                {"nearest_interp_v2", 15, 21, 0.f, false},  // x3
                                {"nearest_interp_v2", 0, 0, 2.f, false},    // scale 2
                                {"nearest_interp_v2", 0, 0, 4.f, false},    // scale 4
                                {"nearest_interp_v2", 7, 9, 0.f, false},    // fractional
                                {"nearest_interp_v2", 3, 4, 0.f, false},    // down
                                {"nearest_interp_v2", 10, 14, 0.f, true},   // align corners
                                {"nearest_interp", 10, 14, 0.f, false}};
  for (const Case& c : cases) {
    for (int threads : {1, 2}) {
      arm_test::ExpectArmMatchesHost(c.op, NearestSetup(c), {"out"},
                                     c.op + " " + std::to_string(c.out_h) + "x" +
                                         std::to_string(c.out_w) + " scale " +
                                         std::to_string(c.scale) +
                                         (c.align_corners ? " align_corners" : ""),
                                     0.f, threads);
    }
  }
}

TEST(ArmNearest, DeclinesResidual) {
  auto residual = [](OpTester* t) {
    NearestSetup({"nearest_interp_v2", 10, 14, 0.f, false})(t);
    t->SetInput<float>("ResidualData", "r", {2, 3, 10, 14}, RandomFloats(840, 9));
  };
  EXPECT_FALSE(arm_test::ArmAccepts("nearest_interp_v2", residual));
}

}  // namespace
}  // namespace lite
