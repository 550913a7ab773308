// arm squeeze_excitation (XNNPACK mean, two fully-connected, multiply)
// against the host kernel: PP-OCR cls's last block, batches, no biases,
// other activations, 2 threads, the quantized form (se_block_fuse_pass on
// int8 convs: m and h quant-dequantized); Out as int8 levels (levels_out):
// bit for bit the float kernel's Out quantized by the reader's rule.
#include <string>
#include <vector>

#include "lite/kernels/arm/arm_test_util.h"
#include "lite/kernels/arm/int8_loops.h"

namespace lite {
namespace {

struct Case {
  DDim x;
  int64_t r;
  bool biases;
  std::string act, gate;
  float squeeze_scale = 0.f;
  float excite_scale = 0.f;
  int round_type = 1;
};

arm_test::Setup SetUpCase(const Case& c) {
  return [c](OpTester* t) {
    const int64_t ch = c.x[1];
    t->SetInput<float>("X", "x", c.x, RandomFloats(Product(c.x), 1, -2.f, 2.f));
    t->SetInput<float>("SqueezeFilter", "w1", {c.r, ch, 1, 1}, RandomFloats(c.r * ch, 2));
    t->SetInput<float>("ExciteFilter", "w2", {ch, c.r, 1, 1}, RandomFloats(c.r * ch, 3));
    if (c.biases) {
      t->SetInput<float>("SqueezeBias", "b1", {c.r}, RandomFloats(c.r, 4));
      t->SetInput<float>("ExciteBias", "b2", {ch}, RandomFloats(ch, 5));
    }
    t->SetOutput("Out", "out");
    if (!c.act.empty()) t->SetAttr("fuse_activation", c.act);
    if (c.act == "hard_swish") {  // Paddle's defaults
      t->SetAttr("fuse_alpha", 6.f);
      t->SetAttr("fuse_beta", 6.f);
      t->SetAttr("fuse_gamma", 3.f);
    }
    if (!c.gate.empty()) t->SetAttr("y_activation", c.gate);
    if (c.squeeze_scale > 0.f) t->SetAttr("Squeeze_input_scale", c.squeeze_scale);
    if (c.excite_scale > 0.f) t->SetAttr("Excite_input_scale", c.excite_scale);
    t->SetAttr("Squeeze_round_type", c.round_type);
    t->SetAttr("Excite_round_type", c.round_type);
  };
}

TEST(ArmSqueezeExcitation, MatchesHost) {
  const Case cases[] = {
      {{1, 200, 2, 96}, 50, true, "relu", "hard_sigmoid"},  // PP-OCR cls's last block
      {{2, 20, 3, 7}, 5, false, "relu", "sigmoid"},
      {{1, 3, 1, 1}, 1, true, "", ""},
      {{1, 40, 32, 32}, 10, true, "hard_swish", "hard_sigmoid"},
  };
  for (const Case& c : cases) {
    for (int threads : {1, 2}) {
      arm_test::ExpectArmMatchesHost("squeeze_excitation", SetUpCase(c), {"out"},
                                     DimsToString(c.x) + " " + c.act + "/" + c.gate + ", " +
                                         std::to_string(threads) + " threads",
                                     1e-5f, threads);
    }
  }
}

TEST(ArmSqueezeExcitation, MatchesHostOnTheQuantizedForm) {
  const Case cases[] = {
      {{2, 20, 3, 7}, 5, true, "relu", "sigmoid", 0.4f, 1.3f, 1},
      {{1, 40, 8, 8}, 10, true, "hard_swish", "hard_sigmoid", 0.7f, 0.9f, 0},
      {{1, 24, 4, 4}, 6, false, "relu", "hard_sigmoid", 0.5f, 0.f, 1},  // only the squeeze
  };
  for (const Case& c : cases) {
    arm_test::ExpectArmMatchesHost("squeeze_excitation", SetUpCase(c), {"out"},
                                   DimsToString(c.x) + " quantized", 1e-5f);
  }
}

const KernelDef* ArmLevelsKernelDef() {
  for (const KernelDef* d : KernelRegistry::Global().Find("squeeze_excitation")) {
    if (d->place.target == TargetType::kARM && d->place.precision == PrecisionType::kInt8) {
      return d;
    }
  }
  return nullptr;
}

// The levels output (int8_requantize_pass's attributes) against the float
// kernel's Out quantized by QuantizeLevels (the int8 reader's rule, itself
// checked against quant_math.h in int8_loops_test): equal levels, pixels
// and channels leaving every remainder of the 16-wide loop, both roundings,
// batches, 2 runs (the second reusing the set-up).
TEST(ArmSqueezeExcitation, LevelsOutputIsTheFloatOutputQuantized) {
  const KernelDef* levels_def = ArmLevelsKernelDef();
  const KernelDef* float_def = arm_test::ArmKernelDef("squeeze_excitation");
  ASSERT_NE(levels_def, nullptr);
  ASSERT_NE(float_def, nullptr);
  const Case cases[] = {
      {{2, 20, 3, 7}, 5, true, "relu", "sigmoid", 0.4f, 1.3f, 1},
      {{1, 40, 8, 8}, 10, true, "hard_swish", "hard_sigmoid", 0.7f, 0.9f, 0},
      {{1, 200, 2, 96}, 50, true, "relu", "hard_sigmoid", 0.f, 0.f, 1},  // cls's last block
      {{1, 3, 1, 1}, 1, false, "", "", 0.f, 0.f, 0},
  };
  for (const Case& c : cases) {
    for (int out_round : {0, 1}) {
      const std::string what = DimsToString(c.x) + " round " + std::to_string(out_round);
      const float out_scale = 0.3f;
      auto setup = SetUpCase(c);
      auto levels_setup = [&](OpTester* t) {
        setup(t);
        t->SetAttr("enable_int8", true);
        t->SetAttr("Output_dtype", std::string("int8"));
        t->SetAttr("Output_scale", out_scale);
        t->SetAttr("Output_round_type", out_round);
      };
      EXPECT_FALSE(arm_test::ArmAccepts("squeeze_excitation", levels_setup)) << what;
      OpTester f("squeeze_excitation"), q("squeeze_excitation");
      setup(&f);
      levels_setup(&q);
      auto none = [](const std::string&) { return std::vector<int64_t>(); };
      ASSERT_TRUE(levels_def->Accepts(*q.desc(), none)) << what;
      arm_test::InputsToNhwc(&f);
      arm_test::InputsToNhwc(&q);
      for (int run = 0; run < 2; ++run) {
        Status s = f.RunKernel(float_def);
        ASSERT_TRUE(s.ok()) << what << ": " << s.ToString();
        s = q.RunKernel(levels_def);
        ASSERT_TRUE(s.ok()) << what << ": " << s.ToString();
      }
      const std::vector<float> y = f.GetData<float>("out");
      const std::vector<int8_t> got = q.GetData<int8_t>("out");
      ASSERT_EQ(got.size(), y.size()) << what;
      std::vector<int8_t> want(y.size());
      kernels::arm::QuantizeLevels(y.data(), want.data(), y.size(), out_scale, out_round);
      int nonzero = 0;
      for (size_t i = 0; i < y.size(); ++i) {
        ASSERT_EQ(got[i], want[i]) << what << " at " << i << " (float " << y[i] << ")";
        nonzero += want[i] != 0;
      }
      EXPECT_GT(nonzero, static_cast<int>(y.size() / 4)) << what << ": too few levels to check";
    }
  }
}

}  // namespace
}  // namespace lite
