// The ccodegen driver end to end on the shared float models (strict: a
// fallback fails): the full predictor matches the reference outputs and the
// reference driver's outputs, most ops run inside generated code, and the
// light predictor from the saved .nb matches too. Needs ../shared/models
// and a C compiler; skips with the standard message without the models.
#include <cmath>

#include <gtest/gtest.h>

#include "lite/api/paddle_api.h"
#include "lite/model_parser/test_models.h"
#include "tests/test_util.h"
#include "tools/reference.h"

namespace {

using paddle::lite_api::CreatePaddlePredictor;
using paddle::lite_api::MobileConfig;
using paddle::lite_api::PaddlePredictor;

// The float shared vision models (the PP-OCRv5 synthetic detector is left
// out for time: 206 ops at 640x640 on the reference driver).
const char* const kModels[] = {"mnist_mlp_fluid2018",          "squeezenet_v1.1_caffe2fluid",
                               "mobilenetv3_small_x0_35_3cls", "ppocr_cls_mobile_v2.0",
                               "pplcnet_x0_25_textline_ori_pir", "ppocr_det_en_PP-OCRv3"};

std::vector<std::vector<float>> Outputs(const PaddlePredictor& p) {
  std::vector<std::vector<float>> out;
  for (size_t i = 0; i < p.GetOutputNames().size(); ++i) {
    auto t = p.GetOutput(static_cast<int>(i));
    const float* d = t->data<float>();
    out.emplace_back(d, d + (d ? t->numel() : 0));
  }
  return out;
}

// Runs the reference's model on `driver` (strict), checks it against the
// reference files and returns its outputs.
std::vector<std::vector<float>> RunOn(const lite::tools::Reference& ref, const std::string& driver,
                                      const std::string& model) {
  auto config = lite::test_util::StrictNpuConfig(ref, driver);
  auto p = CreatePaddlePredictor<paddle::lite_api::CxxConfig>(config);
  EXPECT_TRUE(p.ok()) << p.status().ToString();
  if (!p.ok()) return {};
  lite::test_util::ExpectMatchesReference(ref, p->get(), model + " full, " + driver);
  auto report = (*p)->GetPlacementReport();
  std::cout << model << " on " << driver << ": " << report.Summary() << "\n";
  size_t on_device = 0;
  for (const auto& op : report.ops) on_device += op.on_device;
  EXPECT_GT(on_device * 2, report.ops.size()) << report.ToString();
  if (driver == "ccodegen") {
    const std::string nb = lite::test_util::TempDir() + "/" + model + "_ccodegen.nb";
    EXPECT_TRUE((*p)->SaveOptimizedModel(nb, paddle::lite_api::ModelType::kNaiveBuffer).ok());
    MobileConfig mc;
    mc.set_model_from_file(nb);
    mc.set_npu_strict(true);
    auto light = CreatePaddlePredictor<MobileConfig>(mc);
    EXPECT_TRUE(light.ok()) << light.status().ToString();
    if (light.ok()) lite::test_util::ExpectMatchesReference(ref, light->get(), model + " light, ccodegen");
  }
  return Outputs(**p);
}

TEST(NpuCcodegenModels, SmallModelsMatchTheReferenceDriver) {
  const std::string root = lite::SharedModelsDir();
  if (root.empty()) GTEST_SKIP() << lite::kSharedModelsMissing;
  for (const std::string model : kModels) {
    SCOPED_TRACE(model);
    auto ref = lite::tools::LoadReference(root + "/" + model + "/reference");
    ASSERT_TRUE(ref.ok()) << ref.status().ToString();
    const auto want = RunOn(*ref, "reference", model);
    const auto got = RunOn(*ref, "ccodegen", model);
    ASSERT_EQ(want.size(), got.size());
    for (size_t i = 0; i < want.size(); ++i) {
      ASSERT_EQ(want[i].size(), got[i].size());
      double worst = 0;
      for (size_t k = 0; k < want[i].size(); ++k) {
        const double diff = std::fabs(want[i][k] - got[i][k]);
        worst = std::max(worst, diff);
        ASSERT_LE(diff, 1e-4 + 1e-4 * std::fabs(want[i][k])) << "output " << i << " element " << k;
      }
      std::cout << model << " output " << i << ": ccodegen vs reference driver max |diff| = " << worst
                << "\n";
    }
  }
}

}  // namespace
