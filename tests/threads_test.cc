// Predictor-level threads: shared models run with CxxConfig::set_threads(1)
// and set_threads(2) must give bitwise-equal outputs, both within the
// reference tolerance. Skips when ../shared/models is absent.
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "lite/api/paddle_api.h"
#include "lite/model_parser/test_models.h"
#include "tools/reference.h"

namespace {

using paddle::lite_api::CreatePaddlePredictor;
using paddle::lite_api::CxxConfig;
using paddle::lite_api::PaddlePredictor;

// Every output's raw bytes after one run with `threads`, checked against the
// reference.
std::vector<std::string> RunWithThreads(const lite::tools::Reference& ref, int threads) {
  SCOPED_TRACE("threads=" + std::to_string(threads));
  CxxConfig config;
  lite::tools::ConfigureModel(ref, &config);
  config.set_threads(threads);
  auto predictor = CreatePaddlePredictor<CxxConfig>(config);
  EXPECT_TRUE(predictor.ok()) << predictor.status().ToString();
  if (!predictor.ok()) return {};
  PaddlePredictor& pred = **predictor;
  auto fed = lite::tools::FeedInputs(ref, &pred);
  EXPECT_TRUE(fed.ok()) << fed.ToString();
  auto run = pred.Run();
  EXPECT_TRUE(run.ok()) << run.ToString();
  auto checks = lite::tools::CompareOutputs(ref, pred);
  EXPECT_TRUE(checks.ok()) << checks.status().ToString();
  if (checks.ok()) {
    for (const auto& c : *checks) EXPECT_TRUE(c.passed) << lite::tools::FormatCheck(c);
  }
  std::vector<std::string> outs;
  for (size_t i = 0; i < pred.GetOutputNames().size(); ++i) {
    auto t = pred.GetOutput(static_cast<int>(i));
    const float* p = t->data<float>();
    EXPECT_NE(p, nullptr) << "output " << i << " is not float32";
    if (!p) return {};
    outs.emplace_back(reinterpret_cast<const char*>(p), t->numel() * sizeof(float));
  }
  return outs;
}

TEST(Threads, SharedModelsAreBitwiseEqualAcrossThreadCounts) {
  const std::string root = lite::SharedModelsDir();
  if (root.empty()) GTEST_SKIP() << lite::kSharedModelsMissing;
  for (const char* model : {"ppocr_det_en_PP-OCRv3", "mobilenetv3_small_x0_35_3cls"}) {
    SCOPED_TRACE(model);
    auto ref = lite::tools::LoadReference(root + "/" + model + "/reference");
    ASSERT_TRUE(ref.ok()) << ref.status().ToString();
    const auto one = RunWithThreads(*ref, 1);
    const auto two = RunWithThreads(*ref, 2);
    ASSERT_FALSE(one.empty());
    ASSERT_EQ(one.size(), two.size());
    for (size_t i = 0; i < one.size(); ++i) {
      EXPECT_TRUE(one[i] == two[i]) << "output " << i << " differs between 1 and 2 threads";
    }
  }
}

}  // namespace
