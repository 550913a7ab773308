// The frozen PaddleSlim form (QuantizationFreezePass: static quant_aware +
// convert(), older quant_post_static): activations quantized to levels by
// fake_quantize_moving_average_abs_max / fake_quantize_range_abs_max, weights
// stored as integer levels in float32, and fake_dequantize_max_abs or
// fake_channel_wise_dequantize_max_abs after the conv / product. On host the
// raw ops run (the exact simulation); on x86 quant_dequant_fuse_pass makes the
// consumer int8 (made_int8, made_int8_frozen) within 1e-5 of the largest
// output, the dequantize op goes, and the bias add / batch norm after it still
// fold; the .nb of the fused program runs the same in the light predictor.
// Scales computed at run time, a dequantize scale other than the quant op's
// and malformed ops are declined or refused naming the op.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "lite/api/optimizer.h"
#include "lite/api/paddle_api.h"
#include "lite/api/predictor_runtime.h"
#include "tests/passes/fusion_test_util.h"

namespace lite {
namespace mir {
namespace fusion {
namespace testing {
namespace {

constexpr char kPass[] = "quant_dequant_fuse_pass";
constexpr char kMovingAverage[] = "fake_quantize_moving_average_abs_max";
constexpr char kRange[] = "fake_quantize_range_abs_max";
constexpr char kAbsMax[] = "fake_quantize_abs_max";
constexpr char kMaxAbsDequant[] = "fake_dequantize_max_abs";
constexpr char kChannelDequant[] = "fake_channel_wise_dequantize_max_abs";

const std::vector<Place> kHostOnly = {Place(TargetType::kHost)};
const std::vector<Place> kX86 = {Place(TargetType::kX86), Place(TargetType::kHost)};

enum class Dequant { kMaxRange, kChannelWise };

constexpr float kActScale = 0.9f;

// Activation quant op `type` on `in` writing in + ".q" (levels); InScale
// in + ".scale" (kActScale), listed in place as OutScale as the transform
// pass does; fake_quantize_abs_max writes its run-time scale to in + ".s".
// Returns the name of the scale var a dequantize op reads.
std::string AddActQuant(TestModel* m, const std::string& in, const char* type) {
  if (std::string(type) == kAbsMax) {
    m->Op(type, {{"X", {in}}}, {{"Out", {in + ".q"}}, {"OutScale", {in + ".s"}}})
        .SetAttr("bit_length", 8);
    return in + ".s";
  }
  const std::string s = in + ".scale";
  m->Weight(s, {1}, {kActScale});
  std::map<std::string, std::vector<std::string>> ins = {{"X", {in}}, {"InScale", {s}}};
  std::map<std::string, std::vector<std::string>> outs = {{"Out", {in + ".q"}},
                                                          {"OutScale", {s}}};
  if (std::string(type) == kMovingAverage) {
    m->Weight(in + ".accum", {1}, {3.f});
    m->Weight(in + ".state", {1}, {4.f});
    ins["InAccum"] = {in + ".accum"};
    ins["InState"] = {in + ".state"};
  }
  auto& q = m->Op(type, ins, outs);
  q.SetAttr("bit_length", 8);
  q.SetAttr("is_test", true);
  if (std::string(type) == kMovingAverage) q.SetAttr("moving_rate", 0.9f);
  if (std::string(type) == kRange) q.SetAttr("window_size", 10000);
  return s;
}

// A weight `name` of `dims` holding the integer levels the freeze pass
// stores: pseudo-random values in [-0.4, 0.4) quantized with their max |w|,
// per index of `axis` (per-channel) or over all of them (`axis` -1).
// Returns the scales.
std::vector<float> AddLevelsWeight(TestModel* m, const std::string& name, const DDim& dims,
                                   int axis, uint32_t seed) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  std::vector<float> w(n);
  for (int64_t i = 0; i < n; ++i) {
    seed = 1664525u * seed + 1013904223u;
    w[i] = -0.4f + 0.8f * static_cast<float>(seed >> 8) / static_cast<float>(1u << 24);
  }
  int64_t outer = 1, channels = 1, inner = 1;
  for (int i = 0; i < static_cast<int>(dims.size()); ++i) {
    if (axis >= 0 && i < axis) outer *= dims[i];
    if (i == axis) channels = dims[i];
    if (axis < 0 || i > axis) inner *= dims[i];
  }
  std::vector<float> scales(channels, 0.f);
  auto channel_of = [&](int64_t i) { return (i / inner) % channels; };
  for (int64_t i = 0; i < n; ++i) {
    scales[channel_of(i)] = std::max(scales[channel_of(i)], std::fabs(w[i]));
  }
  for (int64_t i = 0; i < n; ++i) w[i] = std::round(w[i] * 127.f / scales[channel_of(i)]);
  m->Weight(name, dims, w);
  (void)outer;
  return scales;
}

// The dequantize op on `y` (writing y + ".dq") with the weight's scales
// `w_scales` and the activation scale var `act_scale`.
void AddDequant(TestModel* m, const std::string& y, Dequant form, const std::string& act_scale,
                const std::vector<float>& w_scales, int x_num_col_dims) {
  if (form == Dequant::kMaxRange) {
    auto& d = m->Op(kMaxAbsDequant, {{"X", {y}}, {"Scale", {act_scale}}}, {{"Out", {y + ".dq"}}});
    d.SetAttr("max_range", 127.f * 127.f / w_scales.at(0));  // freeze pass: act * param / s_w
    return;
  }
  m->Weight(y + ".ws", {static_cast<int64_t>(w_scales.size())}, w_scales);
  auto& d = m->Op(kChannelDequant, {{"X", {y}}, {"Scales", {y + ".ws", act_scale}}},
                  {{"Out", {y + ".dq"}}});
  d.SetAttr("quant_bits", std::vector<int32_t>{8, 8});
  d.SetAttr("quant_axis", 0);
  d.SetAttr("x_num_col_dims", x_num_col_dims);
}

// x [1, 8, 10, 10] -> act quant -> `type` 3x3 (levels weight) -> dequantize
// [-> + bias (per channel) -> batch_norm] -> relu -> y.
TestModel FrozenConv(const std::string& type, Dequant form, const char* act = kMovingAverage,
                     bool bias_bn = false) {
  TestModel m;
  m.Input("x", {1, 8, 10, 10});
  const std::string s = AddActQuant(&m, "x", act);
  const bool dw = type == "depthwise_conv2d";
  const std::vector<float> ws =
      AddLevelsWeight(&m, "w", {8, dw ? 1 : 8, 3, 3}, form == Dequant::kMaxRange ? -1 : 0, 11);
  auto& conv = m.Op(type, {{"Input", {"x.q"}}, {"Filter", {"w"}}}, {{"Output", {"c"}}});
  conv.SetAttr("strides", std::vector<int32_t>{1, 1});
  conv.SetAttr("paddings", std::vector<int32_t>{1, 1});
  conv.SetAttr("dilations", std::vector<int32_t>{1, 1});
  conv.SetAttr("groups", dw ? 8 : 1);
  AddDequant(&m, "c", form, s, ws, 1);
  std::string pre = "c.dq";
  if (bias_bn) {
    m.RandomWeight("bias", {8});
    m.Op("elementwise_add", {{"X", {"c.dq"}}, {"Y", {"bias"}}}, {{"Out", {"cb"}}})
        .SetAttr("axis", 1);
    AddBatchNorm(&m, "cb", "b", 8);
    pre = "b";
  }
  m.Op("relu", {{"X", {pre}}}, {{"Out", {"y"}}});
  m.Output("y");
  return m;
}

// x -> act quant -> `type` with a levels weight [16, 8] (per column for the
// channel-wise form) -> dequantize [-> + bias -> relu] -> y; matmul /
// matmul_v2 on a 3-D x (x_num_col_dims 2, as the freeze pass sets it).
TestModel FrozenProduct(const std::string& type, Dequant form, bool bias_relu = false) {
  TestModel m;
  const bool batched = type == "matmul" || type == "matmul_v2";
  m.Input("x", batched ? DDim{2, 3, 16} : DDim{4, 16});
  const std::string s = AddActQuant(&m, "x", kMovingAverage);
  const std::vector<float> ws =
      AddLevelsWeight(&m, "w", {16, 8}, form == Dequant::kMaxRange ? -1 : 1, 5);
  const bool fc = type == "fc";
  auto& op = m.Op(type, {{fc ? "Input" : "X", {"x.q"}}, {fc ? "W" : "Y", {"w"}}},
                  {{"Out", {"y"}}});
  if (fc) op.SetAttr("in_num_col_dims", 1);
  AddDequant(&m, "y", form, s, ws, batched ? 2 : 1);
  if (bias_relu) {
    m.RandomWeight("bias", {8});
    m.Op("elementwise_add", {{"X", {"y.dq"}}, {"Y", {"bias"}}}, {{"Out", {"b"}}})
        .SetAttr("axis", -1);
    m.Op("relu", {{"X", {"b"}}}, {{"Out", {"z"}}});
  }
  m.Output(bias_relu ? "z" : "y.dq");
  return m;
}

int64_t CounterOf(const FusionRun& r, const std::string& name) {
  auto it = r.counters.find(name);
  return it == r.counters.end() ? 0 : it->second;
}

bool HasInt8Op(const FusionRun& r) {
  for (const auto& op : r.program.blocks[0].ops) {
    if (op.GetAttr<bool>("enable_int8", false)) return true;
  }
  return false;
}

int FrozenOps(const FusionRun& r) {
  return CountOps(r.op_types, kMovingAverage) + CountOps(r.op_types, kRange) +
         CountOps(r.op_types, kMaxAbsDequant) + CountOps(r.op_types, kChannelDequant);
}

std::vector<std::string> AllBut(const std::string& pass) {
  std::vector<std::string> v = AllFusionPasses();
  v.erase(std::find(v.begin(), v.end(), pass));
  return v;
}

// The model optimized for `places` with every fusion, saved as .nb and run
// by the light predictor on model.RandomInputs(): its outputs.
std::vector<std::vector<float>> RunThroughNb(const TestModel& model,
                                             const std::vector<Place>& places,
                                             const std::string& file) {
  auto root = ScopeWithWeights(model);
  OptimizeOptions options;
  options.valid_places = places;
  auto opt = OptimizeProgram(model.program, root.get(), options);
  EXPECT_TRUE(opt.ok()) << opt.status().ToString();
  if (!opt.ok()) return {};
  auto rt = PredictorRuntime::Create(opt->program, root, 1);
  EXPECT_TRUE(rt.ok()) << rt.status().ToString();
  if (!rt.ok()) return {};
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string nb = std::string(tmp ? tmp : "/tmp") + "/" + file + ".nb";
  Status saved = (*rt)->SaveOptimizedModel(nb, paddle::lite_api::ModelType::kNaiveBuffer);
  EXPECT_TRUE(saved.ok()) << saved.ToString();
  paddle::lite_api::MobileConfig mc;
  mc.set_model_from_file(nb);
  auto light = paddle::lite_api::CreatePaddlePredictor<paddle::lite_api::MobileConfig>(mc);
  EXPECT_TRUE(light.ok()) << light.status().ToString();
  if (!light.ok()) return {};
  const std::vector<Tensor> inputs = model.RandomInputs();
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto in = (*light)->GetInput(static_cast<int>(i));
    in->Resize(inputs[i].dims());
    in->CopyFromCpu(inputs[i].data<float>());
  }
  Status ran = (*light)->Run();
  EXPECT_TRUE(ran.ok()) << ran.ToString();
  std::vector<std::vector<float>> outs;
  for (size_t i = 0; i < (*light)->GetOutputNames().size(); ++i) {
    auto out = (*light)->GetOutput(static_cast<int>(i));
    outs.emplace_back(out->data<float>(), out->data<float>() + out->numel());
  }
  return outs;
}

TEST(QuantFrozen, ConvsBecomeInt8OnX86AndStayCloseToTheSimulation) {
  for (const char* type : {"conv2d", "depthwise_conv2d"}) {
    for (Dequant form : {Dequant::kMaxRange, Dequant::kChannelWise}) {
      for (bool bias_bn : {false, true}) {
        SCOPED_TRACE(std::string(type) + (form == Dequant::kMaxRange ? " max_range" : " channel") +
                     (bias_bn ? " + bias + batch_norm" : ""));
        const TestModel m = FrozenConv(type, form, kMovingAverage, bias_bn);
        const FusionRun sim = RunOrFail(m, {}, kHostOnly);
        const FusionRun int8 = RunOrFail(m, AllFusionPasses(), kX86);
        ASSERT_FALSE(int8.outputs.empty());
        EXPECT_EQ(CounterOf(int8, "made_int8"), 1) << int8.pass_log;
        EXPECT_EQ(CounterOf(int8, "made_int8_frozen"), 1) << int8.pass_log;
        EXPECT_EQ(CounterOf(int8, "made_int8_" + std::string(type)), 1);
        EXPECT_TRUE(HasInt8Op(int8));
        EXPECT_EQ(FrozenOps(int8), 0);
        // The bias add and the batch norm after the dequantize op still fold.
        EXPECT_EQ(CountOps(int8.op_types, "elementwise_add"), 0);
        EXPECT_EQ(CountOps(int8.op_types, "batch_norm"), 0);
        ExpectNearSimulation(sim, int8);
      }
    }
  }
}

// x [1, 8, 6, 6] -> act quant -> conv2d_transpose 2x2 stride 2 (levels
// weight [8, 4, 2, 2], per output channel: axis 1) -> dequantize -> y.
TestModel FrozenConvTranspose(Dequant form) {
  TestModel m;
  m.Input("x", {1, 8, 6, 6});
  const std::string s = AddActQuant(&m, "x", kMovingAverage);
  const std::vector<float> ws =
      AddLevelsWeight(&m, "w", {8, 4, 2, 2}, form == Dequant::kMaxRange ? -1 : 1, 23);
  auto& deconv =
      m.Op("conv2d_transpose", {{"Input", {"x.q"}}, {"Filter", {"w"}}}, {{"Output", {"c"}}});
  deconv.SetAttr("strides", std::vector<int32_t>{2, 2});
  deconv.SetAttr("paddings", std::vector<int32_t>{0, 0});
  deconv.SetAttr("dilations", std::vector<int32_t>{1, 1});
  deconv.SetAttr("groups", 1);
  AddDequant(&m, "c", form, s, ws, 1);
  m.Output("c.dq");
  return m;
}

TEST(QuantFrozen, NonOverlappingConvTransposeBecomesInt8OnX86) {
  for (Dequant form : {Dequant::kMaxRange, Dequant::kChannelWise}) {
    SCOPED_TRACE(form == Dequant::kMaxRange ? "max_range" : "channel");
    const TestModel m = FrozenConvTranspose(form);
    const FusionRun sim = RunOrFail(m, {}, kHostOnly);
    const FusionRun int8 = RunOrFail(m, AllFusionPasses(), kX86);
    ASSERT_FALSE(int8.outputs.empty());
    EXPECT_EQ(CounterOf(int8, "made_int8_conv2d_transpose"), 1) << int8.pass_log;
    EXPECT_EQ(FrozenOps(int8), 0);
    ExpectNearSimulation(sim, int8);
  }
}

TEST(QuantFrozen, RangeAbsMaxActivationFusesLikeMovingAverage) {
  const TestModel m = FrozenConv("conv2d", Dequant::kChannelWise, kRange);
  const FusionRun sim = RunOrFail(m, {}, kHostOnly);
  const FusionRun int8 = RunOrFail(m, AllFusionPasses(), kX86);
  EXPECT_EQ(CounterOf(int8, "made_int8_frozen"), 1) << int8.pass_log;
  EXPECT_EQ(FrozenOps(int8), 0);
  ExpectNearSimulation(sim, int8);
}

TEST(QuantFrozen, HostOnlyOrDisabledKeepsTheExactSimulation) {
  for (Dequant form : {Dequant::kMaxRange, Dequant::kChannelWise}) {
    const TestModel m = FrozenConv("conv2d", form, kMovingAverage, true);
    const FusionRun plain = RunOrFail(m, {}, kHostOnly);
    const FusionRun host = RunOrFail(m, {kPass}, kHostOnly);
    EXPECT_EQ(CounterOf(host, "declined_no_int8_kernel"), 1) << host.pass_log;
    EXPECT_FALSE(HasInt8Op(host));
    EXPECT_EQ(FrozenOps(host), 2);
    ASSERT_FALSE(host.outputs.empty());
    EXPECT_EQ(host.outputs, plain.outputs);
    const FusionRun x86_sim = RunOrFail(m, AllBut(kPass), kX86);
    EXPECT_FALSE(HasInt8Op(x86_sim));
    EXPECT_EQ(FrozenOps(x86_sim), 2);
    ExpectNearSimulation(plain, x86_sim);
  }
}

// The host simulation computed by hand for one output: the levels product
// scaled by s_a * s_w / (127 * 127); the fused scales are those real scales.
TEST(QuantFrozen, Int8ScalesAreTheRealScales) {
  const TestModel m = FrozenConv("conv2d", Dequant::kMaxRange);
  const float max_range = m.program.blocks[0].ops[3].GetAttr<float>("max_range", 0.f);
  ASSERT_GT(max_range, 0.f);
  const FusionRun int8 = RunOrFail(m, AllFusionPasses(), kX86);
  int convs = 0;
  for (const auto& op : int8.program.blocks[0].ops) {
    if (op.Type() != "conv2d") continue;
    ++convs;
    EXPECT_FLOAT_EQ(op.GetAttr<float>("Input_scale", 0.f), kActScale);
    const auto fs = op.GetAttr<std::vector<float>>("Filter_scales", {});
    ASSERT_EQ(fs.size(), 8u);
    for (float f : fs) EXPECT_FLOAT_EQ(f, 127.f * 127.f / max_range);
  }
  EXPECT_EQ(convs, 1);
  // A 10% different activation scale in the simulation moves the result
  // beyond the tolerance: the comparison can fail.
  TestModel other = FrozenConv("conv2d", Dequant::kMaxRange);
  other.weights.at("x.scale").mutable_data<float>()[0] = kActScale * 1.1f;
  const FusionRun moved = RunOrFail(other, {}, kHostOnly);
  EXPECT_GT(MaxAbsDiff(moved.outputs, int8.outputs), 1e-3);
}

TEST(QuantFrozen, ProductsBecomeInt8OnX86AndMatchTheSimulation) {
  for (const char* type : {"mul", "fc", "matmul", "matmul_v2"}) {
    for (Dequant form : {Dequant::kMaxRange, Dequant::kChannelWise}) {
      SCOPED_TRACE(std::string(type) + (form == Dequant::kMaxRange ? " max_range" : " channel"));
      const TestModel m = FrozenProduct(type, form);
      const FusionRun sim = RunOrFail(m, {}, kHostOnly);
      const FusionRun int8 = RunOrFail(m, AllFusionPasses(), kX86);
      ASSERT_FALSE(int8.outputs.empty());
      EXPECT_EQ(CounterOf(int8, "made_int8_" + std::string(type)), 1) << int8.pass_log;
      EXPECT_EQ(CounterOf(int8, "made_int8_frozen"), 1);
      EXPECT_EQ(FrozenOps(int8), 0);
      ExpectNearSimulation(sim, int8);
      const FusionRun host = RunOrFail(m, {kPass}, kHostOnly);
      EXPECT_EQ(CounterOf(host, "declined_no_int8_kernel"), 1) << host.pass_log;
      EXPECT_EQ(host.outputs, sim.outputs);
    }
  }
}

TEST(QuantFrozen, ProductPlusBiasAfterTheDequantizeBecomesAnInt8Fc) {
  for (const char* type : {"mul", "matmul_v2"}) {
    SCOPED_TRACE(type);
    const TestModel m = FrozenProduct(type, Dequant::kChannelWise, true);
    const FusionRun sim = RunOrFail(m, {}, kHostOnly);
    const FusionRun int8 = RunOrFail(m, AllFusionPasses(), kX86);
    ASSERT_FALSE(int8.outputs.empty());
    EXPECT_EQ(CounterOf(int8, "made_int8_frozen"), 1) << int8.pass_log;
    EXPECT_EQ(CounterOf(int8, "int8"), 1) << int8.pass_log;  // fc_fuse_pass
    EXPECT_EQ(CountOps(int8.op_types, "fc"), 1);
    EXPECT_EQ(CountOps(int8.op_types, "elementwise_add"), 0);
    ExpectNearSimulation(sim, int8);
  }
}

TEST(QuantFrozen, LightPredictorRunsTheSavedInt8Program) {
  const TestModel conv = FrozenConv("conv2d", Dequant::kChannelWise, kMovingAverage, true);
  const FusionRun full = RunOrFail(conv, AllFusionPasses(), kX86);
  ASSERT_EQ(CounterOf(full, "made_int8_frozen"), 1);
  EXPECT_EQ(RunThroughNb(conv, kX86, "frozen_conv"), full.outputs);
  const TestModel mm = FrozenProduct("matmul_v2", Dequant::kMaxRange);
  const FusionRun mm_full = RunOrFail(mm, AllFusionPasses(), kX86);
  EXPECT_EQ(RunThroughNb(mm, kX86, "frozen_matmul"), mm_full.outputs);
  // The simulation on host, through the .nb as well.
  const FusionRun sim = RunOrFail(conv, AllFusionPasses(), kHostOnly);
  EXPECT_EQ(RunThroughNb(conv, kHostOnly, "frozen_conv_host"), sim.outputs);
}

TEST(QuantFrozen, RunTimeScaleIsDeclinedAndSimulated) {
  // fake_quantize_abs_max: the scale is max |x| of each run, no int8 form.
  const TestModel m = FrozenConv("conv2d", Dequant::kMaxRange, kAbsMax);
  const FusionRun sim = RunOrFail(m, {}, kHostOnly);
  const FusionRun x86 = RunOrFail(m, AllFusionPasses(), kX86);
  EXPECT_EQ(CounterOf(x86, "declined_dynamic_scale"), 1) << x86.pass_log;
  EXPECT_FALSE(HasInt8Op(x86));
  EXPECT_EQ(CountOps(x86.op_types, kAbsMax), 1);
  ExpectNearSimulation(sim, x86);
}

TEST(QuantFrozen, DequantizeScaleOtherThanTheQuantOpsIsDeclined) {
  TestModel m = FrozenConv("conv2d", Dequant::kMaxRange);
  m.Weight("other.scale", {1}, {0.5f});
  for (auto& op : m.program.blocks[0].ops) {
    if (op.Type() == kMaxAbsDequant) op.SetInput("Scale", {"other.scale"});
  }
  const FusionRun sim = RunOrFail(m, {}, kHostOnly);
  const FusionRun x86 = RunOrFail(m, AllFusionPasses(), kX86);
  EXPECT_EQ(CounterOf(x86, "declined_pattern"), 1) << x86.pass_log;
  EXPECT_FALSE(HasInt8Op(x86));
  ExpectNearSimulation(sim, x86);
}

TEST(QuantFrozen, MalformedOpsFailAtCreationNamingTheOp) {
  struct Case {
    TestModel model;
    std::string op, what;
  };
  auto edit = [](TestModel m, const std::string& type,
                 const std::function<void(cpp::OpDesc*)>& f) {
    for (auto& op : m.program.blocks[0].ops) {
      if (op.Type() == type) f(&op);
    }
    return m;
  };
  TestModel zero_scale = FrozenConv("conv2d", Dequant::kChannelWise);
  zero_scale.weights.at("x.scale").mutable_data<float>()[0] = 0.f;
  TestModel negative_w = FrozenConv("conv2d", Dequant::kChannelWise);
  negative_w.weights.at("c.ws").mutable_data<float>()[3] = -0.2f;
  const std::string q = std::string(kMovingAverage) + " (output: x.q)";
  const std::vector<Case> cases = {
      {edit(FrozenConv("conv2d", Dequant::kMaxRange), kMaxAbsDequant,
            [](cpp::OpDesc* d) { d->SetAttr("max_range", 0.f); }),
       std::string(kMaxAbsDequant) + " (output: c.dq)", "max_range 0"},
      {edit(FrozenConv("conv2d", Dequant::kChannelWise), kChannelDequant,
            [](cpp::OpDesc* d) { d->SetAttr("quant_bits", std::vector<int32_t>{8, 4}); }),
       std::string(kChannelDequant) + " (output: c.dq)", "quant_bits 4"},
      {std::move(negative_w), std::string(kChannelDequant) + " (output: c.dq)",
       "must be finite and > 0"},
      {std::move(zero_scale), q, "must be finite and > 0"},
      {edit(FrozenConv("conv2d", Dequant::kMaxRange), kMovingAverage,
            [](cpp::OpDesc* d) { d->SetAttr("bit_length", 16); }),
       q, "bit_length 16"},
      {edit(FrozenConv("conv2d", Dequant::kMaxRange), kMovingAverage,
            [](cpp::OpDesc* d) { d->SetInput("InScale", {"no_such_scale"}); }),
       q, "no_such_scale"},
  };
  for (const Case& c : cases) {
    for (const auto& places : {kX86, kHostOnly}) {
      ExpectCreationFailsNaming(c.model, places, c.op, c.what);
    }
  }
}

// moving_average_abs_max_scale left in a QAT export: with Out bound the
// consumers read a copy of X; without it (the static form) it only observes.
TEST(QuantFrozen, ScaleObserverPassesXThrough) {
  TestModel plain;
  plain.Input("x", {2, 3, 4});
  plain.Op("relu", {{"X", {"x"}}}, {{"Out", {"y"}}});
  plain.Output("y");
  for (bool with_out : {true, false}) {
    SCOPED_TRACE(with_out ? "Out bound" : "no Out");
    TestModel m;
    m.Input("x", {2, 3, 4});
    m.Weight("x.obs.scale", {1}, {1.f});
    std::map<std::string, std::vector<std::string>> outs = {{"OutScale", {"x.obs.scale"}}};
    if (with_out) outs["Out"] = {"x.obs"};
    m.Op("moving_average_abs_max_scale", {{"X", {"x"}}}, outs).SetAttr("is_test", true);
    m.Op("relu", {{"X", {with_out ? "x.obs" : "x"}}}, {{"Out", {"y"}}});
    m.Output("y");
    for (const auto& places : {kHostOnly, kX86}) {
      const FusionRun a = RunOrFail(m, AllFusionPasses(), places);
      const FusionRun b = RunOrFail(plain, AllFusionPasses(), places);
      ASSERT_FALSE(a.outputs.empty());
      EXPECT_EQ(a.outputs, b.outputs);
    }
  }
}

}  // namespace
}  // namespace testing
}  // namespace fusion
}  // namespace mir
}  // namespace lite
