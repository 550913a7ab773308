// arm scale against the host kernel: bias after and before the scale, a
// fused relu6, and the ScaleTensor form the kernel declines at pick.
#include <string>
#include <vector>

#include "lite/kernels/arm/arm_test_util.h"

namespace lite {
namespace {

TEST(ArmScale, BothBiasOrdersAndFusedActivationMatchHost) {
  for (bool after : {true, false}) {
    for (const char* act : {"", "relu6"}) {
      auto setup = [=](OpTester* t) {
        t->SetInput<float>("X", "x", {1, 4, 9, 15}, RandomFloats(540, 41, -8.f, 8.f));
        t->SetOutput("Out", "out");
        t->SetAttr("scale", 0.25819889f);
        t->SetAttr("bias", 1.5f);
        t->SetAttr("bias_after_scale", after);
        if (*act) t->SetAttr("fuse_activation", std::string(act));
      };
      arm_test::ExpectArmMatchesHost("scale", setup, {"out"},
                                     std::string("bias_after_scale ") +
                                         (after ? "true " : "false ") + act,
                                     1e-6f);
    }
  }
}

TEST(ArmScale, DeclinesScaleTensor) {
  auto with_tensor = [](OpTester* t) {
    t->SetInput<float>("X", "x", {2, 3}, RandomFloats(6, 42));
    t->SetInput<float>("ScaleTensor", "s", {1}, {2.f});
    t->SetOutput("Out", "out");
  };
  auto plain = [](OpTester* t) {
    t->SetInput<float>("X", "x", {2, 3}, RandomFloats(6, 42));
    t->SetOutput("Out", "out");
  };
  EXPECT_FALSE(arm_test::ArmAccepts("scale", with_tensor));
  EXPECT_TRUE(arm_test::ArmAccepts("scale", plain));
}

}  // namespace
}  // namespace lite
