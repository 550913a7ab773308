// Small Paddle 3 PIR programs built in the test, run through the full and
// the light predictor: the constructs real PIR models use that the shared
// models do not all exercise (a recognizer's reshape target built at run
// time from shape64 -> 0-D slice -> stack, split_with_num + builtin.split,
// combine + concat with an int32 `full` axis written as 1.0), checked
// against outputs computed here from the input.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>

#include "lite/api/paddle_api.h"
#include "lite/model_parser/pir/pir_test_util.h"

namespace {

using namespace lite::pir_test;  // NOLINT
using paddle::lite_api::CreatePaddlePredictor;
using paddle::lite_api::CxxConfig;
using paddle::lite_api::MobileConfig;
using paddle::lite_api::PaddlePredictor;

std::string IntArray(int id, const std::string& values) {
  return OpJson("1.full_int_array",
                {ArrayAttr("value", "a_i64", values), Attr("dtype", "1.a_dtype", "\"int64\"")},
                {}, {{id, Dense("i64", "[1]")}});
}

// x [N,4,2,3] -> reshape to [N, -1] with the target stacked from shape64(x)[0]
// and -1 -> split_with_num(2, axis 1) -> (a, b) -> concat([b, a * b], axis 1).
std::string RecognizerLikeProgram() {
  return ProgramJson({
      OpJson("1.data", {StrAttr("name", "x"), Attr("shape", "1.a_intarray", "[-1,4,2,3]"),
                        Attr("dtype", "1.a_dtype", "\"float32\"")},
             {}, {{1, Dense("f32", "[-1,4,2,3]")}}),
      OpJson("1.shape64", {}, {1}, {{2, Dense("i64", "[4]")}}),
      IntArray(3, "0"),
      IntArray(4, "1"),
      OpJson("1.slice",
             {ArrayAttr("axes", "a_i64", "0"), ArrayAttr("infer_flags", "a_i64", "1"),
              ArrayAttr("decrease_axis", "a_i64", "0")},
             {2, 3, 4}, {{5, Dense("i64", "[]")}}),
      OpJson("1.full",
             {Attr("shape", "1.a_intarray", "[]"), Attr("value", "0.a_f64", "-1.0"),
              Attr("dtype", "1.a_dtype", "\"int64\"")},
             {}, {{6, Dense("i64", "[]")}}),
      OpJson("0.combine", {}, {5, 6},
             {{7, R"({"#":"0.t_vec","D":[)" + Dense("i64", "[]") + "," + Dense("i64", "[]") +
                      "]}"}}),
      OpJson("1.stack", {Attr("axis", "0.a_i32", "0")}, {7}, {{8, Dense("i64", "[2]")}}),
      OpJson("1.reshape", {}, {1, 8}, {{9, Dense("f32", "[-1,-1]")}}),
      OpJson("1.full",
             {Attr("shape", "1.a_intarray", "[1]"), Attr("value", "0.a_f64", "1.0"),
              Attr("dtype", "1.a_dtype", "\"int32\"")},
             {}, {{10, Dense("i32", "[1]")}}),
      OpJson("1.split_with_num", {Attr("num", "0.a_i32", "2")}, {9, 10},
             {{11, R"({"#":"0.t_vec","D":[)" + Dense("f32", "[-1,12]") + "," +
                       Dense("f32", "[-1,12]") + "]}"}}),
      OpJson("0.split", {}, {11}, {{12, Dense("f32", "[-1,12]")}, {13, Dense("f32", "[-1,12]")}}),
      OpJson("1.multiply", {}, {12, 13}, {{14, Dense("f32", "[-1,12]")}}),
      OpJson("0.combine", {}, {13, 14},
             {{15, R"({"#":"0.t_vec","D":[)" + Dense("f32", "[-1,12]") + "," +
                       Dense("f32", "[-1,12]") + "]}"}}),
      OpJson("1.concat", {}, {15, 10}, {{16, Dense("f32", "[-1,24]")}}),
      OpJson("1.fetch", {StrAttr("name", "y"), Attr("col", "0.a_i32", "0")}, {16},
             {{17, Dense("f32", "[-1,24]")}}),
  });
}

std::vector<float> RunOn(PaddlePredictor* p, const std::vector<float>& x, int n,
                         std::vector<int64_t>* shape) {
  auto in = p->GetInput(0);
  in->Resize({n, 4, 2, 3});
  in->CopyFromCpu(x.data());
  lite::Status s = p->Run();
  EXPECT_TRUE(s.ok()) << s.ToString();
  if (!s.ok()) return {};
  auto out = p->GetOutput(0);
  *shape = out->shape();
  return std::vector<float>(out->data<float>(), out->data<float>() + out->numel());
}

TEST(PirPrograms, RunTimeReshapeTargetSplitAndConcat) {
  const std::string json = RecognizerLikeProgram();
  CxxConfig config;
  config.set_model_buffer(json.data(), json.size(), "", 0);
  auto full = CreatePaddlePredictor<CxxConfig>(config);
  ASSERT_TRUE(full.ok()) << full.status().ToString();
  for (int n : {2, 3}) {  // the reshape target follows the batch
    std::vector<float> x(n * 24);
    for (size_t i = 0; i < x.size(); ++i) x[i] = 0.25f * static_cast<float>(i % 11) - 1.0f;
    std::vector<int64_t> shape;
    const std::vector<float> y = RunOn(full->get(), x, n, &shape);
    ASSERT_EQ(shape, (std::vector<int64_t>{n, 24}));
    for (int r = 0; r < n; ++r) {
      for (int c = 0; c < 12; ++c) {
        const float a = x[r * 24 + c], b = x[r * 24 + 12 + c];
        EXPECT_EQ(y[r * 24 + c], b) << "row " << r << " col " << c;
        EXPECT_EQ(y[r * 24 + 12 + c], a * b) << "row " << r << " col " << c;
      }
    }
    if (n == 2) {
      // The same through .nb and the light predictor.
      const char* tmp = std::getenv("TEST_TMPDIR");
      const std::string nb = std::string(tmp ? tmp : "/tmp") + "/pir_recognizer_like.nb";
      ASSERT_TRUE(
          (*full)->SaveOptimizedModel(nb, paddle::lite_api::ModelType::kNaiveBuffer).ok());
      MobileConfig mc;
      mc.set_model_from_file(nb);
      auto light = CreatePaddlePredictor<MobileConfig>(mc);
      ASSERT_TRUE(light.ok()) << light.status().ToString();
      std::vector<int64_t> light_shape;
      EXPECT_EQ(RunOn(light->get(), x, n, &light_shape), y);
    }
  }
}

// x [2,3] -> tile(x, [1,2]) -> [2,6] -> topk(k=2, axis -1) -> (values,
// indices) -> elu(values, alpha 0.5): rules of the array and unary tables,
// run end to end.
TEST(PirPrograms, TileTopkAndElu) {
  const std::string json = ProgramJson({
      OpJson("1.data", {StrAttr("name", "x"), Attr("shape", "1.a_intarray", "[2,3]"),
                        Attr("dtype", "1.a_dtype", "\"float32\"")},
             {}, {{1, Dense("f32", "[2,3]")}}),
      OpJson("1.full_int_array",
             {ArrayAttr("value", "a_i64", "1,2"), Attr("dtype", "1.a_dtype", "\"int64\"")}, {},
             {{2, Dense("i64", "[2]")}}),
      OpJson("1.tile", {}, {1, 2}, {{3, Dense("f32", "[2,6]")}}),
      OpJson("1.full",
             {Attr("shape", "1.a_intarray", "[1]"), Attr("value", "0.a_f64", "2.0"),
              Attr("dtype", "1.a_dtype", "\"int32\"")},
             {}, {{4, Dense("i32", "[1]")}}),
      OpJson("1.topk",
             {Attr("axis", "0.a_i32", "-1"), Attr("largest", "0.a_bool", "false"),
              Attr("sorted", "0.a_bool", "true")},
             {3, 4}, {{5, Dense("f32", "[2,2]")}, {6, Dense("i64", "[2,2]")}}),
      OpJson("1.elu", {Attr("alpha", "0.a_f32", "0.5")}, {5}, {{7, Dense("f32", "[2,2]")}}),
      OpJson("1.fetch", {StrAttr("name", "values"), Attr("col", "0.a_i32", "0")}, {7},
             {{8, Dense("f32", "[2,2]")}}),
      OpJson("1.fetch", {StrAttr("name", "indices"), Attr("col", "0.a_i32", "1")}, {6},
             {{9, Dense("i64", "[2,2]")}}),
  });
  CxxConfig config;
  config.set_model_buffer(json.data(), json.size(), "", 0);
  auto p = CreatePaddlePredictor<CxxConfig>(config);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  const std::vector<float> x = {0.5f, -2.f, -1.f, 3.f, -4.f, 1.f};
  auto in = (*p)->GetInput(0);
  in->Resize({2, 3});
  in->CopyFromCpu(x.data());
  lite::Status s = (*p)->Run();
  ASSERT_TRUE(s.ok()) << s.ToString();
  auto values = (*p)->GetOutput(0);
  auto indices = (*p)->GetOutput(1);
  ASSERT_EQ(values->shape(), (std::vector<int64_t>{2, 2}));
  // Row 0 tiled: 0.5 -2 -1 0.5 -2 -1 -> smallest 2: -2 (index 1), -2 (4);
  // row 1: 3 -4 1 3 -4 1 -> -4 (1), -4 (4); then elu with alpha 0.5.
  const float* v = values->data<float>();
  const int64_t* i = indices->data<int64_t>();
  const float e2 = 0.5f * (std::exp(-2.f) - 1.f), e4 = 0.5f * (std::exp(-4.f) - 1.f);
  for (int k = 0; k < 4; ++k) EXPECT_NEAR(v[k], k < 2 ? e2 : e4, 1e-6f) << k;
  EXPECT_EQ(i[0] + i[1], 5);  // {1, 4} in either order for equal values
  EXPECT_EQ(i[2] + i[3], 5);
}

}  // namespace
