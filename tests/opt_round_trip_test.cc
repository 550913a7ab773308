// opt round trip on every shared model (vision, LoD sequence and Paddle 3
// PIR models; for PIR the protobuf output is the conversion to a legacy
// ProgramDesc), for valid targets host and
// npu (+ host fallback), in both output formats: what tools/opt writes
// (LoadModel + OptimizeProgram + SaveOptimized) must run to the same outputs
// as the full predictor on the original model (1e-6, normally bitwise) - the
// .nb with the light predictor, the protobuf dir with the full predictor -
// and match the reference within its tolerance. Needs ../shared/models.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <tuple>

#include "lite/api/optimizer.h"
#include "lite/api/paddle_api.h"
#include "lite/api/saving.h"
#include "lite/model_parser/model_loader.h"
#include "lite/model_parser/test_models.h"
#include "lite/model_parser/test_util.h"
#include "tools/reference.h"

namespace {

using paddle::lite_api::CreatePaddlePredictor;
using paddle::lite_api::CxxConfig;
using paddle::lite_api::MobileConfig;
using paddle::lite_api::ModelType;
using paddle::lite_api::PaddlePredictor;

std::vector<lite::Place> PlacesFor(const std::string& targets) {
  std::vector<lite::Place> places;
  if (targets == "npu") places.emplace_back(lite::TargetType::kNPU);
  places.emplace_back(lite::TargetType::kHost);
  return places;
}

// Feeds the reference inputs, runs, and returns every output as floats.
std::vector<std::vector<float>> RunReference(const lite::tools::Reference& ref,
                                             PaddlePredictor* p) {
  EXPECT_TRUE(lite::tools::FeedInputs(ref, p).ok());
  lite::Status s = p->Run();
  EXPECT_TRUE(s.ok()) << s.ToString();
  std::vector<std::vector<float>> outs;
  for (size_t i = 0; i < p->GetOutputNames().size(); ++i) {
    auto t = p->GetOutput(static_cast<int>(i));
    const float* d = t->data<float>();
    outs.emplace_back(d ? d : nullptr, d ? d + t->numel() : nullptr);
  }
  auto checks = lite::tools::CompareOutputs(ref, *p);
  EXPECT_TRUE(checks.ok()) << checks.status().ToString();
  if (checks.ok()) {
    for (const auto& c : *checks) EXPECT_TRUE(c.passed) << lite::tools::FormatCheck(c);
  }
  return outs;
}

void ExpectSameOutputs(const std::vector<std::vector<float>>& want,
                       const std::vector<std::vector<float>>& got, const std::string& what) {
  ASSERT_EQ(want.size(), got.size()) << what;
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_EQ(want[i].size(), got[i].size()) << what << " output " << i;
    double max_err = 0;
    for (size_t k = 0; k < want[i].size(); ++k) {
      max_err = std::max(max_err, std::fabs(static_cast<double>(want[i][k]) - got[i][k]));
    }
    const bool bitwise = std::memcmp(want[i].data(), got[i].data(),
                                     want[i].size() * sizeof(float)) == 0;
    std::cout << what << " output " << i << ": max |diff| " << max_err
              << (bitwise ? " (bitwise equal)" : "") << "\n";
    EXPECT_LE(max_err, 1e-6) << what << " output " << i;
  }
}

class OptRoundTrip
    : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(OptRoundTrip, BothFormatsMatchTheOriginal) {
  const std::string models = lite::SharedModelsDir();
  if (models.empty()) GTEST_SKIP() << lite::kSharedModelsMissing;
  const std::string model = std::get<0>(GetParam());
  const std::string targets = std::get<1>(GetParam());
  const auto places = PlacesFor(targets);
  auto ref = lite::tools::LoadReference(models + "/" + model + "/reference");
  ASSERT_TRUE(ref.ok()) << ref.status().ToString();

  // The full predictor on the original model.
  CxxConfig config;
  lite::tools::ConfigureModel(*ref, &config);
  config.set_valid_places(places);
  auto full = CreatePaddlePredictor<CxxConfig>(config);
  ASSERT_TRUE(full.ok()) << full.status().ToString();
  const auto want = RunReference(*ref, full->get());

  // What tools/opt does.
  lite::ModelSource source;
  source.model_dir = config.model_dir();
  source.model_file = config.model_file();
  source.params_file = config.param_file();
  lite::Scope root;
  lite::cpp::ProgramDesc program;
  ASSERT_TRUE(lite::LoadModel(source, &program, &root).ok());
  lite::OptimizeOptions options;
  options.valid_places = places;
  auto optimized = lite::OptimizeProgram(program, &root, options);
  ASSERT_TRUE(optimized.ok()) << optimized.status().ToString();
  const std::string out =
      lite::testing_util::MakeTempDir("opt_rt_" + model + "_" + targets) + "/model";
  std::string nb_file, pb_dir;
  ASSERT_TRUE(lite::SaveOptimized(optimized->program, root, out, ModelType::kNaiveBuffer,
                                  &nb_file).ok());
  ASSERT_TRUE(lite::SaveOptimized(optimized->program, root, out + "_pb",
                                  ModelType::kProtobuf, &pb_dir).ok());
  EXPECT_EQ(nb_file, out + ".nb");

  MobileConfig mobile;
  mobile.set_model_from_file(nb_file);
  auto light = CreatePaddlePredictor<MobileConfig>(mobile);
  ASSERT_TRUE(light.ok()) << light.status().ToString();
  ExpectSameOutputs(want, RunReference(*ref, light->get()), model + " " + targets + " .nb");

  CxxConfig pb_config;
  pb_config.set_model_dir(pb_dir);
  pb_config.set_valid_places(places);
  auto pb = CreatePaddlePredictor<CxxConfig>(pb_config);
  ASSERT_TRUE(pb.ok()) << pb.status().ToString();
  ExpectSameOutputs(want, RunReference(*ref, pb->get()), model + " " + targets + " protobuf");
}

INSTANTIATE_TEST_SUITE_P(
    SharedModels, OptRoundTrip,
    ::testing::Combine(::testing::Values("mnist_mlp_fluid2018", "squeezenet_v1.1_caffe2fluid",
                                         "ppocr_cls_mobile_v2.0",
                                         "mobilenetv3_small_x0_35_3cls",
                                         "ppocr_det_en_PP-OCRv3", "textcnn_seqconv_lod",
                                         "rna_bilstm_lod", "pplcnet_x0_25_textline_ori_pir",
                                         "ppocr_det_PP-OCRv5_mobile_pir_synthetic"),
                       ::testing::Values("host", "npu")),
    [](const auto& info) {
      std::string name = std::get<0>(info.param) + "_" + std::get<1>(info.param);
      for (char& c : name) {
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      }
      return name;
    });

}  // namespace
