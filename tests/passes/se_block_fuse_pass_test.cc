// se_block_fuse_pass: whole squeeze-excitation blocks become one
// squeeze_excitation op whose output matches the four ops' (host kernels),
// for each way of pooling whole planes and each place the gate activation
// can sit; blocks that are not exactly that stay as they were.
#include <gtest/gtest.h>

#include "tests/passes/fusion_test_util.h"

namespace lite {
namespace mir {
namespace fusion {
namespace testing {
namespace {

const char* kPass = "se_block_fuse_pass";

struct Block {
  DDim x{1, 8, 5, 6};
  int64_t r = 3;
  std::string pool = "adaptive";  // "adaptive", "global", "window", "max"
  bool biases = true;
  bool gate_on_mul = false;       // hard_sigmoid as the mul's y_activation
  bool gate_on_both = false;
};

// x -> pool -> conv(relu) -> conv(hard_sigmoid) -> mul(x, gate) -> y
TestModel Se(const Block& b) {
  TestModel m;
  const int64_t c = b.x[1];
  m.Input("x", b.x);
  auto& pool = m.Op("pool2d", {{"X", {"x"}}}, {{"Out", {"p"}}});
  pool.SetAttr("pooling_type", std::string(b.pool == "max" ? "max" : "avg"));
  pool.SetAttr("ksize", std::vector<int>{1, 1});
  pool.SetAttr("paddings", std::vector<int>{0, 0});
  if (b.pool == "adaptive") pool.SetAttr("adaptive", true);
  if (b.pool == "global" || b.pool == "max") pool.SetAttr("global_pooling", true);
  if (b.pool == "window") {
    pool.SetAttr("ksize", std::vector<int>{static_cast<int>(b.x[2]), static_cast<int>(b.x[3])});
  }
  m.RandomWeight("w1", {b.r, c, 1, 1});
  m.RandomWeight("w2", {c, b.r, 1, 1});
  std::map<std::string, std::vector<std::string>> in1 = {{"Input", {"p"}}, {"Filter", {"w1"}}};
  std::map<std::string, std::vector<std::string>> in2 = {{"Input", {"h"}}, {"Filter", {"w2"}}};
  if (b.biases) {
    m.RandomWeight("b1", {b.r});
    m.RandomWeight("b2", {c});
    in1["Bias"] = {"b1"};
    in2["Bias"] = {"b2"};
  }
  m.Op("conv2d", in1, {{"Output", {"h"}}}).SetAttr("fuse_activation", std::string("relu"));
  auto& excite = m.Op("conv2d", in2, {{"Output", {"g"}}});
  if (!b.gate_on_mul || b.gate_on_both) {
    excite.SetAttr("fuse_activation", std::string("hard_sigmoid"));
    excite.SetAttr("fuse_alpha", 0.2f);
    excite.SetAttr("fuse_beta", 0.5f);
  }
  auto& mul = m.Op("elementwise_mul", {{"X", {"x"}}, {"Y", {"g"}}}, {{"Out", {"y"}}});
  if (b.gate_on_mul) mul.SetAttr("y_activation", std::string("hard_sigmoid"));
  m.Output("y");
  return m;
}

const std::vector<std::string> kFused = {"feed", "squeeze_excitation", "fetch"};

TEST(SeBlockFuse, EveryPlanePoolingFusesAndMatches) {
  for (const char* pool : {"adaptive", "global", "window"}) {
    Block b;
    b.pool = pool;
    FusionRun r = ExpectFusedMatches(Se(b), kPass, 1e-5);
    EXPECT_EQ(r.op_types, kFused) << pool;
    EXPECT_EQ(r.counters["matched"], 1) << pool;
  }
}

TEST(SeBlockFuse, GateOnTheMulBatchesAndNoBiasesMatch) {
  Block b;
  b.gate_on_mul = true;
  b.biases = false;
  b.x = {2, 20, 3, 7};
  b.r = 5;
  FusionRun r = ExpectFusedMatches(Se(b), kPass, 1e-5);
  EXPECT_EQ(r.op_types, kFused);
  const cpp::OpDesc& se = r.program.blocks[0].ops[1];
  EXPECT_EQ(se.GetAttr<std::string>("fuse_activation"), "relu");
  EXPECT_EQ(se.GetAttr<std::string>("y_activation"), "hard_sigmoid");
  EXPECT_FALSE(se.HasInput("SqueezeBias"));
}

TEST(SeBlockFuse, ExciteActivationBecomesTheGate) {
  FusionRun r = ExpectFusedMatches(Se(Block()), kPass, 1e-5);
  ASSERT_EQ(r.op_types, kFused);
  const cpp::OpDesc& se = r.program.blocks[0].ops[1];
  EXPECT_EQ(se.GetAttr<std::string>("y_activation"), "hard_sigmoid");
  EXPECT_EQ(se.GetAttr<float>("y_alpha"), 0.2f);
  EXPECT_EQ(se.GetAttr<float>("y_beta"), 0.5f);
  EXPECT_EQ(se.Input("SqueezeBias"), std::vector<std::string>{"b1"});
}

// Not a plain block: each stays as four ops (and still computes the same).
TEST(SeBlockFuse, OtherBlocksAreKept) {
  Block max_pool;
  max_pool.pool = "max";
  Block two_gates;
  two_gates.gate_on_both = true;
  two_gates.gate_on_mul = true;
  Block window;
  window.pool = "window";
  window.x = {1, 8, 4, 4};
  TestModel partial_window = Se(window);
  partial_window.program.blocks[0].ops[1].SetAttr("ksize", std::vector<int>{2, 2});
  partial_window.program.blocks[0].ops[1].SetAttr("strides", std::vector<int>{4, 4});
  TestModel fetched_gate = Se(Block());
  fetched_gate.Output("g");
  TestModel mul_activation = Se(Block());
  mul_activation.program.blocks[0].ops[4].SetAttr("fuse_activation", std::string("relu"));
  struct Case {
    const char* what;
    TestModel model;
    const char* counter;  // "" when the pattern itself does not match
  };
  Case cases[] = {{"max pool", Se(max_pool), "declined_pool"},
                  {"gate activation twice", Se(two_gates), "declined_activations"},
                  {"2x2 window", partial_window, "declined_pool"},
                  {"gate read elsewhere", fetched_gate, ""},
                  {"mul activation", mul_activation, ""}};
  for (Case& c : cases) {
    FusionRun r = ExpectFusedMatches(c.model, kPass, 1e-5);
    EXPECT_EQ(CountOps(r.op_types, "squeeze_excitation"), 0) << c.what;
    EXPECT_EQ(CountOps(r.op_types, "elementwise_mul"), 1) << c.what;
    if (*c.counter) {
      EXPECT_EQ(r.counters[c.counter], 1) << c.what;
    }
  }
}

}  // namespace
}  // namespace testing
}  // namespace fusion
}  // namespace mir
}  // namespace lite
