// quant_dequant_fuse_pass: fake quant-dequant around convs becomes int8
// convs where the x86 int8 kernel takes them (counted made_int8), with
// outputs close to the float32 simulation; host-only keeps the simulation
// exactly (declined_no_int8_kernel); batch norm after an int8 conv folds into
// its Filter_scales; a conv whose input is not quantized is declined.
#include <algorithm>
#include <cmath>
#include <functional>
#include <string>

#include <gtest/gtest.h>

#include "tests/passes/fusion_test_util.h"

namespace lite {
namespace mir {
namespace fusion {
namespace testing {
namespace {

constexpr char kPass[] = "quant_dequant_fuse_pass";
constexpr char kActQdq[] = "fake_quantize_dequantize_moving_average_abs_max";
constexpr char kChannelQdq[] = "fake_channel_wise_quantize_dequantize_abs_max";

const std::vector<Place> kX86 = {Place(TargetType::kX86), Place(TargetType::kHost)};

// x [1, 8, 10, 10] -> act qdq -> `type` 3x3 (W qdq per output channel)
// [-> batch_norm] -> relu -> y.
TestModel QuantConv(const std::string& type, bool with_bn, bool quantize_input = true) {
  TestModel m;
  m.Input("x", {1, 8, 10, 10});
  std::string in = "x";
  if (quantize_input) {
    m.Weight("x.scale", {1}, {0.9f});
    m.Op(kActQdq, {{"X", {"x"}}, {"InScale", {"x.scale"}}},
         {{"Out", {"x.qdq"}}, {"OutScale", {"x.scale"}}})
        .SetAttr("bit_length", 8);
    in = "x.qdq";
  }
  const bool dw = type == "depthwise_conv2d";
  m.RandomWeight("w", {8, dw ? 1 : 8, 3, 3}, -0.4f, 0.4f);
  auto& wq = m.Op(kChannelQdq, {{"X", {"w"}}}, {{"Out", {"w.qdq"}}, {"OutScale", {"w.s"}}});
  wq.SetAttr("bit_length", 8);
  wq.SetAttr("quant_axis", 0);
  auto& conv = m.Op(type, {{"Input", {in}}, {"Filter", {"w.qdq"}}}, {{"Output", {"c"}}});
  conv.SetAttr("strides", std::vector<int32_t>{1, 1});
  conv.SetAttr("paddings", std::vector<int32_t>{1, 1});
  conv.SetAttr("dilations", std::vector<int32_t>{1, 1});
  conv.SetAttr("groups", dw ? 8 : 1);
  std::string pre = "c";
  if (with_bn) {
    AddBatchNorm(&m, "c", "b", 8);  // negative scales too
    pre = "b";
  }
  m.Op("relu", {{"X", {pre}}}, {{"Out", {"y"}}});
  m.Output("y");
  return m;
}

bool HasInt8Conv(const FusionRun& r) {
  for (const auto& op : r.program.blocks[0].ops) {
    if (op.GetAttr<bool>("enable_int8", false)) return true;
  }
  return false;
}

int64_t CounterOf(const FusionRun& r, const std::string& name) {
  auto it = r.counters.find(name);
  return it == r.counters.end() ? 0 : it->second;
}

TEST(QuantDequantFuse, ConvsBecomeInt8OnX86AndStayCloseToTheSimulation) {
  for (const char* type : {"conv2d", "depthwise_conv2d"}) {
    for (bool bn : {false, true}) {
      SCOPED_TRACE(std::string(type) + (bn ? " + batch_norm" : ""));
      const TestModel m = QuantConv(type, bn);
      const FusionRun sim = RunOrFail(m, {}, {Place(TargetType::kHost)});
      const FusionRun int8 = RunOrFail(m, AllFusionPasses(), kX86);
      ASSERT_FALSE(int8.outputs.empty());
      EXPECT_EQ(int8.counters.at("made_int8"), 1) << int8.pass_log;
      EXPECT_TRUE(HasInt8Conv(int8));
      EXPECT_EQ(CountOps(int8.op_types, kActQdq), 0);
      EXPECT_EQ(CountOps(int8.op_types, kChannelQdq), 0);
      EXPECT_EQ(CountOps(int8.op_types, "batch_norm"), 0);
      ExpectNearSimulation(sim, int8);
    }
  }
}

TEST(QuantDequantFuse, HostOnlyOrDisabledKeepsTheExactSimulation) {
  const TestModel m = QuantConv("conv2d", true);
  const FusionRun plain = RunOrFail(m, {}, {Place(TargetType::kHost)});
  const FusionRun host = RunOrFail(m, {kPass}, {Place(TargetType::kHost)});
  EXPECT_EQ(host.counters.at("declined_no_int8_kernel"), 1) << host.pass_log;
  EXPECT_FALSE(HasInt8Conv(host));
  EXPECT_EQ(host.outputs, plain.outputs);
  std::vector<std::string> without = AllFusionPasses();
  without.erase(std::find(without.begin(), without.end(), kPass));
  const FusionRun x86_sim = RunOrFail(m, without, kX86);
  EXPECT_FALSE(HasInt8Conv(x86_sim));
  EXPECT_EQ(CountOps(x86_sim.op_types, kActQdq), 1);
}

TEST(QuantDequantFuse, UnquantizedInputIsDeclined) {
  const TestModel m = QuantConv("conv2d", false, false);
  // All fusions: the x86 float conv needs its Filter as a weight, which
  // constant_folding_pass makes of the weight quant op's output.
  const FusionRun r = RunOrFail(m, AllFusionPasses(), kX86);
  EXPECT_EQ(r.counters.at("declined_pattern"), 1) << r.pass_log;
  EXPECT_FALSE(HasInt8Conv(r));
}

// x [1, 8, 6, 6] -> act qdq -> conv2d_transpose `k`x`k` stride `stride`
// (no padding), W [8, 4, k, k] quant-dequantized along `weight_axis` (1: per
// output channel) -> [+ bias, relu] [batch_norm] -> y.
TestModel QuantConvTranspose(int weight_axis, int k, int stride, bool bias_relu = false,
                             bool with_bn = false) {
  TestModel m;
  m.Input("x", {1, 8, 6, 6});
  m.Weight("x.scale", {1}, {0.9f});
  m.Op(kActQdq, {{"X", {"x"}}, {"InScale", {"x.scale"}}},
       {{"Out", {"x.qdq"}}, {"OutScale", {"x.scale"}}})
      .SetAttr("bit_length", 8);
  m.RandomWeight("w", {8, 4, k, k}, -0.4f, 0.4f);
  auto& wq = m.Op(kChannelQdq, {{"X", {"w"}}}, {{"Out", {"w.qdq"}}, {"OutScale", {"w.s"}}});
  wq.SetAttr("bit_length", 8);
  wq.SetAttr("quant_axis", weight_axis);
  auto& deconv =
      m.Op("conv2d_transpose", {{"Input", {"x.qdq"}}, {"Filter", {"w.qdq"}}}, {{"Output", {"c"}}});
  deconv.SetAttr("strides", std::vector<int32_t>{stride, stride});
  deconv.SetAttr("paddings", std::vector<int32_t>{0, 0});
  deconv.SetAttr("dilations", std::vector<int32_t>{1, 1});
  deconv.SetAttr("groups", 1);
  std::string out = "c";
  if (bias_relu) {
    m.RandomWeight("b", {4});
    m.Op("elementwise_add", {{"X", {"c"}}, {"Y", {"b"}}}, {{"Out", {"cb"}}}).SetAttr("axis", 1);
    m.Op("relu", {{"X", {"cb"}}}, {{"Out", {"y"}}});
    out = "y";
  }
  if (with_bn) {
    AddBatchNorm(&m, out, "bn", 4);
    out = "bn";
  }
  m.Output(out);
  return m;
}

TEST(QuantDequantFuse, NonOverlappingConvTransposeBecomesInt8OnX86) {
  for (int variant : {0, 1, 2}) {  // plain, bias + relu, batch norm
    SCOPED_TRACE(variant);
    const TestModel m = QuantConvTranspose(1, 2, 2, variant == 1, variant == 2);
    const FusionRun sim = RunOrFail(m, {}, {Place(TargetType::kHost)});
    const FusionRun x86 = RunOrFail(m, AllFusionPasses(), kX86);
    ASSERT_FALSE(x86.outputs.empty());
    EXPECT_EQ(CounterOf(x86, "made_int8_conv2d_transpose"), 1) << x86.pass_log;
    EXPECT_TRUE(HasInt8Conv(x86));
    EXPECT_EQ(CountOps(x86.op_types, kActQdq), 0);
    EXPECT_EQ(CountOps(x86.op_types, "elementwise_add"), 0);
    EXPECT_EQ(CountOps(x86.op_types, "batch_norm"), 0);
    ExpectNearSimulation(sim, x86);
  }
}

TEST(QuantDequantFuse, OverlappingConvTransposeKeepsTheSimulation) {
  // 3x3 stride 2: no x86 int8 kernel takes it.
  const FusionRun sim = RunOrFail(QuantConvTranspose(1, 3, 2), {}, {Place(TargetType::kHost)});
  const FusionRun x86 = RunOrFail(QuantConvTranspose(1, 3, 2), AllFusionPasses(), kX86);
  EXPECT_EQ(x86.counters.at("declined_no_int8_kernel"), 1) << x86.pass_log;
  EXPECT_EQ(x86.counters.count("made_int8"), 0u);
  EXPECT_EQ(CountOps(x86.op_types, kActQdq), 1);
  EXPECT_FALSE(HasInt8Conv(x86));
  ExpectNearSimulation(sim, x86);
  // Scales along the input channels (axis 0) are not per output channel.
  const FusionRun axis0 = RunOrFail(QuantConvTranspose(0, 2, 2), AllFusionPasses(), kX86);
  EXPECT_EQ(axis0.counters.at("declined_pattern"), 1) << axis0.pass_log;
}

// ---- the quantize_linear / dequantize_linear form ----

enum class LinearWeight { kQuantDequantPair, kStoredLevels };

// Appends quantize_linear -> dequantize_linear on `in` (Scale `scale`,
// ZeroPoint `zp`), writing in + ".qdq".
void LinearPair(TestModel* m, const std::string& in, const std::string& scale,
                const std::string& zp, int axis, int round_type) {
  for (const char* type : {"quantize_linear", "dequantize_linear"}) {
    const bool q = std::string(type) == "quantize_linear";
    auto& op = m->Op(type, {{"X", {q ? in : in + ".q"}}, {"Scale", {scale}}, {"ZeroPoint", {zp}}},
                     {{"Y", {q ? in + ".q" : in + ".qdq"}}});
    op.SetAttr("quant_axis", axis);
    op.SetAttr("bit_length", 8);
    op.SetAttr("round_type", round_type);
  }
}

// Weight `w` of `dims` quantized along `axis` (`channels` scales) in form
// `form`; the consumer reads "w.qdq". Scales are 0.8 of the channel's
// largest |w| so round_type 1 clips and round_type 0 clamps some values.
void LinearQuantWeight(TestModel* m, const DDim& dims, int axis, LinearWeight form,
                       int round_type) {
  const int64_t channels = dims[axis];
  std::vector<float> scales(channels);
  for (int64_t c = 0; c < channels; ++c) scales[c] = 0.05f + 0.01f * c;
  m->Weight("w.scale", {channels}, scales);
  m->Weight("w.zp", {channels}, std::vector<float>(channels, 0.f));
  if (form == LinearWeight::kStoredLevels) {
    std::vector<int8_t> levels(Product(dims));
    for (size_t i = 0; i < levels.size(); ++i) levels[i] = static_cast<int8_t>((i * 37) % 255 - 127);
    m->Int8Weight("w.q", dims, levels);
    auto& d = m->Op("dequantize_linear", {{"X", {"w.q"}}, {"Scale", {"w.scale"}}, {"ZeroPoint", {"w.zp"}}},
                    {{"Y", {"w.qdq"}}});
    d.SetAttr("quant_axis", axis);
    d.SetAttr("bit_length", 8);
    return;
  }
  m->RandomWeight("w", dims, -0.07f, 0.07f);
  LinearPair(m, "w", "w.scale", "w.zp", axis, round_type);
}

// x [1, 8, 10, 10] -> quantize_linear -> dequantize_linear (scale 0.7, per
// tensor) -> conv2d 3x3 (weight per output channel) -> relu -> y.
TestModel LinearQuantConv(LinearWeight form, int round_type) {
  TestModel m;
  m.Input("x", {1, 8, 10, 10});
  m.Weight("x.scale", {1}, {0.7f});
  m.Weight("x.zp", {1}, {0.f});
  LinearPair(&m, "x", "x.scale", "x.zp", -1, round_type);
  LinearQuantWeight(&m, {8, 8, 3, 3}, 0, form, round_type);
  auto& conv = m.Op("conv2d", {{"Input", {"x.qdq"}}, {"Filter", {"w.qdq"}}}, {{"Output", {"c"}}});
  conv.SetAttr("strides", std::vector<int32_t>{1, 1});
  conv.SetAttr("paddings", std::vector<int32_t>{1, 1});
  conv.SetAttr("dilations", std::vector<int32_t>{1, 1});
  conv.SetAttr("groups", 1);
  m.Op("relu", {{"X", {"c"}}}, {{"Out", {"y"}}});
  m.Output("y");
  return m;
}

TEST(QuantDequantFuse, LinearFormConvBecomesInt8AndMatchesTheSimulation) {
  for (LinearWeight form : {LinearWeight::kQuantDequantPair, LinearWeight::kStoredLevels}) {
    for (int round_type : {0, 1}) {
      SCOPED_TRACE("stored levels " + std::to_string(form == LinearWeight::kStoredLevels) +
                   ", round_type " + std::to_string(round_type));
      const TestModel m = LinearQuantConv(form, round_type);
      const FusionRun sim = RunOrFail(m, {}, {Place(TargetType::kHost)});
      const FusionRun int8 = RunOrFail(m, AllFusionPasses(), kX86);
      ASSERT_FALSE(int8.outputs.empty());
      EXPECT_EQ(int8.counters.at("made_int8_conv2d"), 1) << int8.pass_log;
      EXPECT_TRUE(HasInt8Conv(int8));
      EXPECT_EQ(CountOps(int8.op_types, "quantize_linear"), 0);
      EXPECT_EQ(CountOps(int8.op_types, "dequantize_linear"), 0);
      ExpectNearSimulation(sim, int8);
      // Disabled: the simulation on x86 as well.
      std::vector<std::string> without = AllFusionPasses();
      without.erase(std::find(without.begin(), without.end(), kPass));
      const FusionRun x86_sim = RunOrFail(m, without, kX86);
      EXPECT_FALSE(HasInt8Conv(x86_sim));
      EXPECT_EQ(CountOps(x86_sim.op_types, "quantize_linear"), 1);
    }
  }
}

TEST(QuantDequantFuse, LinearFormScalesAreTheRealScale) {
  // The int8 conv's Input_scale / Filter_scales are the ops' Scale values
  // (level * scale / 127), not scale / 127: a 10% different activation
  // scale in the simulation moves the result beyond the tolerance.
  TestModel m = LinearQuantConv(LinearWeight::kStoredLevels, 0);
  const FusionRun int8 = RunOrFail(m, AllFusionPasses(), kX86);
  for (const auto& op : int8.program.blocks[0].ops) {
    if (op.Type() != "conv2d") continue;
    EXPECT_FLOAT_EQ(op.GetAttr<float>("Input_scale", 0.f), 0.7f);
    EXPECT_FLOAT_EQ(op.GetAttr<std::vector<float>>("Filter_scales", {}).at(3), 0.08f);
  }
  m.weights.at("x.scale").mutable_data<float>()[0] = 0.77f;
  const FusionRun other = RunOrFail(m, {}, {Place(TargetType::kHost)});
  EXPECT_GT(MaxAbsDiff(other.outputs, int8.outputs), 1e-3);
}

// The model with one op's attribute or input replaced.
TestModel WithOp(TestModel m, const std::string& type, bool weight_side,
                 const std::function<void(cpp::OpDesc*)>& edit) {
  for (auto& op : m.program.blocks[0].ops) {
    if (op.Type() != type) continue;
    const bool on_weight = op.Input("X").front().rfind("w", 0) == 0;
    if (on_weight == weight_side) edit(&op);
  }
  return m;
}

TEST(QuantDequantFuse, MalformedLinearOpsFailAtCreationNamingTheOp) {
  // A fresh model per case (copies of a TestModel share weight buffers).
  auto good = [] { return LinearQuantConv(LinearWeight::kQuantDequantPair, 0); };
  struct Case {
    TestModel model;
    std::string op, what;
  };
  TestModel zero_scale = good();
  zero_scale.weights.at("x.scale").mutable_data<float>()[0] = 0.f;
  TestModel negative_weight_scale = good();
  negative_weight_scale.weights.at("w.scale").mutable_data<float>()[2] = -0.1f;
  const std::vector<Case> cases = {
      {WithOp(good(), "quantize_linear", false,
              [](cpp::OpDesc* d) { d->SetInput("Scale", {"no_such_scale"}); }),
       "quantize_linear (output: x.q)", "no_such_scale"},
      {zero_scale, "quantize_linear (output: x.q)", "must be finite and > 0"},
      {negative_weight_scale, "quantize_linear (output: w.q", "must be finite and > 0"},
      {WithOp(good(), "dequantize_linear", false,
              [](cpp::OpDesc* d) { d->SetAttr("bit_length", 4); }),
       "dequantize_linear (output: x.qdq)", "bit_length 4"},
      {WithOp(good(), "dequantize_linear", true,
              [](cpp::OpDesc* d) { d->SetAttr("quant_axis", 4); }),
       "dequantize_linear (output: w.qdq)", "quant_axis 4"},
      {WithOp(good(), "quantize_linear", false, [](cpp::OpDesc* d) { d->SetAttr("qmax", 63); }),
       "quantize_linear (output: x.q)", "[-128, 63]"},
  };
  for (const Case& c : cases) {
    for (const auto& places : {kX86, std::vector<Place>{Place(TargetType::kHost)}}) {
      ExpectCreationFailsNaming(c.model, places, c.op, c.what);
    }
  }
}

TEST(QuantDequantFuse, ObserverOnlyOpsAreCopiesAndDeclined) {
  // Paddle's only_observer form: both ops copy X, the conv sees float x.
  TestModel observed = LinearQuantConv(LinearWeight::kQuantDequantPair, 0);
  for (auto& op : observed.program.blocks[0].ops) {
    if (op.Type().find("quantize_linear") != std::string::npos &&
        op.Input("X").front().rfind("x", 0) == 0) {
      op.SetAttr("only_observer", true);
    }
  }
  TestModel plain = LinearQuantConv(LinearWeight::kQuantDequantPair, 0);
  auto& ops = plain.program.blocks[0].ops;
  ops.erase(std::remove_if(ops.begin(), ops.end(),
                           [](const cpp::OpDesc& op) {
                             return op.Type().find("quantize_linear") != std::string::npos &&
                                    op.Input("X").front().rfind("x", 0) == 0;
                           }),
            ops.end());
  for (auto& op : ops) {
    if (op.Type() == "conv2d") op.SetInput("Input", {"x"});
  }
  const FusionRun x86 = RunOrFail(observed, AllFusionPasses(), kX86);
  EXPECT_EQ(x86.counters.at("declined_observer"), 1) << x86.pass_log;
  EXPECT_FALSE(HasInt8Conv(x86));
  const FusionRun host = RunOrFail(observed, {}, {Place(TargetType::kHost)});
  const FusionRun unquantized = RunOrFail(plain, {}, {Place(TargetType::kHost)});
  ASSERT_FALSE(host.outputs.empty());
  EXPECT_EQ(host.outputs, unquantized.outputs);
  ExpectNearSimulation(unquantized, x86);
}

TEST(QuantDequantFuse, NonZeroZeroPointIsDeclined) {
  TestModel m = LinearQuantConv(LinearWeight::kQuantDequantPair, 0);
  m.weights.at("x.zp").mutable_data<float>()[0] = 3.f;
  auto run = RunWith(m, {kPass}, m.RandomInputs(), kX86);
  // Declined by the pass; the simulation then refuses asymmetric levels.
  ASSERT_FALSE(run.ok());
  EXPECT_NE(run.status().message().find("ZeroPoint"), std::string::npos)
      << run.status().message();
  EXPECT_NE(run.status().message().find("quantize_linear"), std::string::npos);
}

// ---- fc / mul / matmul / matmul_v2 ----

enum class ProductForm { kFake, kLinearLevels };

// x -> activation quant (scale 0.9) -> `type` with a constant weight [16, 8]
// quantized per column (quant_axis 1) -> y; fc with Bias and relu, matmul
// with alpha 0.5 on a 3-D x (batches stacked).
// With `bias_relu`, y -> + bias (per column) -> relu -> z is the output.
TestModel QuantProduct(const std::string& type, ProductForm form, bool bias_relu = false) {
  TestModel m;
  const bool batched = type == "matmul" || type == "matmul_v2";
  m.Input("x", batched ? DDim{2, 3, 16} : DDim{4, 16});
  m.Weight("x.scale", {1}, {0.9f});
  if (form == ProductForm::kFake) {
    m.Op(kActQdq, {{"X", {"x"}}, {"InScale", {"x.scale"}}},
         {{"Out", {"x.qdq"}}, {"OutScale", {"x.scale"}}})
        .SetAttr("bit_length", 8);
    m.RandomWeight("w", {16, 8}, -0.5f, 0.5f);
    auto& wq = m.Op(kChannelQdq, {{"X", {"w"}}}, {{"Out", {"w.qdq"}}, {"OutScale", {"w.s"}}});
    wq.SetAttr("bit_length", 8);
    wq.SetAttr("quant_axis", 1);
  } else {
    m.Weight("x.zp", {1}, {0.f});
    LinearPair(&m, "x", "x.scale", "x.zp", -1, 0);
    LinearQuantWeight(&m, {16, 8}, 1, LinearWeight::kStoredLevels, 0);
  }
  const std::string in = type == "fc" ? "Input" : "X";
  const std::string w = type == "fc" ? "W" : "Y";
  std::map<std::string, std::vector<std::string>> inputs = {{in, {"x.qdq"}}, {w, {"w.qdq"}}};
  if (type == "fc") {
    m.RandomWeight("bias", {8});
    inputs["Bias"] = {"bias"};
  }
  auto& op = m.Op(type, inputs, {{"Out", {"y"}}});
  if (type == "fc") {
    op.SetAttr("in_num_col_dims", 1);
    op.SetAttr("activation_type", std::string("relu"));
  }
  if (type == "matmul") op.SetAttr("alpha", 0.5f);
  if (bias_relu) {
    m.RandomWeight("bias", {8});
    m.Op("elementwise_add", {{"X", {"y"}}, {"Y", {"bias"}}}, {{"Out", {"b"}}}).SetAttr("axis", -1);
    m.Op("relu", {{"X", {"b"}}}, {{"Out", {"z"}}});
  }
  m.Output(bias_relu ? "z" : "y");
  return m;
}

const char* const kProducts[] = {"fc", "mul", "matmul", "matmul_v2"};

TEST(QuantDequantFuse, ProductsBecomeInt8OnX86AndMatchTheSimulation) {
  for (const char* type : kProducts) {
    for (ProductForm form : {ProductForm::kFake, ProductForm::kLinearLevels}) {
      SCOPED_TRACE(std::string(type) + (form == ProductForm::kFake ? " fake" : " linear"));
      const TestModel m = QuantProduct(type, form);
      const FusionRun sim = RunOrFail(m, {}, {Place(TargetType::kHost)});
      const FusionRun int8 = RunOrFail(m, AllFusionPasses(), kX86);
      ASSERT_FALSE(int8.outputs.empty());
      EXPECT_EQ(CounterOf(int8, "made_int8_" + std::string(type)), 1) << int8.pass_log;
      EXPECT_TRUE(HasInt8Conv(int8));  // any op with enable_int8
      EXPECT_EQ(CountOps(int8.op_types, kActQdq) + CountOps(int8.op_types, "dequantize_linear"),
                0);
      ExpectNearSimulation(sim, int8);
      // Host only: declined, the exact simulation.
      const FusionRun host = RunOrFail(m, {kPass}, {Place(TargetType::kHost)});
      EXPECT_EQ(host.counters.at("declined_no_int8_kernel"), 1) << host.pass_log;
      EXPECT_EQ(host.outputs, sim.outputs);
      // The pass disabled on x86: the simulation (float kernels), no int8 op.
      std::vector<std::string> without = AllFusionPasses();
      without.erase(std::find(without.begin(), without.end(), kPass));
      const FusionRun x86_sim = RunOrFail(m, without, kX86);
      EXPECT_FALSE(HasInt8Conv(x86_sim));
      ExpectNearSimulation(sim, x86_sim);
    }
  }
}

TEST(QuantDequantFuse, ProductWeightScalesArePerColumn) {
  // Per-row scales (quant_axis 0) do not describe the product's output
  // columns: declined, the simulation kept.
  TestModel m = QuantProduct("mul", ProductForm::kFake);
  for (auto& op : m.program.blocks[0].ops) {
    if (op.Type() == kChannelQdq) op.SetAttr("quant_axis", 0);
  }
  const FusionRun r = RunOrFail(m, AllFusionPasses(), kX86);
  EXPECT_EQ(r.counters.at("declined_pattern"), 1) << r.pass_log;
  EXPECT_FALSE(HasInt8Conv(r));
}

TEST(QuantDequantFuse, Int8ProductPlusBiasBecomesAnInt8Fc) {
  for (const char* type : {"mul", "matmul_v2"}) {
    SCOPED_TRACE(type);
    const TestModel m = QuantProduct(type, ProductForm::kLinearLevels, true);
    const FusionRun sim = RunOrFail(m, {}, {Place(TargetType::kHost)});
    const FusionRun int8 = RunOrFail(m, AllFusionPasses(), kX86);
    ASSERT_FALSE(int8.outputs.empty());
    EXPECT_EQ(int8.counters.at("int8"), 1) << int8.pass_log;
    EXPECT_EQ(CountOps(int8.op_types, "fc"), 1);
    EXPECT_EQ(CountOps(int8.op_types, "elementwise_add"), 0);
    EXPECT_TRUE(HasInt8Conv(int8));
    ExpectNearSimulation(sim, int8);
  }
}

// The int8 form written directly (as an NPU subgraph's host fallback runs
// it): the host kernel computes exactly what the quant ops compute.
TEST(QuantDequantFuse, HostInt8ProductKernelIsTheExactSimulation) {
  for (const char* type : kProducts) {
    SCOPED_TRACE(type);
    const TestModel quant = QuantProduct(type, ProductForm::kLinearLevels);
    TestModel int8 = QuantProduct(type, ProductForm::kLinearLevels);
    auto& ops = int8.program.blocks[0].ops;
    std::vector<cpp::OpDesc> kept;
    for (auto& op : ops) {
      if (op.Type() == "quantize_linear" || op.Type() == "dequantize_linear") continue;
      if (op.Type() == type) {
        const std::string in = op.Type() == "fc" ? "Input" : "X";
        const std::string w = op.Type() == "fc" ? "W" : "Y";
        op.SetInput(in, {"x"});
        op.SetInput(w, {"w.q"});
        op.SetAttr("enable_int8", true);
        op.SetAttr("Input_scale", 0.9f);
        const Tensor& s = int8.weights.at("w.scale");
        op.SetAttr("Filter_scales",
                   std::vector<float>(s.data<float>(), s.data<float>() + s.numel()));
        op.SetAttr("quant_round_type", 0);
      }
      kept.push_back(op);
    }
    ops = kept;
    const FusionRun a = RunOrFail(quant, {}, {Place(TargetType::kHost)});
    const FusionRun b = RunOrFail(int8, {}, {Place(TargetType::kHost)});
    ASSERT_FALSE(b.outputs.empty());
    EXPECT_EQ(a.outputs, b.outputs);
    // A wrong Filter_scales changes the result: the comparison can fail.
    for (auto& op : ops) {
      if (op.Type() == type) op.SetAttr("Filter_scales", std::vector<float>(8, 0.1f));
    }
    const FusionRun c = RunOrFail(int8, {}, {Place(TargetType::kHost)});
    EXPECT_NE(a.outputs, c.outputs);
  }
}

TEST(QuantDequantFuse, MalformedProductInt8FormFailsNamingTheOp) {
  TestModel m = QuantProduct("fc", ProductForm::kLinearLevels);
  for (auto& op : m.program.blocks[0].ops) {
    if (op.Type() != "fc") continue;
    op.SetInput("Input", {"x"});
    op.SetInput("W", {"w.q"});
    op.SetAttr("enable_int8", true);
    op.SetAttr("Input_scale", 0.9f);
    op.SetAttr("Filter_scales", std::vector<float>(5, 0.1f));  // 8 columns
  }
  auto run = RunWith(m, {}, m.RandomInputs(), kX86);
  ASSERT_FALSE(run.ok());
  EXPECT_NE(run.status().message().find("fc (output: y)"), std::string::npos)
      << run.status().message();
  EXPECT_NE(run.status().message().find("5 scales"), std::string::npos)
      << run.status().message();
}

}  // namespace
}  // namespace testing
}  // namespace fusion
}  // namespace mir
}  // namespace lite
