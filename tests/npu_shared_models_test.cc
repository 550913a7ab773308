// Every shared vision model through `npu,host` on the reference and the
// xnnpack drivers (strict: a fallback fails): the full predictor and the
// light predictor (after saving .nb) match the reference outputs within
// their tolerance, and most ops run inside subgraphs.
// Needs ../shared/models; skips with the standard message without it.
#include <dirent.h>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "lite/api/paddle_api.h"
#include "lite/model_parser/test_models.h"
#include "tests/test_util.h"
#include "tools/reference.h"

namespace {

using paddle::lite_api::CreatePaddlePredictor;
using paddle::lite_api::CxxConfig;
using paddle::lite_api::MobileConfig;
using paddle::lite_api::PaddlePredictor;

const std::set<std::string> kSequenceModels = {"rna_bilstm_lod", "textcnn_seqconv_lod"};
// The drivers every vision model must match its reference on.
const std::vector<std::string> kDrivers = {"reference", "xnnpack"};

std::vector<std::string> VisionModels(const std::string& root) {
  std::vector<std::string> out;
  for (const auto& m : lite::tools::ListReferenceModels(root)) {
    if (!kSequenceModels.count(m)) out.push_back(m);
  }
  return out;
}

// One driver per test (and per shard, tests/BUILD): under qemu the two
// together ran past the large-test timeout.
class NpuSharedModels : public ::testing::TestWithParam<std::string> {};

TEST_P(NpuSharedModels, EveryVisionModelMatchesOnTheDevice) {
  const std::string root = lite::SharedModelsDir();
  if (root.empty()) GTEST_SKIP() << lite::kSharedModelsMissing;
  const auto models = VisionModels(root);
  ASSERT_FALSE(models.empty()) << "no reference folders under " << root;
  const std::string driver = GetParam();
  for (const auto& model : models) {
    SCOPED_TRACE(model + " on " + driver);
    auto ref = lite::tools::LoadReference(root + "/" + model + "/reference");
    ASSERT_TRUE(ref.ok()) << ref.status().ToString();
    CxxConfig config = lite::test_util::StrictNpuConfig(*ref, driver);
    auto full = CreatePaddlePredictor<CxxConfig>(config);
    ASSERT_TRUE(full.ok()) << full.status().ToString();
    lite::test_util::ExpectMatchesReference(*ref, full->get(), model + " full, " + driver);
    auto report = (*full)->GetPlacementReport();
    std::cout << model << ": " << report.Summary() << "\n";
    for (const auto& op : report.ops) {
      if (!op.on_device) std::cout << "  host: " << op.op << ": " << op.reason << "\n";
    }
    size_t on_device = 0;
    for (const auto& op : report.ops) on_device += op.on_device;
    // The slim models too: quant_dequant_fuse_pass makes their convs int8
    // for the NPU, whose bridge emits quantized conv2d operations.
    EXPECT_GT(on_device * 2, report.ops.size()) << report.ToString();

    const std::string nb = std::string(std::getenv("TEST_TMPDIR") ? std::getenv("TEST_TMPDIR")
                                                                  : "/tmp") +
                           "/" + model + "_" + driver + ".nb";
    ASSERT_TRUE((*full)->SaveOptimizedModel(nb, paddle::lite_api::ModelType::kNaiveBuffer).ok());
    MobileConfig mc;
    mc.set_model_from_file(nb);
    mc.set_npu_strict(true);
    auto light = CreatePaddlePredictor<MobileConfig>(mc);
    ASSERT_TRUE(light.ok()) << light.status().ToString();
    lite::test_util::ExpectMatchesReference(*ref, light->get(), model + " light, " + driver);
  }
}

INSTANTIATE_TEST_SUITE_P(Drivers, NpuSharedModels, ::testing::ValuesIn(kDrivers),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });

}  // namespace
