// x86 elementwise ops (oneDNN binary) against the host kernels: Paddle axis
// broadcasting, every kind, fused activations, and X broadcast (host path);
// the int8 "levels_out" add against the host sum quantized by quant_math.h.
#include <string>
#include <vector>

#include "lite/kernels/x86/x86_test_util.h"
#include "lite/operators/quant_math.h"

namespace lite {
namespace {

using x86_test::ExpectX86MatchesHost;

x86_test::Setup Binary(DDim x, DDim y, int axis, const std::string& act = "") {
  return [=](OpTester* t) {
    t->SetInput<float>("X", "x", x, RandomFloats(Product(x), 1, -2.f, 2.f));
    auto yv = RandomFloats(Product(y), 2, 0.5f, 2.f);  // away from 0 for div
    t->SetInput<float>("Y", "y", y, yv);
    t->SetOutput("Out", "out");
    t->SetAttr("axis", axis);
    if (!act.empty()) {
      t->SetAttr("fuse_activation", act);
      t->SetAttr("fuse_alpha", 6.f);
    }
  };
}

TEST(X86Elementwise, EveryKindWithBroadcastsMatchesHost) {
  struct Shape {
    DDim x, y;
    int axis;
  };
  const std::vector<Shape> shapes{{{2, 3, 5, 7}, {2, 3, 5, 7}, -1},
                                  {{2, 3, 5, 7}, {3}, 1},
                                  {{2, 3, 5, 7}, {3, 1, 1}, 1},
                                  {{1, 16, 9, 9}, {1, 16, 1, 1}, -1},
                                  {{2, 3, 5, 7}, {5, 7}, -1},
                                  {{2, 3, 5, 7}, {1}, -1}};
  for (const std::string op : {"elementwise_add", "elementwise_sub", "elementwise_mul",
                               "elementwise_div", "elementwise_max", "elementwise_min"}) {
    for (const Shape& s : shapes) {
      ExpectX86MatchesHost(op, Binary(s.x, s.y, s.axis), {"out"},
                           op + " " + DimsToString(s.x) + " with " + DimsToString(s.y));
    }
  }
}

TEST(X86Elementwise, FusedActivationsAndABroadcastXMatchHost) {
  for (const std::string act : {"relu", "relu6", "sigmoid", "tanh"}) {
    ExpectX86MatchesHost("elementwise_add", Binary({1, 8, 6, 6}, {1, 8, 6, 6}, -1, act),
                         {"out"}, "add + " + act, 1e-5f);
  }
  // X is broadcast against Y: oneDNN cannot, the host kernel runs.
  ExpectX86MatchesHost("elementwise_mul", Binary({1, 8, 1, 1}, {2, 8, 3, 3}, -1), {"out"},
                       "broadcast X");
}

// int8_requantize_pass's add: Out holds the levels of act(X + Y) at scale
// 1.5, equal to the host sum quantized by the readers' rule; a same-shaped Y
// (the fused loop) and a per-channel Y (oneDNN into a temporary).
TEST(X86Elementwise, AddWritingLevelsEqualsTheQuantizedHostSum) {
  const KernelDef* levels =
      KernelRegistry::Global().FindByKey("elementwise_add/levels_out/x86/int8/NHWC");
  ASSERT_NE(levels, nullptr);
  const DDim x{1, 16, 9, 9};
  for (const DDim& y : {x, DDim{1, 16, 1, 1}}) {
    for (const std::string act : {"", "relu"}) {
      for (int round_type : {0, 1}) {
        const std::string what = DimsToString(y) + " " + act + " round_type " +
                                 std::to_string(round_type);
        const x86_test::Setup setup = Binary(x, y, -1, act);
        OpTester host("elementwise_add"), x86("elementwise_add");
        setup(&host);
        setup(&x86);
        x86.SetAttr("enable_int8", true);
        x86.SetAttr("Output_dtype", std::string("int8"));
        x86.SetAttr("Output_scale", 1.5f);
        x86.SetAttr("Output_round_type", round_type);
        x86_test::InputsToX86Layout(&x86);
        ASSERT_TRUE(host.Run(TargetType::kHost).ok()) << what;
        Status s = x86.RunKernel(levels);
        ASSERT_TRUE(s.ok()) << what << ": " << s.ToString();
        ASSERT_EQ(x86.Get("out").dtype(), DataType::kInt8) << what;
        const auto sum = host.GetData<float>("out");
        std::vector<int8_t> want(sum.size());
        operators::quant::QuantizeToInt8(sum.data(), want.data(), sum.size(), 1.5f, 127,
                                         round_type);
        const auto got_nhwc = x86.GetData<int8_t>("out");
        const auto got = x86_test::Permute(std::vector<float>(got_nhwc.begin(), got_nhwc.end()),
                                           x, false);
        for (size_t i = 0; i < want.size(); ++i) {
          ASSERT_EQ(static_cast<float>(want[i]), got[i]) << what << " at " << i;
        }
      }
    }
  }
}

}  // namespace
}  // namespace lite
