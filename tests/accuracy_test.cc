// Accuracy suite: every ../shared/models/*/reference/meta.json folder is
// loaded, its inputs fed to the full predictor on the host target, and every
// output compared with the stored ONNX Runtime output under the stored
// tolerance. Per output it prints max abs and max rel error.
//
// Every model must load and match, the LoD sequence models (textcnn_seqconv_lod,
// rna_bilstm_lod) included, with the output LoD equal to the reference's, and
// the quantized models (*_slim_quant) pass their meta.json functional rule.
#include <dirent.h>

#include <algorithm>

#include <gtest/gtest.h>

#include "lite/api/paddle_api.h"
#include "lite/model_parser/test_models.h"
#include "tools/reference.h"

namespace {

using paddle::lite_api::CreatePaddlePredictor;
using paddle::lite_api::CxxConfig;

TEST(AccuracySuite, EverySharedModelMatchesItsReference) {
  const std::string root = lite::SharedModelsDir();
  if (root.empty()) GTEST_SKIP() << lite::kSharedModelsMissing;
  auto models = lite::tools::ListReferenceModels(root);
  ASSERT_FALSE(models.empty()) << "no reference folders under " << root;
  int matched = 0;
  // One model's failure (ASSERT inside the lambda) does not hide the others.
  auto check = [&](const std::string& model) {
    auto ref = lite::tools::LoadReference(root + "/" + model + "/reference");
    ASSERT_TRUE(ref.ok()) << ref.status().ToString();
    CxxConfig config;
    lite::tools::ConfigureModel(*ref, &config);
    auto predictor = CreatePaddlePredictor<CxxConfig>(config);
    ASSERT_TRUE(predictor.ok()) << predictor.status().ToString();
    auto fed = lite::tools::FeedInputs(*ref, predictor->get());
    ASSERT_TRUE(fed.ok()) << fed.ToString();
    auto run = (*predictor)->Run();
    ASSERT_TRUE(run.ok()) << run.ToString();
    auto checks = lite::tools::CompareOutputs(*ref, **predictor);
    ASSERT_TRUE(checks.ok()) << checks.status().ToString();
    bool all = true;
    for (const auto& c : *checks) {
      std::cout << model << ": " << lite::tools::FormatCheck(c) << "\n";
      EXPECT_TRUE(c.passed) << lite::tools::FormatCheck(c);
      all = all && c.passed;
    }
    matched += all;
  };
  for (const auto& model : models) {
    SCOPED_TRACE(model);
    check(model);
  }
  std::cout << matched << " of " << models.size() << " shared models match their references\n";
}

}  // namespace
