// Clone(): a clone shares weights and program with its source but owns its
// inputs, outputs and activations, so source and clone can run at once on
// different threads and each gets the answer it would get alone.
#include <gtest/gtest.h>

#include <thread>

#include "lite/api/paddle_api.h"
#include "lite/model_parser/model_saver.h"
#include "tools/default_model.h"

namespace {

using namespace paddle::lite_api;  // NOLINT

std::vector<float> RunOnce(PaddlePredictor* p, const std::vector<float>& x) {
  auto in = p->GetInput(0);
  in->Resize({1, 3, 32, 32});
  in->CopyFromCpu(x.data());
  EXPECT_TRUE(p->Run().ok());
  auto out = p->GetOutput(0);
  std::vector<float> v(out->numel());
  out->CopyToCpu(v.data());
  return v;
}

TEST(PredictorClone, CloneRunsConcurrentlyWithItsSource) {
  lite::tools::DefaultModel m = lite::tools::MakeDefaultModel();
  std::string model, params;
  ASSERT_TRUE(lite::SaveCombinedModelToBuffers(m.program, *m.scope, &model, &params).ok());
  CxxConfig config;
  config.set_model_buffer(model.data(), model.size(), params.data(), params.size());
  auto source = CreatePaddlePredictor<CxxConfig>(config);
  ASSERT_TRUE(source.ok()) << source.status().ToString();
  auto clone = (*source)->Clone();
  ASSERT_TRUE(clone.ok()) << clone.status().ToString();
  EXPECT_EQ((*clone)->GetInputNames(), (*source)->GetInputNames());
  EXPECT_EQ((*clone)->GetPassLog(), (*source)->GetPassLog());

  auto a = lite::tools::LcgUniform(3 * 32 * 32, 7, -1, 1);
  auto b = lite::tools::LcgUniform(3 * 32 * 32, 8, -1, 1);
  const auto want_a = RunOnce(source->get(), a);
  const auto want_b = RunOnce(source->get(), b);
  ASSERT_NE(want_a, want_b);

  std::vector<float> got_a, got_b;
  for (int round = 0; round < 20; ++round) {
    std::thread t1([&] { got_a = RunOnce(source->get(), a); });
    std::thread t2([&] { got_b = RunOnce(clone->get(), b); });
    t1.join();
    t2.join();
    ASSERT_EQ(got_a, want_a) << "round " << round;
    ASSERT_EQ(got_b, want_b) << "round " << round;
  }
}

TEST(PredictorClone, LightPredictorClones) {
  lite::tools::DefaultModel m = lite::tools::MakeDefaultModel();
  std::string model, params;
  ASSERT_TRUE(lite::SaveCombinedModelToBuffers(m.program, *m.scope, &model, &params).ok());
  CxxConfig config;
  config.set_model_buffer(model.data(), model.size(), params.data(), params.size());
  auto full = CreatePaddlePredictor<CxxConfig>(config);
  ASSERT_TRUE(full.ok());
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string nb = std::string(tmp ? tmp : "/tmp") + "/clone_model";
  ASSERT_TRUE((*full)->SaveOptimizedModel(nb, ModelType::kNaiveBuffer).ok());
  MobileConfig mobile;
  mobile.set_model_from_file(nb + ".nb");
  auto light = CreatePaddlePredictor<MobileConfig>(mobile);
  ASSERT_TRUE(light.ok()) << light.status().ToString();
  auto clone = (*light)->Clone();
  ASSERT_TRUE(clone.ok());
  auto x = lite::tools::LcgUniform(3 * 32 * 32, 9, -1, 1);
  EXPECT_EQ(RunOnce(clone->get(), x), RunOnce(full->get(), x));
}

}  // namespace
