// End to end: mnist_mlp_fluid2018 through the full predictor, compared with
// its ONNX Runtime reference. Needs ../shared/models (skips without it).
#include <gtest/gtest.h>

#include "lite/api/paddle_api.h"
#include "lite/model_parser/test_models.h"
#include "tools/reference.h"

namespace {

using paddle::lite_api::CreatePaddlePredictor;
using paddle::lite_api::CxxConfig;

TEST(MnistEndToEnd, MatchesReference) {
  const std::string models = lite::SharedModelsDir();
  if (models.empty()) GTEST_SKIP() << lite::kSharedModelsMissing;
  auto ref = lite::tools::LoadReference(models + "/mnist_mlp_fluid2018/reference");
  ASSERT_TRUE(ref.ok()) << ref.status().ToString();
  CxxConfig config;
  lite::tools::ConfigureModel(*ref, &config);
  auto predictor = CreatePaddlePredictor<CxxConfig>(config);
  ASSERT_TRUE(predictor.ok()) << predictor.status().ToString();
  EXPECT_EQ((*predictor)->GetInputNames(), std::vector<std::string>{"img"});
  EXPECT_EQ((*predictor)->GetOutputNames(), std::vector<std::string>{"fc_2.tmp_2"});
  ASSERT_TRUE(lite::tools::FeedInputs(*ref, predictor->get()).ok());
  auto run = (*predictor)->Run();
  ASSERT_TRUE(run.ok()) << run.ToString();
  auto checks = lite::tools::CompareOutputs(*ref, **predictor);
  ASSERT_TRUE(checks.ok()) << checks.status().ToString();
  ASSERT_EQ(checks->size(), 1u);
  for (const auto& c : *checks) {
    std::cout << lite::tools::FormatCheck(c) << "\n";
    EXPECT_TRUE(c.passed) << lite::tools::FormatCheck(c);
  }
}

}  // namespace
