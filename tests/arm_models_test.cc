// The arm target (XNNPACK operators; on this machine XNNPACK's x86 kernels)
// on every shared model: with --valid_targets=arm,host the full predictor
// and the light predictor (after saving .nb) match the references within
// their tolerance, and the profile shows arm kernels ran (the option is not
// inert). Needs ../shared/models; skips without it.
#include <cstdlib>

#include <gtest/gtest.h>

#include "lite/api/paddle_api.h"
#include "lite/model_parser/test_models.h"
#include "tools/reference.h"

namespace {

using paddle::lite_api::CreatePaddlePredictor;
using paddle::lite_api::CxxConfig;
using paddle::lite_api::MobileConfig;
using paddle::lite_api::PaddlePredictor;

const std::vector<std::string> kModels = {
    "mnist_mlp_fluid2018", "squeezenet_v1.1_caffe2fluid", "mobilenetv3_small_x0_35_3cls",
    "ppocr_cls_mobile_v2.0", "ppocr_det_en_PP-OCRv3", "ppocr_rec_ch_PP-OCRv4_from_onnx",
    // Paddle 3 PIR programs (inference.json).
    "pplcnet_x0_25_textline_ori_pir", "ppocr_det_PP-OCRv5_mobile_pir_synthetic",
    // PaddleSlim QAT models: their int8 convs run on arm too (conv_int8_compute.cc).
    "ppocr_cls_mobile_v2.0_slim_quant", "ppocr_det_ch_PP-OCRv3_slim_quant",
    // LoD sequence models: their activations and elementwise ops run on arm.
    "rna_bilstm_lod", "textcnn_seqconv_lod"};

std::vector<lite::Place> ArmPlaces() {
  return {lite::Place(lite::TargetType::kARM), lite::Place(lite::TargetType::kHost)};
}

std::string Check(const lite::tools::Reference& ref, PaddlePredictor* p, const std::string& what) {
  return lite::tools::RunAndCheck(ref, p, what, &std::cout);
}

// A profile row of an arm kernel ("conv2d   arm/float/NHWC ...").
bool RanArm(const std::string& profile) { return profile.find(" arm/float/") != std::string::npos; }

// For the slim models: int8 kernels ran on arm, some of them XNNPACK's qc8
// convolution (int8 levels in and out).
bool RanArmInt8(const std::string& model, const std::string& profile) {
  if (model.find("_slim_quant") == std::string::npos) return true;
  return profile.find(" arm/int8/") != std::string::npos &&
         profile.find("xnnpack:convolution2d_nhwc_qc8") != std::string::npos;
}

TEST(ArmModels, FullAndLightPredictorsMatchAndRunArmKernels) {
  if (lite::SharedModelsDir().empty()) GTEST_SKIP() << lite::kSharedModelsMissing;
  for (const auto& model : kModels) {
    SCOPED_TRACE(model);
    auto ref = lite::tools::LoadReference(lite::SharedModelsDir() + "/" + model + "/reference");
    ASSERT_TRUE(ref.ok()) << ref.status().ToString();
    CxxConfig config;
    lite::tools::ConfigureModel(*ref, &config);
    config.set_valid_places(ArmPlaces());
    config.set_profiling(true);
    auto full = CreatePaddlePredictor<CxxConfig>(config);
    ASSERT_TRUE(full.ok()) << full.status().ToString();
    EXPECT_EQ(Check(*ref, full->get(), model + " full arm"), "");
    const std::string profile = (*full)->GetProfileSummary();
    EXPECT_TRUE(RanArm(profile)) << profile;
    EXPECT_TRUE(RanArmInt8(model, profile)) << profile;
    std::cout << profile;
    const char* tmp = std::getenv("TEST_TMPDIR");
    const std::string nb = std::string(tmp ? tmp : "/tmp") + "/" + model + "_arm.nb";
    ASSERT_TRUE((*full)->SaveOptimizedModel(nb, paddle::lite_api::ModelType::kNaiveBuffer).ok());
    MobileConfig mc;
    mc.set_model_from_file(nb);
    mc.set_profiling(true);
    auto light = CreatePaddlePredictor<MobileConfig>(mc);
    ASSERT_TRUE(light.ok()) << light.status().ToString();
    EXPECT_EQ(Check(*ref, light->get(), model + " light arm"), "");
    const std::string light_profile = (*light)->GetProfileSummary();
    EXPECT_TRUE(RanArm(light_profile));
    EXPECT_TRUE(RanArmInt8(model, light_profile)) << light_profile;
  }
}

}  // namespace
