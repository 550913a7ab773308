// arm elementwise ops (XNNPACK add / subtract / multiply / divide_nd)
// against the host kernels: Paddle's axis broadcasting, X broadcast,
// a persistable rank-4 Y read in NCHW order, fused relu / relu6, rank 2;
// and the forms declined at kernel pick.
#include <string>
#include <vector>

#include "lite/kernels/arm/arm_test_util.h"

namespace lite {
namespace {

using arm_test::ExpectArmMatchesHost;

arm_test::Setup Binary(DDim x, DDim y, int axis, const std::string& act = "",
                       bool y_weight = false) {
  return [=](OpTester* t) {
    t->SetInput<float>("X", "x", x, RandomFloats(Product(x), 1, -2.f, 2.f));
    Tensor* yt = t->SetInput<float>("Y", "y", y, RandomFloats(Product(y), 2, 0.5f, 2.f));
    yt->set_persistable(y_weight);
    t->SetOutput("Out", "out");
    t->SetAttr("axis", axis);
    if (!act.empty()) {
      t->SetAttr("fuse_activation", act);
      t->SetAttr("fuse_alpha", 6.f);
    }
  };
}

TEST(ArmElementwise, EveryKindWithBroadcastsMatchesHost) {
  struct Shape {
    DDim x, y;
    int axis;
  };
  const std::vector<Shape> shapes{{{2, 3, 5, 7}, {2, 3, 5, 7}, -1},
                                  {{2, 3, 5, 7}, {3}, 1},
                                  {{2, 3, 5, 7}, {3, 1, 1}, 1},
                                  {{1, 16, 9, 9}, {1, 16, 1, 1}, -1},
                                  {{2, 3, 5, 7}, {5, 7}, -1},
                                  {{2, 3, 5, 7}, {1}, -1},
                                  {{1, 16, 1, 1}, {2, 16, 4, 4}, -1},
                                  {{4, 6}, {6}, -1},
                                  {{4, 6}, {4}, 0}};
  for (const std::string op :
       {"elementwise_add", "elementwise_sub", "elementwise_mul", "elementwise_div"}) {
    for (const Shape& s : shapes) {
      ExpectArmMatchesHost(op, Binary(s.x, s.y, s.axis), {"out"},
                           op + " " + DimsToString(s.x) + " with " + DimsToString(s.y));
    }
  }
}

TEST(ArmElementwise, WeightInNchwOrderAndActivations) {
  ExpectArmMatchesHost("elementwise_add", Binary({2, 3, 5, 7}, {1, 3, 5, 7}, -1, "", true),
                       {"out"}, "persistable [1, 3, 5, 7] Y");
  ExpectArmMatchesHost("elementwise_mul", Binary({2, 3, 5, 7}, {1, 3, 1, 1}, -1, "", true),
                       {"out"}, "persistable [1, 3, 1, 1] Y");
  ExpectArmMatchesHost("elementwise_add", Binary({2, 3, 5, 7}, {2, 3, 5, 7}, -1, "relu"), {"out"},
                       "relu");
  ExpectArmMatchesHost("elementwise_add", Binary({2, 3, 5, 7}, {3}, 1, "relu6"), {"out"},
                       "relu6");
}

TEST(ArmElementwise, EpilogueActivationsAndDeclines) {
  ExpectArmMatchesHost("elementwise_add", Binary({2, 3, 5, 7}, {3}, 1, "sigmoid"), {"out"},
                       "sigmoid");
  ExpectArmMatchesHost("elementwise_mul", Binary({2, 3, 5, 7}, {2, 3, 5, 7}, -1, "tanh"), {"out"},
                       "tanh");
  auto y_act = [](OpTester* t) {
    Binary({2, 3}, {2, 3}, -1)(t);
    t->SetAttr("y_activation", std::string("sigmoid"));
  };
  EXPECT_FALSE(arm_test::ArmAccepts("elementwise_mul", y_act));
  EXPECT_EQ(arm_test::ArmKernelDef("elementwise_pow"), nullptr);
}

}  // namespace
}  // namespace lite
