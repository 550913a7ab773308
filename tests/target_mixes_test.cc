// Every shared model on every target mix the README offers: each
// ../shared/models/*/reference folder (legacy, PIR, int8, LoD) through the
// full predictor and through a saved .nb in the light predictor, on
//   host; x86,host; npu,host with the xnnpack, reference and ccodegen
//   drivers; npu,host with the sample plugin (examples/npu_plugin);
//   npu,x86,host.
// Not strict: an op a device refuses runs on host, as a user sees it; the
// outputs must match the reference (tolerance, or the functional rule) on
// every mix. One test case per mix, so a failure names its mix. Needs
// ../shared/models; skips with the standard message without it. The x86
// mixes skip on the aarch64 build, which has no x86 target
// (lite/api/build_targets.h).
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "lite/api/build_targets.h"
#include "lite/api/paddle_api.h"
#include "lite/model_parser/test_models.h"
#include "tests/target_mixes.h"
#include "tests/test_util.h"
#include "tools/reference.h"

namespace {

using paddle::lite_api::CreatePaddlePredictor;
using paddle::lite_api::CxxConfig;
using paddle::lite_api::MobileConfig;
using paddle::lite_api::Place;
using paddle::lite_api::TargetType;

using lite::test_util::Mix;
using lite::test_util::PrintMix;

const std::string& SamplePluginDir() {
  return lite::test_util::SamplePluginDir("target_mixes_plugin");
}

class TargetMixes : public ::testing::TestWithParam<Mix> {};

TEST_P(TargetMixes, EverySharedModelMatchesItsReferenceFullAndLight) {
  const Mix& mix = GetParam();
  std::vector<Place> places;
  for (TargetType t : mix.targets) places.push_back(Place(t));
  const lite::Status in_build = lite::CheckPlacesInBuild(places);
  if (!in_build.ok()) GTEST_SKIP() << in_build.message();
  const std::string root = lite::SharedModelsDir();
  if (root.empty()) GTEST_SKIP() << lite::kSharedModelsMissing;
  const auto models = lite::tools::ListReferenceModels(root);
  ASSERT_FALSE(models.empty()) << "no reference folders under " << root;
  for (const std::string& model : models) {
    SCOPED_TRACE(model + " on " + mix.name);
    auto ref = lite::tools::LoadReference(root + "/" + model + "/reference");
    ASSERT_TRUE(ref.ok()) << ref.status().ToString();
    CxxConfig config;
    lite::tools::ConfigureModel(*ref, &config);
    config.set_valid_places(places);
    if (!mix.driver.empty()) config.set_npu_driver(mix.driver);
    if (mix.plugin) config.set_npu_driver_paths({SamplePluginDir()});
    auto full = CreatePaddlePredictor<CxxConfig>(config);
    ASSERT_TRUE(full.ok()) << full.status().ToString();
    lite::test_util::ExpectMatchesReference(*ref, full->get(), model + " full, " + mix.name);

    const std::string nb = lite::test_util::TempDir() + "/" + model + "_" + mix.name + ".nb";
    auto saved = (*full)->SaveOptimizedModel(nb, paddle::lite_api::ModelType::kNaiveBuffer);
    ASSERT_TRUE(saved.ok()) << saved.ToString();
    MobileConfig mc;
    mc.set_model_from_file(nb);
    if (mix.plugin) mc.set_npu_driver_paths({SamplePluginDir()});
    auto light = CreatePaddlePredictor<MobileConfig>(mc);
    ASSERT_TRUE(light.ok()) << light.status().ToString();
    lite::test_util::ExpectMatchesReference(*ref, light->get(), model + " light, " + mix.name);
  }
}

INSTANTIATE_TEST_SUITE_P(Mixes, TargetMixes, ::testing::ValuesIn(lite::test_util::ReadmeMixes()),
                         PrintMix);

}  // namespace
