// arm activations (XNNPACK unary operators) against the host kernels on
// random inputs of rank 4 and 2, and 2 threads; hard_swish with other
// attributes, tanh, swish and hard_sigmoid (own loops) too.
#include <string>
#include <vector>

#include "lite/kernels/arm/arm_test_util.h"

namespace lite {
namespace {

arm_test::Setup Unary(DDim x, float lo = -4.f, float hi = 4.f) {
  return [=](OpTester* t) {
    t->SetInput<float>("X", "x", x, RandomFloats(Product(x), 4, lo, hi));
    t->SetOutput("Out", "out");
  };
}

TEST(ArmActivation, EveryKindMatchesHost) {
  for (const std::string op :
       {"relu", "relu6", "sigmoid", "leaky_relu", "hard_swish", "abs", "sqrt", "tanh", "swish",
        "hard_sigmoid"}) {
    const float lo = op == "sqrt" ? 0.f : -8.f;
    for (const DDim& d : {DDim{2, 3, 5, 7}, DDim{4, 33}, DDim{1000}}) {
      arm_test::ExpectArmMatchesHost(op, Unary(d, lo, 8.f), {"out"}, op + " " + DimsToString(d),
                                     1e-5f);
    }
    arm_test::ExpectArmMatchesHost(op, Unary({3, 64, 40, 40}, lo, 8.f), {"out"},
                                   op + " 2 threads", 1e-5f, 2, 2);
  }
}

TEST(ArmActivation, AttributesMatchHost) {
  auto with = [](const std::string& attr, float v) {
    return [=](OpTester* t) {
      Unary({2, 3, 5, 7}, -8.f, 8.f)(t);
      t->SetAttr(attr, v);
    };
  };
  arm_test::ExpectArmMatchesHost("relu6", with("threshold", 3.f), {"out"}, "relu6 at 3", 1e-5f);
  arm_test::ExpectArmMatchesHost("leaky_relu", with("alpha", 0.3f), {"out"}, "leaky 0.3", 1e-5f);
  arm_test::ExpectArmMatchesHost("hard_swish", with("offset", 2.f), {"out"}, "hard_swish offset 2",
                                 1e-5f);
  arm_test::ExpectArmMatchesHost("hard_sigmoid", with("slope", 0.1f), {"out"}, "slope 0.1", 1e-5f);
  arm_test::ExpectArmMatchesHost("swish", with("beta", 2.f), {"out"}, "swish beta 2", 1e-5f);
  EXPECT_EQ(arm_test::ArmKernelDef("gelu"), nullptr);  // stays on host
}

}  // namespace
}  // namespace lite
