// Every shared vision model through `npu,host` on an NPU driver: the full
// predictor and the light predictor (after saving .nb) match the reference
// outputs within their tolerance, and most ops run inside subgraphs. The
// driver is the reference driver unless LITE_NPU_TEST_DRIVER names another.
// Needs ../shared/models; skips with the standard message without it.
#include <dirent.h>

#include <algorithm>
#include <cstdlib>
#include <set>

#include <gtest/gtest.h>

#include "lite/api/paddle_api.h"
#include "lite/model_parser/test_models.h"
#include "tools/reference.h"

namespace {

using paddle::lite_api::CreatePaddlePredictor;
using paddle::lite_api::CxxConfig;
using paddle::lite_api::MobileConfig;
using paddle::lite_api::PaddlePredictor;

const std::set<std::string> kSequenceModels = {"rna_bilstm_lod", "textcnn_seqconv_lod"};

std::string Driver() {
  const char* d = std::getenv("LITE_NPU_TEST_DRIVER");
  return d && *d ? d : "reference";
}

std::vector<std::string> VisionModels(const std::string& root) {
  std::vector<std::string> out;
  DIR* d = opendir(root.c_str());
  if (!d) return out;
  while (dirent* e = readdir(d)) {
    std::string name = e->d_name;
    if (name[0] == '.' || kSequenceModels.count(name)) continue;
    std::string meta = root + "/" + name + "/reference/meta.json";
    if (FILE* f = fopen(meta.c_str(), "r")) {
      fclose(f);
      out.push_back(name);
    }
  }
  closedir(d);
  std::sort(out.begin(), out.end());
  return out;
}

void ExpectMatches(const lite::tools::Reference& ref, PaddlePredictor* p, const std::string& what) {
  SCOPED_TRACE(what);
  auto fed = lite::tools::FeedInputs(ref, p);
  ASSERT_TRUE(fed.ok()) << fed.ToString();
  auto run = p->Run();
  ASSERT_TRUE(run.ok()) << run.ToString();
  auto checks = lite::tools::CompareOutputs(ref, *p);
  ASSERT_TRUE(checks.ok()) << checks.status().ToString();
  for (const auto& c : *checks) {
    std::cout << what << ": " << lite::tools::FormatCheck(c) << "\n";
    EXPECT_TRUE(c.passed) << lite::tools::FormatCheck(c);
  }
}

TEST(NpuSharedModels, EveryVisionModelMatchesOnTheDevice) {
  const std::string root = lite::SharedModelsDir();
  if (root.empty()) GTEST_SKIP() << lite::kSharedModelsMissing;
  const auto models = VisionModels(root);
  ASSERT_FALSE(models.empty()) << "no reference folders under " << root;
  for (const auto& model : models) {
    SCOPED_TRACE(model);
    auto ref = lite::tools::LoadReference(root + "/" + model + "/reference");
    ASSERT_TRUE(ref.ok()) << ref.status().ToString();
    CxxConfig config;
    lite::tools::ConfigureModel(*ref, &config);
    config.set_valid_places({lite::Place(lite::TargetType::kNPU),
                             lite::Place(lite::TargetType::kHost)});
    config.set_npu_driver(Driver());
    config.set_npu_strict(true);  // a fallback would hide a driver or bridge bug
    auto full = CreatePaddlePredictor<CxxConfig>(config);
    ASSERT_TRUE(full.ok()) << full.status().ToString();
    ExpectMatches(*ref, full->get(), model + " full");
    auto report = (*full)->GetPlacementReport();
    std::cout << model << ": " << report.Summary() << "\n";
    size_t on_device = 0;
    for (const auto& op : report.ops) on_device += op.on_device;
    EXPECT_GT(on_device * 2, report.ops.size()) << report.ToString();

    const std::string nb = std::string(std::getenv("TEST_TMPDIR") ? std::getenv("TEST_TMPDIR")
                                                                  : "/tmp") +
                           "/" + model + "_npu.nb";
    ASSERT_TRUE((*full)->SaveOptimizedModel(nb, paddle::lite_api::ModelType::kNaiveBuffer).ok());
    MobileConfig mc;
    mc.set_model_from_file(nb);
    mc.set_npu_strict(true);
    auto light = CreatePaddlePredictor<MobileConfig>(mc);
    ASSERT_TRUE(light.ok()) << light.status().ToString();
    ExpectMatches(*ref, light->get(), model + " light");
  }
}

}  // namespace
