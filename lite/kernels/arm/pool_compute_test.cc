// arm pool2d (XNNPACK) against the host kernel: max / avg, exclusive,
// ceil mode, symmetric and asymmetric padding, global max / avg, adaptive to
// 1 x 1, batch 2; and the forms it declines at kernel pick.
#include <string>
#include <vector>

#include "lite/kernels/arm/arm_test_util.h"

namespace lite {
namespace {

struct Pool {
  std::string type = "max";
  std::vector<int> ksize{3, 3}, strides{2, 2}, pads{1, 1};
  bool ceil = false, exclusive = true, global = false, adaptive = false;
  DDim x{2, 5, 11, 9};

  arm_test::Setup Setup() const {
    Pool c = *this;
    return [c](OpTester* t) {
      t->SetInput<float>("X", "x", c.x, RandomFloats(Product(c.x), 9));
      t->SetOutput("Out", "out");
      t->SetAttr("pooling_type", c.type);
      t->SetAttr("ksize", c.ksize);
      t->SetAttr("strides", c.strides);
      t->SetAttr("paddings", c.pads);
      t->SetAttr("ceil_mode", c.ceil);
      t->SetAttr("exclusive", c.exclusive);
      t->SetAttr("global_pooling", c.global);
      t->SetAttr("adaptive", c.adaptive);
    };
  }
};

TEST(ArmPool, MatchesHost) {
  std::vector<Pool> cases;
  for (const std::string type : {"max", "avg"}) {
    for (bool ceil : {false, true}) {
      for (auto pads : {std::vector<int>{0, 0}, std::vector<int>{1, 1},
                        std::vector<int>{0, 1, 1, 0}}) {
        Pool p;
        p.type = type;
        p.ceil = ceil;
        p.pads = pads;
        cases.push_back(p);
        p.ksize = {2, 2};
        p.x = {1, 3, 10, 7};
        cases.push_back(p);
      }
    }
  }
  Pool g;
  g.global = true;
  g.type = "avg";
  cases.push_back(g);
  g.type = "max";
  cases.push_back(g);
  Pool a;
  a.type = "avg";
  a.adaptive = true;
  a.ksize = {1, 1};
  a.x = {2, 24, 7, 5};
  cases.push_back(a);
  Pool n;  // not exclusive, no padding: the same divisor
  n.type = "avg";
  n.exclusive = false;
  n.pads = {0, 0};
  cases.push_back(n);
  for (const Pool& c : cases) {
    const std::string what = c.type + " k" + std::to_string(c.ksize[0]) + " pads " +
                             std::to_string(c.pads.size()) + ":" + std::to_string(c.pads[0]) +
                             (c.ceil ? " ceil" : "") + (c.global ? " global" : "") +
                             (c.adaptive ? " adaptive" : "");
    arm_test::ExpectArmMatchesHost("pool2d", c.Setup(), {"out"}, what, 1e-5f);
  }
}

TEST(ArmPool, DeclinesOtherForms) {
  Pool c;
  c.type = "avg";
  c.exclusive = false;  // padding counted in the divisor
  EXPECT_FALSE(arm_test::ArmAccepts("pool2d", c.Setup()));
  c = Pool();
  c.adaptive = true;
  c.ksize = {2, 2};
  EXPECT_FALSE(arm_test::ArmAccepts("pool2d", c.Setup()));
  c = Pool();
  c.ksize = {1, 1};
  EXPECT_FALSE(arm_test::ArmAccepts("pool2d", c.Setup()));
}

}  // namespace
}  // namespace lite
