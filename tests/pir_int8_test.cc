// A Paddle 3 int8 export end to end: an inference.json whose activation
// goes through pd_op.quantize_linear -> pd_op.dequantize_linear and whose
// matmul weight is stored as int8 levels behind a lone dequantize_linear
// (PaddleSlim's layout), with its .pdiparams stream. On x86 the matmul runs
// int8 (quant_dequant_fuse_pass), on host the float32 simulation of the
// quant ops; both are checked against the product computed here from the
// levels, and the light predictor runs the saved int8 model.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "lite/api/paddle_api.h"
#include "lite/model_parser/pir/pir_test_util.h"
#include "lite/model_parser/tensor_io.h"

namespace {

using namespace lite::pir_test;  // NOLINT
using paddle::lite_api::CreatePaddlePredictor;
using paddle::lite_api::CxxConfig;
using paddle::lite_api::MobileConfig;
using paddle::lite_api::PaddlePredictor;

constexpr int kM = 3, kK = 16, kN = 8;
constexpr float kInScale = 0.8f;

std::vector<std::string> LinearAttrs(int axis) {
  return {Attr("quant_axis", "0.a_i32", std::to_string(axis)),
          Attr("bit_length", "0.a_i32", "8"), Attr("round_type", "0.a_i32", "0"),
          Attr("is_test", "0.a_bool", "true"), Attr("only_observer", "0.a_bool", "false")};
}

std::string Program() {
  const std::string x = Dense("f32", "[3,16]"), one = Dense("f32", "[1]");
  return ProgramJson({
      ParamJson(1, "w_levels", "[16,8]", "i8"), ParamJson(2, "w_scale", "[8]"),
      ParamJson(3, "w_zp", "[8]"), ParamJson(4, "x_scale", "[1]"), ParamJson(5, "x_zp", "[1]"),
      OpJson("1.data", {StrAttr("name", "x"), Attr("shape", "1.a_intarray", "[3,16]"),
                        Attr("dtype", "1.a_dtype", "\"float32\"")},
             {}, {{6, x}}),
      OpJson("1.quantize_linear", LinearAttrs(-1), {6, 4, 5, 0, 0},
             {{7, x}, {20, one}, {21, one}, {22, one}}),
      OpJson("1.dequantize_linear", LinearAttrs(-1), {7, 4, 5, 0, 0},
             {{8, x}, {23, one}, {24, one}, {25, one}}),
      OpJson("1.dequantize_linear", LinearAttrs(1), {1, 2, 3, 0, 0},
             {{9, Dense("f32", "[16,8]")}, {26, one}, {27, one}, {28, Dense("f32", "[8]")}}),
      OpJson("1.matmul", {Attr("transpose_x", "0.a_bool", "false"),
                          Attr("transpose_y", "0.a_bool", "false")},
             {8, 9}, {{10, Dense("f32", "[3,8]")}}),
      OpJson("1.fetch", {StrAttr("name", "y"), Attr("col", "0.a_i32", "0")}, {10},
             {{11, Dense("f32", "[3,8]")}}),
  });
}

int8_t Level(int i) { return static_cast<int8_t>((i * 53) % 255 - 127); }
float WeightScale(int c) { return 0.02f + 0.005f * c; }

template <typename T>
std::string Record(const std::vector<int64_t>& dims, const std::vector<T>& values) {
  lite::Tensor t;
  t.Resize(lite::DDim(dims));
  T* p = t.mutable_data<T>();
  for (size_t i = 0; i < values.size(); ++i) p[i] = values[i];
  std::string out;
  lite::WriteTensorRecord(t, &out);
  return out;
}

// Records in sorted-name order: w_levels, w_scale, w_zp, x_scale, x_zp.
std::string Params() {
  std::vector<int8_t> levels(kK * kN);
  for (int i = 0; i < kK * kN; ++i) levels[i] = Level(i);
  std::vector<float> scales(kN);
  for (int c = 0; c < kN; ++c) scales[c] = WeightScale(c);
  return Record<int8_t>({kK, kN}, levels) + Record<float>({kN}, scales) +
         Record<float>({kN}, std::vector<float>(kN, 0.f)) + Record<float>({1}, {kInScale}) +
         Record<float>({1}, {0.f});
}

std::vector<float> Input() {
  std::vector<float> x(kM * kK);
  for (size_t i = 0; i < x.size(); ++i) x[i] = 0.11f * static_cast<float>(i % 17) - 0.9f;
  return x;
}

// The product from the levels: x quantized with ties to even, clamped to
// [-128, 127]; value = level * scale / 127 on both sides.
std::vector<double> Expected() {
  const std::vector<float> x = Input();
  std::vector<double> y(kM * kN, 0.0);
  for (int r = 0; r < kM; ++r) {
    for (int c = 0; c < kN; ++c) {
      for (int k = 0; k < kK; ++k) {
        const double lx =
            std::fmin(127.0, std::fmax(-128.0, std::nearbyint(127.f / kInScale * x[r * kK + k])));
        y[r * kN + c] += lx * kInScale / 127.0 * Level(k * kN + c) * WeightScale(c) / 127.0;
      }
    }
  }
  return y;
}

std::vector<float> RunOn(PaddlePredictor* p) {
  const std::vector<float> x = Input();
  auto in = p->GetInput(0);
  in->Resize({kM, kK});
  in->CopyFromCpu(x.data());
  lite::Status s = p->Run();
  EXPECT_TRUE(s.ok()) << s.ToString();
  if (!s.ok()) return {};
  auto out = p->GetOutput(0);
  return std::vector<float>(out->data<float>(), out->data<float>() + out->numel());
}

void ExpectNear(const std::vector<float>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5) << i;
}

TEST(PirInt8, LinearFormMatmulRunsInt8OnX86AndAsTheSimulationOnHost) {
  const std::string json = Program(), params = Params();
  const std::vector<double> want = Expected();
  // The x86 target exists in x86-64 builds only (not in --config=aarch64,
  // where the matmul stays the host simulation).
#if defined(__x86_64__)
  const std::vector<bool> targets = {true, false};
#else
  const std::vector<bool> targets = {false};
#endif
  for (bool x86 : targets) {
    SCOPED_TRACE(x86 ? "x86" : "host");
    CxxConfig config;
    config.set_model_buffer(json.data(), json.size(), params.data(), params.size());
    if (x86) {
      config.set_valid_places({lite::Place(lite::TargetType::kX86),
                               lite::Place(lite::TargetType::kHost)});
    }
    auto full = CreatePaddlePredictor<CxxConfig>(config);
    ASSERT_TRUE(full.ok()) << full.status().ToString();
    const std::string log = (*full)->GetPassLog();
    EXPECT_EQ(log.find("made_int8_matmul_v2=1") != std::string::npos, x86) << log;
    const std::vector<float> y = RunOn(full->get());
    ExpectNear(y, want);
    if (!x86) continue;
    const char* tmp = std::getenv("TEST_TMPDIR");
    const std::string nb = std::string(tmp ? tmp : "/tmp") + "/pir_int8_matmul.nb";
    ASSERT_TRUE((*full)->SaveOptimizedModel(nb, paddle::lite_api::ModelType::kNaiveBuffer).ok());
    MobileConfig mc;
    mc.set_model_from_file(nb);
    auto light = CreatePaddlePredictor<MobileConfig>(mc);
    ASSERT_TRUE(light.ok()) << light.status().ToString();
    EXPECT_EQ(RunOn(light->get()), y);
  }
}

}  // namespace
