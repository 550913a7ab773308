// Every subgraph of every shared model forced onto its host fallback: the
// fake driver refuses every Compile, or compiles and then refuses every
// Execute (the fallback then runs after the device path was prepared). On
// `npu,host` and on `npu,x86,host` (where x86 NHWC kernels meet the
// subgraphs' inputs and outputs) the full predictor must still reproduce
// each reference, and every subgraph must report that it ran on host. The
// aarch64 build has no x86 target (lite/api/build_targets.h): there only
// `npu,host` runs.
// Needs ../shared/models; skips with the standard message without it.
#include <iostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "lite/api/build_targets.h"
#include "lite/api/paddle_api.h"
#include "lite/backends/npu/fake/fake_driver.h"
#include "lite/model_parser/test_models.h"
#include "tests/test_util.h"
#include "tools/reference.h"

namespace {

using lite::npu::FakeDriverControl;
using paddle::lite_api::CreatePaddlePredictor;
using paddle::lite_api::CxxConfig;

struct Mix {
  const char* name;
  std::vector<lite::Place> places;
};

const std::vector<Mix>& Mixes() {
  static const std::vector<Mix> mixes = {
      {"npu,host", {lite::Place(lite::TargetType::kNPU), lite::Place(lite::TargetType::kHost)}},
      {"npu,x86,host",
       {lite::Place(lite::TargetType::kNPU), lite::Place(lite::TargetType::kX86),
        lite::Place(lite::TargetType::kHost)}},
  };
  return mixes;
}

enum class Refusal { kCompile, kExecute };

class NpuForcedFallback : public ::testing::TestWithParam<Refusal> {
 protected:
  void SetUp() override { FakeDriverControl::Get().Reset(); }
  void TearDown() override { FakeDriverControl::Get().Reset(); }
};

TEST_P(NpuForcedFallback, EverySharedModelMatchesItsReferenceOnEveryMix) {
  const std::string root = lite::SharedModelsDir();
  if (root.empty()) GTEST_SKIP() << lite::kSharedModelsMissing;
  const auto models = lite::tools::ListReferenceModels(root);
  ASSERT_FALSE(models.empty()) << "no reference folders under " << root;
  const char* refusal = GetParam() == Refusal::kCompile ? "compile" : "execute";
  size_t subgraphs = 0;
  for (const auto& model : models) {
    auto ref = lite::tools::LoadReference(root + "/" + model + "/reference");
    ASSERT_TRUE(ref.ok()) << ref.status().ToString();
    for (const Mix& mix : Mixes()) {
      if (!lite::CheckPlacesInBuild(mix.places).ok()) continue;  // x86 on aarch64
      const std::string what = model + " on " + mix.name + ", every " + refusal + " refused";
      SCOPED_TRACE(what);
      FakeDriverControl::Get().Reset();
      if (GetParam() == Refusal::kCompile) {
        FakeDriverControl::Get().fail_compile = true;
      } else {
        FakeDriverControl::Get().fail_execute = true;
      }
      CxxConfig config;
      lite::tools::ConfigureModel(*ref, &config);
      config.set_valid_places(mix.places);
      config.set_npu_driver("fake");
      auto p = CreatePaddlePredictor<CxxConfig>(config);
      ASSERT_TRUE(p.ok()) << p.status().ToString();
      lite::test_util::ExpectMatchesReference(*ref, p->get(), what);
      auto report = (*p)->GetPlacementReport();
      std::cout << what << ": " << report.Summary() << "\n";
      for (const auto& sub : report.subgraphs) {
        EXPECT_EQ(sub.state, "host") << "subgraph " << sub.id << ": " << report.ToString();
      }
      for (const auto& op : report.ops) EXPECT_FALSE(op.on_device) << op.op;
      subgraphs += report.subgraphs.size();
    }
  }
  // Not vacuous: the vision models do make subgraphs.
  EXPECT_GT(subgraphs, 0u);
}

INSTANTIATE_TEST_SUITE_P(Refusals, NpuForcedFallback,
                         ::testing::Values(Refusal::kCompile, Refusal::kExecute),
                         [](const ::testing::TestParamInfo<Refusal>& info) {
                           return std::string(info.param == Refusal::kCompile ? "Compile"
                                                                              : "Execute");
                         });

}  // namespace
