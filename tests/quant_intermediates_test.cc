// The first quant-dequant outputs of the shared quantized models against the
// int8 levels in their reference/intermediates (meta.json `intermediates`):
// the engine's level round(out * bin_cnt / scale) may differ from the file's
// in at most limit.max_frac_levels_differ of the elements, and never by more
// than one level. These catch quantization mistakes (rounding rule, scale,
// clipping) that the final output cannot. The variables are fetched by
// appending fetch ops to the loaded program. Host and x86 (skipped on the
// aarch64 build, which has no x86 target), full predictor.
#include <cmath>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "lite/api/build_targets.h"
#include "lite/api/paddle_api.h"
#include "lite/base/scope.h"
#include "lite/model_parser/model_loader.h"
#include "lite/model_parser/model_saver.h"
#include "lite/model_parser/test_models.h"
#include "tools/reference.h"

namespace {

using paddle::lite_api::CreatePaddlePredictor;
using paddle::lite_api::CxxConfig;

struct Intermediate {
  std::string name;
  std::string file;
  float scale = 1.f;
  int bin_cnt = 127;
  double max_frac = 0;
};

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<Intermediate> ListIntermediates(const std::string& ref_dir) {
  std::vector<Intermediate> out;
  const auto meta = nlohmann::json::parse(ReadAll(ref_dir + "/meta.json"));
  for (const auto& j : meta.at("intermediates")) {
    Intermediate it;
    it.name = j.at("name").get<std::string>();
    it.file = ref_dir + "/" + j.at("file").get<std::string>();
    it.scale = j.at("scale").get<float>();
    it.bin_cnt = j.at("bin_cnt").get<int>();
    it.max_frac = j.at("limit").at("max_frac_levels_differ").get<double>();
    out.push_back(it);
  }
  return out;
}

void CheckModel(const std::string& model, const std::vector<lite::Place>& places) {
  const std::string ref_dir = lite::SharedModelsDir() + "/" + model + "/reference";
  auto ref = lite::tools::LoadReference(ref_dir);
  ASSERT_TRUE(ref.ok()) << ref.status().ToString();
  const std::vector<Intermediate> wanted = ListIntermediates(ref_dir);
  ASSERT_FALSE(wanted.empty());

  lite::cpp::ProgramDesc program;
  lite::Scope scope;
  ASSERT_TRUE(lite::LoadCombinedModel(ref->model_file, ref->params_file, &program, &scope).ok());
  auto& ops = program.blocks[0].ops;
  int col = 0;
  for (const auto& op : ops) col += op.Type() == "fetch";
  for (const auto& it : wanted) {
    lite::cpp::OpDesc fetch("fetch");
    fetch.SetInput("X", {it.name});
    fetch.SetOutput("Out", {"fetch"});
    fetch.SetAttr("col", col++);
    ops.push_back(fetch);
  }
  std::string model_bytes, params_bytes;
  ASSERT_TRUE(
      lite::SaveCombinedModelToBuffers(program, scope, &model_bytes, &params_bytes).ok());
  CxxConfig config;
  config.set_model_buffer(model_bytes.data(), model_bytes.size(), params_bytes.data(),
                          params_bytes.size());
  config.set_valid_places(places);
  auto predictor = CreatePaddlePredictor<CxxConfig>(config);
  ASSERT_TRUE(predictor.ok()) << predictor.status().ToString();
  ASSERT_TRUE(lite::tools::FeedInputs(*ref, predictor->get()).ok());
  ASSERT_TRUE((*predictor)->Run().ok());

  for (const auto& it : wanted) {
    SCOPED_TRACE(it.name);
    auto got = (*predictor)->GetOutputByName(it.name);
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    const std::string levels = ReadAll(it.file);
    const int64_t n = (*got)->numel();
    ASSERT_EQ(static_cast<int64_t>(levels.size()), n);
    const float* v = (*got)->data<float>();
    int64_t differ = 0, worst = 0;
    for (int64_t i = 0; i < n; ++i) {
      const int64_t q = std::lround(v[i] * it.bin_cnt / it.scale);
      const int64_t d = std::llabs(q - static_cast<int8_t>(levels[i]));
      differ += d != 0;
      worst = std::max(worst, d);
    }
    const double frac = static_cast<double>(differ) / n;
    std::cout << model << " " << it.name << ": " << differ << " of " << n
              << " levels differ (limit frac " << it.max_frac << "), max diff " << worst << "\n";
    // "at least one element" may differ, as the limits in meta.json say.
    EXPECT_TRUE(frac <= it.max_frac || differ <= 1) << frac;
    EXPECT_LE(worst, 1);
  }
}

const char* kModels[] = {"ppocr_cls_mobile_v2.0_slim_quant", "ppocr_det_ch_PP-OCRv3_slim_quant"};

TEST(QuantIntermediates, FirstQuantLevelsMatchOnHost) {
  if (lite::SharedModelsDir().empty()) GTEST_SKIP() << lite::kSharedModelsMissing;
  for (const char* model : kModels) CheckModel(model, {lite::Place(lite::TargetType::kHost)});
}

TEST(QuantIntermediates, FirstQuantLevelsMatchOnX86) {
  if (!lite::TargetInBuild(lite::TargetType::kX86)) GTEST_SKIP() << "no x86 target in this build";
  if (lite::SharedModelsDir().empty()) GTEST_SKIP() << lite::kSharedModelsMissing;
  for (const char* model : kModels) {
    CheckModel(model, {lite::Place(lite::TargetType::kX86), lite::Place(lite::TargetType::kHost)});
  }
}

}  // namespace
