// The x86 (oneDNN) target on every shared vision model: with
// --valid_targets=x86,host the full predictor and the light predictor (after
// saving .nb) match the ONNX Runtime references within their tolerance, and
// the profile shows x86 kernels ran (the option is not inert). Then the
// fusion-disabled variants: each fusion pass off in turn, and all of them
// off, still match (the x86 kernels then see unfused activations, separate
// bias adds and batch_norm). Needs ../shared/models; skips without it.
#include <cstdlib>
#include <set>

#include <gtest/gtest.h>

#include "lite/api/paddle_api.h"
#include "lite/optimizer/pass.h"
#include "lite/model_parser/test_models.h"
#include "tools/reference.h"

namespace {

using paddle::lite_api::CreatePaddlePredictor;
using paddle::lite_api::CxxConfig;
using paddle::lite_api::MobileConfig;
using paddle::lite_api::PaddlePredictor;

const std::vector<std::string> kModels = {
    "mnist_mlp_fluid2018", "squeezenet_v1.1_caffe2fluid", "mobilenetv3_small_x0_35_3cls",
    "ppocr_cls_mobile_v2.0", "ppocr_det_en_PP-OCRv3",
    // Paddle 3 PIR programs (inference.json).
    "pplcnet_x0_25_textline_ori_pir", "ppocr_det_PP-OCRv5_mobile_pir_synthetic",
    // PaddleSlim QAT models: judged by their meta.json functional rule too.
    "ppocr_cls_mobile_v2.0_slim_quant", "ppocr_det_ch_PP-OCRv3_slim_quant"};

const std::string kX86Place = "x86/float/NCHW";

std::vector<lite::Place> X86Places() {
  return {lite::Place(lite::TargetType::kX86), lite::Place(lite::TargetType::kHost)};
}

std::string Check(const lite::tools::Reference& ref, PaddlePredictor* p, const std::string& what) {
  return lite::tools::RunAndCheck(ref, p, what, &std::cout);
}

lite::tools::Reference Load(const std::string& model) {
  auto ref = lite::tools::LoadReference(lite::SharedModelsDir() + "/" + model + "/reference");
  EXPECT_TRUE(ref.ok()) << ref.status().ToString();
  return ref.ok() ? *ref : lite::tools::Reference();
}

TEST(X86Models, FullAndLightPredictorsMatchAndRunX86Kernels) {
  if (lite::SharedModelsDir().empty()) GTEST_SKIP() << lite::kSharedModelsMissing;
  for (const auto& model : kModels) {
    SCOPED_TRACE(model);
    const lite::tools::Reference ref = Load(model);
    CxxConfig config;
    lite::tools::ConfigureModel(ref, &config);
    config.set_valid_places(X86Places());
    config.set_profiling(true);
    auto full = CreatePaddlePredictor<CxxConfig>(config);
    ASSERT_TRUE(full.ok()) << full.status().ToString();
    EXPECT_EQ(Check(ref, full->get(), model + " full x86"), "");
    const std::string profile = (*full)->GetProfileSummary();
    EXPECT_NE(profile.find(kX86Place), std::string::npos) << profile;
    // The quantized models run their convs as int8 (quant_dequant_fuse_pass).
    if (model.find("_slim_quant") != std::string::npos) {
      EXPECT_NE(profile.find("x86/int8/NHWC"), std::string::npos) << profile;
    }
    std::cout << profile;
    const char* tmp = std::getenv("TEST_TMPDIR");
    const std::string nb = std::string(tmp ? tmp : "/tmp") + "/" + model + "_x86.nb";
    ASSERT_TRUE((*full)->SaveOptimizedModel(nb, paddle::lite_api::ModelType::kNaiveBuffer).ok());
    MobileConfig mc;
    mc.set_model_from_file(nb);
    mc.set_profiling(true);
    auto light = CreatePaddlePredictor<MobileConfig>(mc);
    ASSERT_TRUE(light.ok()) << light.status().ToString();
    EXPECT_EQ(Check(ref, light->get(), model + " light x86"), "");
    EXPECT_NE((*light)->GetProfileSummary().find(kX86Place), std::string::npos);
  }
}

TEST(X86Models, FusionDisabledVariantsMatch) {
  if (lite::SharedModelsDir().empty()) GTEST_SKIP() << lite::kSharedModelsMissing;
  std::vector<std::string> fusions;
  for (const auto& p : lite::mir::DefaultPipeline()) {
    if (p.find("_fuse_pass") != std::string::npos) fusions.push_back(p);
  }
  ASSERT_FALSE(fusions.empty());
  std::vector<std::vector<std::string>> variants{fusions};  // all off
  for (const auto& f : fusions) variants.push_back({f});
  for (const auto& model : kModels) {
    const lite::tools::Reference ref = Load(model);
    for (const auto& disabled : variants) {
      const std::string what =
          model + " x86 without " + (disabled.size() > 1 ? "any fusion" : disabled[0]);
      SCOPED_TRACE(what);
      CxxConfig config;
      lite::tools::ConfigureModel(ref, &config);
      config.set_valid_places(X86Places());
      config.set_disabled_passes(disabled);
      auto p = CreatePaddlePredictor<CxxConfig>(config);
      ASSERT_TRUE(p.ok()) << p.status().ToString();
      EXPECT_EQ(Check(ref, p->get(), what), "");
    }
  }
}

// With the weight quant-dequant left unfolded (both folding passes off), the
// slim classifier computes its conv filters at run time: the x86 conv, which
// packs its filter when the runtime is built, refuses that with a Status
// naming the op instead of reading a filter that does not exist yet.
TEST(X86Models, ComputedFilterIsAnErrorNotACrash) {
  if (lite::SharedModelsDir().empty()) GTEST_SKIP() << lite::kSharedModelsMissing;
  const lite::tools::Reference ref = Load("ppocr_cls_mobile_v2.0_slim_quant");
  CxxConfig config;
  lite::tools::ConfigureModel(ref, &config);
  config.set_valid_places(X86Places());
  config.set_disabled_passes({"constant_folding_pass", "quant_dequant_fuse_pass"});
  auto p = CreatePaddlePredictor<CxxConfig>(config);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("the x86 conv needs a constant Filter"), std::string::npos)
      << p.status().ToString();
  EXPECT_NE(p.status().message().find("conv2d"), std::string::npos) << p.status().ToString();
}

}  // namespace
