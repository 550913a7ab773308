// x86 activation ops and scale (oneDNN eltwise) against the host kernels.
#include <string>
#include <vector>

#include "lite/kernels/x86/x86_test_util.h"

namespace lite {
namespace {

TEST(X86Activation, EveryKindMatchesHost) {
  for (const std::string op : {"relu", "tanh", "sigmoid", "relu6", "leaky_relu", "hard_swish",
                               "hard_sigmoid", "swish", "gelu", "exp", "log", "sqrt", "abs"}) {
    const bool positive = op == "log" || op == "sqrt";
    auto setup = [&](OpTester* t) {
      t->SetInput<float>("X", "x", {2, 3, 7, 5},
                         RandomFloats(210, 4, positive ? 0.1f : -8.f, 8.f));
      t->SetOutput("Out", "out");
      if (op == "leaky_relu") t->SetAttr("alpha", 0.1f);
      if (op == "swish") t->SetAttr("beta", 1.5f);
      if (op == "hard_sigmoid") t->SetAttr("slope", 0.25f);
    };
    x86_test::ExpectX86MatchesHost(op, setup, {"out"}, op, 1e-5f);
  }
}

TEST(X86Scale, BothBiasOrdersAndAFusedActivationMatchHost) {
  for (bool after : {true, false}) {
    for (const std::string act : {"", "relu6"}) {
      auto setup = [&](OpTester* t) {
        t->SetInput<float>("X", "x", {2, 3, 7, 5}, RandomFloats(210, 5, -8.f, 8.f));
        t->SetOutput("Out", "out");
        t->SetAttr("scale", 1.7f);
        t->SetAttr("bias", -0.3f);
        t->SetAttr("bias_after_scale", after);
        if (!act.empty()) {
          t->SetAttr("fuse_activation", act);
          t->SetAttr("fuse_alpha", 6.f);
        }
      };
      x86_test::ExpectX86MatchesHost("scale", setup, {"out"},
                                     std::string(after ? "bias after" : "bias before") + " " + act,
                                     1e-5f);
    }
  }
}

TEST(X86Scale, ZeroDimAndOneDimInputsMatchHost) {
  for (const DDim& dims : {DDim{}, DDim{7}}) {
    auto setup = [&](OpTester* t) {
      t->SetInput<float>("X", "x", dims, RandomFloats(Product(dims), 6, -8.f, 8.f));
      t->SetOutput("Out", "out");
      t->SetAttr("scale", -2.5f);
      t->SetAttr("bias", 0.75f);
    };
    x86_test::ExpectX86MatchesHost("scale", setup, {"out"}, "rank " + std::to_string(dims.size()),
                                   1e-6f);
  }
}

}  // namespace
}  // namespace lite
