// Post-training quantization: each method's scale on crafted distributions,
// a small conv model calibrated on generated .bin samples and rewritten into
// the fake-quantized form, its .nb loaded by the light predictor with every
// conv int8 and outputs close to fp32; bad calibration folders are errors.
#include "tools/calibration.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>

#include "lite/api/optimizer.h"
#include "lite/api/saving.h"
#include "tests/passes/fusion_test_util.h"
#include "lite/utils/file_util.h"
#include "lite/model_parser/naive_buffer/naive_buffer.h"
#include "tools/tool_util.h"

namespace lite {
namespace tools {
namespace {

using mir::fusion::testing::TestModel;

// Places with an int8 conv kernel, for which quant_dequant_fuse_pass makes
// convs int8: the x86 target's, or where there is no x86 target (aarch64)
// the XNNPACK NPU driver's, whose subgraph op keeps the int8 convs in its
// sub-block.
#if defined(__x86_64__)
const std::vector<Place> kInt8Places = {Place(TargetType::kX86), Place(TargetType::kHost)};
#else
const std::vector<Place> kInt8Places = {Place(TargetType::kNPU), Place(TargetType::kHost)};
#endif

std::string TempDir(const std::string& name) {
  const char* t = std::getenv("TEST_TMPDIR");
  const std::string dir = JoinPath(t ? t : "/tmp", name);
  EXPECT_TRUE(MakeDirs(dir).ok());
  return dir;
}

// n values uniform in [-1, 1) from an LCG.
std::vector<float> Uniform(int64_t n, uint32_t seed) {
  std::vector<float> v(static_cast<size_t>(n));
  for (auto& x : v) {
    seed = seed * 1664525u + 1013904223u;
    x = static_cast<float>(seed >> 8) / 8388608.f - 1.f;
  }
  return v;
}

AbsHistogram HistogramOf(const std::vector<float>& v) {
  AbsHistogram h(AbsMax(v.data(), static_cast<int64_t>(v.size())));
  h.Add(v.data(), static_cast<int64_t>(v.size()));
  return h;
}

TEST(CalibrationStats, MethodsOnAnOutlier) {
  std::vector<float> v = Uniform(100000, 3);
  v.push_back(100.f);  // one outlier far above the bulk in [-1, 1]
  EXPECT_FLOAT_EQ(AbsMax(v.data(), static_cast<int64_t>(v.size())), 100.f);
  const AbsHistogram h = HistogramOf(v);
  const float pct = PercentileThreshold(h, 99.99);
  EXPECT_GE(pct, 0.99f);  // the bulk is kept
  EXPECT_LT(pct, 1.1f);   // the outlier is clipped
  const float kl = KlThreshold(h);
  EXPECT_GE(kl, 0.99f);
  EXPECT_LT(kl, 75.f);  // clips the outlier (candidates start at half the range, 50)
}

TEST(CalibrationStats, KlKeepsTheRangeWithoutOutliers) {
  const std::vector<float> v = Uniform(100000, 5);
  const AbsHistogram h = HistogramOf(v);
  EXPECT_GE(KlThreshold(h), 0.9f * h.range());
  EXPECT_GE(PercentileThreshold(h, 99.99), 0.99f * h.range());
  EXPECT_FLOAT_EQ(PercentileThreshold(h, 100), h.range());
}

TEST(CalibrationStats, ExactZerosAreNotCounted) {
  const std::vector<float> v = {0.f, 0.f, 0.f, 0.f, -1.f, 0.5f};
  const AbsHistogram h = HistogramOf(v);
  double total = 0;
  for (double c : h.counts()) total += c;
  EXPECT_DOUBLE_EQ(total, 2.0);
  EXPECT_DOUBLE_EQ(h.counts().back(), 1.0);  // |-1| = range: the last bin
  // Half of the non-zero values lie at or below 0.5.
  EXPECT_NEAR(PercentileThreshold(h, 50), 0.5f, h.bin_width() * 1.01);
}

TEST(CalibrationStats, ParseMethod) {
  EXPECT_EQ(*ParseCalibrationMethod("kl"), CalibrationMethod::kKl);
  EXPECT_EQ(*ParseCalibrationMethod("percentile"), CalibrationMethod::kPercentile);
  EXPECT_EQ(*ParseCalibrationMethod("abs_max"), CalibrationMethod::kAbsMax);
  EXPECT_TRUE(CheckQuantizableOpTypes({"conv2d", "depthwise_conv2d"}).ok());
  EXPECT_FALSE(CheckQuantizableOpTypes({}).ok());
  auto fc = CheckQuantizableOpTypes({"conv2d", "fc"});
  ASSERT_FALSE(fc.ok());
  EXPECT_NE(fc.ToString().find("'fc'"), std::string::npos);
  auto bad = ParseCalibrationMethod("minmax");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().ToString().find("'minmax'"), std::string::npos);
}

TEST(CalibrationStats, BinaryMapIou) {
  const float a[] = {0.9f, 0.9f, 0.1f, 0.f};
  const float b[] = {0.9f, 0.1f, 0.9f, 0.f};
  EXPECT_DOUBLE_EQ(BinaryMapIou(a, b, 4, 0.3f), 1.0 / 3);
  EXPECT_DOUBLE_EQ(BinaryMapIou(a + 3, b + 3, 1, 0.3f), 1.0);
}

void Conv(TestModel* m, const std::string& type, const std::string& in, const std::string& w,
          const std::string& out, int groups, int pad) {
  auto& conv = m->Op(type, {{"Input", {in}}, {"Filter", {w}}}, {{"Output", {out}}});
  conv.SetAttr("strides", std::vector<int32_t>{1, 1});
  conv.SetAttr("paddings", std::vector<int32_t>{pad, pad});
  conv.SetAttr("dilations", std::vector<int32_t>{1, 1});
  conv.SetAttr("groups", groups);
}

// x [1,4,hw,hw] -> conv 3x3 (8) -> relu -> depthwise 3x3 -> relu -> conv 1x1 (6) -> y
TestModel ConvModel(int64_t hw = 12) {
  TestModel m;
  m.Input("x", {1, 4, hw, hw});
  m.RandomWeight("w1", {8, 4, 3, 3}, -0.5f, 0.5f);
  m.RandomWeight("w2", {8, 1, 3, 3}, -0.5f, 0.5f);
  m.RandomWeight("w3", {6, 8, 1, 1}, -0.5f, 0.5f);
  Conv(&m, "conv2d", "x", "w1", "c1", 1, 1);
  m.Op("relu", {{"X", {"c1"}}}, {{"Out", {"r1"}}});
  Conv(&m, "depthwise_conv2d", "r1", "w2", "c2", 8, 1);
  m.Op("relu", {{"X", {"c2"}}}, {{"Out", {"r2"}}});
  Conv(&m, "conv2d", "r2", "w3", "y", 1, 0);
  m.Output("y");
  return m;
}

std::shared_ptr<Scope> WeightsOf(const TestModel& m) {
  auto root = std::make_shared<Scope>();
  for (const auto& kv : m.weights) {
    Tensor* t = root->Var(kv.first)->GetMutableTensor();
    t->CopyDataFrom(kv.second);
    t->set_persistable(true);
  }
  return root;
}

void WriteFloats(const std::string& path, const std::vector<float>& v) {
  std::ofstream f(path, std::ios::binary);
  f.write(reinterpret_cast<const char*>(v.data()), static_cast<std::streamsize>(v.size() * 4));
}

// Calibrates the small conv model for `places` and checks its written .nb
// (light predictor): every conv int8, outputs near fp32's.
void CheckSmallConvModelBecomesInt8(const std::vector<Place>& places) {
  const TestModel model = ConvModel();
  const std::string dir = TempDir("calib_samples");
  for (int i = 0; i < 4; ++i) {
    WriteFloats(JoinPath(dir, "page" + std::to_string(i) + ".bin"), Uniform(4 * 12 * 12, 11 + i));
  }
  auto samples = LoadCalibrationSamples(dir, model.program, {});
  ASSERT_TRUE(samples.ok()) << samples.status().ToString();
  ASSERT_EQ(samples->size(), 4u);

  auto weights = WeightsOf(model);
  CalibrationOptions options;
  options.places = places;
  options.op_types = {"conv2d", "depthwise_conv2d"};
  auto calib = Calibrate(model.program, *weights, *samples, options);
  ASSERT_TRUE(calib.ok()) << calib.status().ToString();
  ASSERT_EQ(calib->scales.size(), 3u);  // x, r1, r2
  EXPECT_EQ(calib->scales[0].var, "x");
  for (const auto& s : calib->scales) {
    EXPECT_GT(s.scale, 0.f) << s.var;
    EXPECT_FLOAT_EQ(s.scale, s.abs_max) << s.var;  // abs_max method
  }
  EXPECT_LE(calib->scales[0].abs_max, 1.f);
  EXPECT_GE(calib->scales[0].abs_max, 0.95f);

  // The default op types leave the depthwise conv in fp32.
  cpp::ProgramDesc convs_only = model.program;
  auto made_default =
      InsertFakeQuantOps(calib->scales, CalibrationOptions().op_types, &convs_only, weights.get());
  ASSERT_TRUE(made_default.ok()) << made_default.status().ToString();
  EXPECT_EQ(*made_default, 2);
  for (const auto& op : convs_only.blocks[0].ops) {
    if (op.Type() == "depthwise_conv2d") {
      EXPECT_EQ(op.Input("Input").front(), "r1");
    }
  }

  cpp::ProgramDesc program = model.program;
  auto made = InsertFakeQuantOps(calib->scales, options.op_types, &program, weights.get());
  ASSERT_TRUE(made.ok()) << made.status().ToString();
  EXPECT_EQ(*made, 3);
  int act = 0, wq = 0;
  for (const auto& op : program.blocks[0].ops) {
    act += op.Type() == "fake_quantize_dequantize_moving_average_abs_max";
    wq += op.Type() == "fake_channel_wise_quantize_dequantize_abs_max";
  }
  EXPECT_EQ(act, 3);
  EXPECT_EQ(wq, 3);

  OptimizeOptions opt;
  opt.valid_places = places;
  auto optimized = OptimizeProgram(program, weights.get(), opt);
  ASSERT_TRUE(optimized.ok()) << optimized.status().ToString();
  const std::string out = JoinPath(TempDir("calib_out"), "model");
  std::string written;
  ASSERT_TRUE(SaveOptimizedVerified(optimized->program, *weights, out,
                                    paddle::lite_api::ModelType::kNaiveBuffer, nullptr, &written)
                  .ok());

  // Every conv of the written model (in any block: an NPU subgraph's are in
  // its sub-block) is int8 and no quant op is left.
  cpp::ProgramDesc loaded;
  Scope loaded_scope;
  ASSERT_TRUE(naive_buffer::LoadFromFile(written, &loaded, &loaded_scope).ok());
  int int8_convs = 0, convs = 0, quant_ops = 0;
  for (const auto& block : loaded.blocks) {
    for (const auto& op : block.ops) {
      if (op.Type().find("conv2d") != std::string::npos) {
        ++convs;
        int8_convs += op.GetAttr<bool>("enable_int8", false);
      }
      quant_ops += op.Type().find("quantize") != std::string::npos;
    }
  }
  EXPECT_EQ(convs, 3);
  EXPECT_EQ(int8_convs, 3);
  EXPECT_EQ(quant_ops, 0);

  paddle::lite_api::MobileConfig config;
  config.set_model_from_file(written);
  auto light = paddle::lite_api::CreatePaddlePredictor(config);
  ASSERT_TRUE(light.ok()) << light.status().ToString();
  auto acc = CompareWithFp32(light->get(), *samples, calib->outputs);
  ASSERT_TRUE(acc.ok()) << acc.status().ToString();
  ASSERT_EQ(acc->size(), 1u);
  float range = 0;
  for (const auto& o : calib->outputs) {
    range = std::max(range, AbsMax(o[0].data.data(), static_cast<int64_t>(o[0].data.size())));
  }
  EXPECT_GT(range, 0.1f);
  EXPECT_GT((*acc)[0].max_abs_diff, 0.0);  // really int8, not the fp32 program
  EXPECT_LT((*acc)[0].max_abs_diff, 0.03 * range) << FormatAccuracy((*acc)[0], samples->size());
}

TEST(Calibration, SmallConvModelBecomesInt8) { CheckSmallConvModelBecomesInt8(kInt8Places); }

// The arm target's int8 convs (XNNPACK): without them the convs would stay
// the fp32 simulation (declined_no_int8_kernel) and the count fails.
TEST(Calibration, SmallConvModelBecomesInt8OnArm) {
  CheckSmallConvModelBecomesInt8({Place(TargetType::kARM), Place(TargetType::kHost)});
}

// Samples whose input holds one outlier (50; the rest in (-1, 1), denser
// near 0): through the whole calibration run, abs_max keeps it, percentile
// (99%) and kl clip it.
TEST(Calibration, EachMethodOnAnInputWithAnOutlier) {
  const TestModel model = ConvModel(64);
  const std::string dir = TempDir("calib_methods");
  for (int i = 0; i < 2; ++i) {
    const std::vector<float> a = Uniform(4 * 64 * 64, 40 + i);
    const std::vector<float> b = Uniform(4 * 64 * 64, 80 + i);
    std::vector<float> v(a.size());
    for (size_t k = 0; k < v.size(); ++k) v[k] = 0.5f * (a[k] + b[k]);
    if (i == 1) v[100] = 50.f;
    WriteFloats(JoinPath(dir, std::to_string(i) + ".bin"), v);
  }
  auto samples = LoadCalibrationSamples(dir, model.program, {});
  ASSERT_TRUE(samples.ok());
  auto weights = WeightsOf(model);
  std::map<CalibrationMethod, float> input_scale;
  for (auto method :
       {CalibrationMethod::kAbsMax, CalibrationMethod::kKl, CalibrationMethod::kPercentile}) {
    CalibrationOptions options;
    options.method = method;
    options.percentile = 99.0;
    options.op_types = {"conv2d", "depthwise_conv2d"};
    auto calib = Calibrate(model.program, *weights, *samples, options);
    ASSERT_TRUE(calib.ok()) << calib.status().ToString();
    ASSERT_EQ(calib->scales[0].var, "x");
    input_scale[method] = calib->scales[0].scale;
    for (const auto& s : calib->scales) {
      EXPECT_GT(s.scale, 0.f) << CalibrationMethodName(method) << " " << s.var;
      EXPECT_LE(s.scale, s.abs_max * (1 + 1e-6f)) << CalibrationMethodName(method) << " " << s.var;
    }
  }
  EXPECT_FLOAT_EQ(input_scale[CalibrationMethod::kAbsMax], 50.f);
  EXPECT_GE(input_scale[CalibrationMethod::kPercentile], 0.8f);
  EXPECT_LT(input_scale[CalibrationMethod::kPercentile], 1.1f);
  EXPECT_GE(input_scale[CalibrationMethod::kKl], 0.9f);
  EXPECT_LT(input_scale[CalibrationMethod::kKl], 37.5f);  // from half the range (25) up
}

void ExpectError(const StatusOr<std::vector<CalibrationSample>>& r, const std::string& needle) {
  ASSERT_FALSE(r.ok()) << "expected an error naming " << needle;
  EXPECT_NE(r.status().ToString().find(needle), std::string::npos) << r.status().ToString();
}

TEST(Calibration, BadFoldersAreErrorsNamingTheFile) {
  const TestModel model = ConvModel();
  const std::string missing = JoinPath(TempDir("calib_bad"), "missing");
  ExpectError(LoadCalibrationSamples(missing, model.program, {}), missing);
  const std::string empty = TempDir("calib_empty");
  ExpectError(LoadCalibrationSamples(empty, model.program, {}), empty);
  const std::string wrong = TempDir("calib_wrong");
  WriteFloats(JoinPath(wrong, "a.bin"), Uniform(4 * 12 * 12, 1));
  WriteFloats(JoinPath(wrong, "b.bin"), Uniform(100, 1));
  ExpectError(LoadCalibrationSamples(wrong, model.program, {}), JoinPath(wrong, "b.bin"));
  // An explicit shape the files do not have.
  ExpectError(LoadCalibrationSamples(wrong, model.program, {1, 4, 10, 10}),
              JoinPath(wrong, "a.bin"));
  // A reference folder whose meta.json lacks the model's feed.
  const std::string ref = TempDir("calib_ref");
  std::ofstream(JoinPath(ref, "meta.json"))
      << R"({"model": "m", "inputs": [], "outputs": [], "tolerance": {"max_abs": 0, "max_rel": 0}})";
  auto r = LoadCalibrationSamples(ref, model.program, {});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().ToString().find(ref), std::string::npos) << r.status().ToString();
  // A reference folder whose input has another shape than the one asked for.
  const std::string ref_ok = TempDir("calib_ref_ok");
  WriteFloats(JoinPath(ref_ok, "x.bin"), Uniform(4 * 12 * 12, 2));
  std::ofstream(JoinPath(ref_ok, "meta.json"))
      << R"({"model": "m", "inputs": [{"name": "x", "shape": [1, 4, 12, 12], )"
      << R"("dtype": "float32", "file": "x.bin"}], "outputs": [], )"
      << R"("tolerance": {"max_abs": 0, "max_rel": 0}})";
  auto one = LoadCalibrationSamples(ref_ok, model.program, {});
  ASSERT_TRUE(one.ok()) << one.status().ToString();
  ASSERT_EQ(one->size(), 1u);
  EXPECT_EQ(one->front().feeds[0].shape, (std::vector<int64_t>{1, 4, 12, 12}));
  r = LoadCalibrationSamples(ref_ok, model.program, {1, 4, 10, 10});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().ToString().find(ref), std::string::npos) << r.status().ToString();
}

}  // namespace
}  // namespace tools
}  // namespace lite
