// Out-of-tree driver plugins end to end: the sample plugin
// (examples/npu_plugin, built as a data dependency) is loaded from a
// directory and runs whole models through `npu,host` in strict mode - the
// generated default model against host, and the shared mnist and squeezenet
// models (full and light predictor) against their references, skipping
// with the standard message without ../shared/models. A plugin returning
// garbage makes its subgraph fall back to host (or fail in strict mode).
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

#include <gtest/gtest.h>

#include "lite/api/paddle_api.h"
#include "lite/model_parser/model_saver.h"
#include "lite/model_parser/test_models.h"
#include "tests/test_util.h"
#include "tools/default_model.h"
#include "tools/reference.h"
#include "tools/tool_util.h"

namespace {

using paddle::lite_api::CreatePaddlePredictor;
using paddle::lite_api::CxxConfig;
using paddle::lite_api::MobileConfig;
using paddle::lite_api::PaddlePredictor;

using lite::test_util::TempDir;

// A directory holding one copy of `so` under the conventional `name`.
std::string PluginDir(const std::string& dir_name, const std::string& so,
                      const std::string& name) {
  const std::string dir = TempDir() + "/" + dir_name;
  mkdir(dir.c_str(), 0755);
  std::ifstream in(so, std::ios::binary);
  EXPECT_TRUE(in.good()) << so;
  std::ofstream out(dir + "/" + name, std::ios::binary);
  out << in.rdbuf();
  return dir;
}

const std::string& SampleDir() {
  static const std::string dir = PluginDir(
      "sample_plugin", "examples/npu_plugin/sample_ref_npu_driver.so", "sample_ref_npu_driver.so");
  return dir;
}

// The default model (static input dims) saved once.
const std::string& DefaultModelDir() {
  static const std::string dir = [] {
    std::string d = TempDir() + "/plugin_default_model";
    auto m = lite::tools::MakeDefaultModel();
    EXPECT_TRUE(lite::tools::MakeDirs(d).ok());
    lite::Status s = lite::SaveCombinedModel(m.program, *m.scope, d + "/__model__",
                                             d + "/__params__");
    EXPECT_TRUE(s.ok()) << s.ToString();
    return d;
  }();
  return dir;
}

CxxConfig DefaultConfig(const std::string& driver, const std::vector<std::string>& paths) {
  CxxConfig c;
  c.set_model_dir(DefaultModelDir());
  if (!driver.empty()) {
    c.set_valid_places({lite::Place(lite::TargetType::kNPU), lite::Place(lite::TargetType::kHost)});
    c.set_npu_driver(driver);
    c.set_npu_driver_paths(paths);
  }
  return c;
}

lite::Status RunDefault(PaddlePredictor* p, std::vector<float>* y) {
  auto in = p->GetInput(0);
  in->Resize({1, 3, 32, 32});
  std::vector<float> x = lite::tools::LcgUniform(3 * 32 * 32, 7, -1, 1);
  in->CopyFromCpu(x.data());
  RETURN_IF_ERROR(p->Run());
  auto out = p->GetOutput(0);
  y->resize(out->numel());
  out->CopyToCpu(y->data());
  return lite::Status::OK();
}

std::vector<float> HostOutput() {
  auto p = CreatePaddlePredictor<CxxConfig>(DefaultConfig("", {}));
  EXPECT_TRUE(p.ok()) << p.status().ToString();
  std::vector<float> y;
  EXPECT_TRUE(RunDefault(p->get(), &y).ok());
  return y;
}

TEST(NpuPlugin, SamplePluginRunsTheDefaultModelLikeHost) {
  CxxConfig config = DefaultConfig("sample_ref", {SampleDir()});
  config.set_npu_strict(true);
  auto p = CreatePaddlePredictor<CxxConfig>(config);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  std::vector<float> y;
  ASSERT_TRUE(RunDefault(p->get(), &y).ok());
  const auto host = HostOutput();
  ASSERT_EQ(y.size(), host.size());
  for (size_t i = 0; i < y.size(); ++i) EXPECT_NEAR(y[i], host[i], 1e-5f) << i;
  auto report = (*p)->GetPlacementReport();
  ASSERT_EQ(report.subgraphs.size(), 1u) << report.ToString();
  EXPECT_EQ(report.subgraphs[0].state, "device");
  EXPECT_EQ(report.subgraphs[0].driver, "sample_ref");
}

TEST(NpuPlugin, DriverPathsWithoutNpuAreRefused) {
  CxxConfig c;
  c.set_model_dir(DefaultModelDir());
  c.set_npu_driver_paths({SampleDir()});
  auto p = CreatePaddlePredictor<CxxConfig>(c);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("npu driver paths are set but no valid place targets npu"),
            std::string::npos) << p.status().ToString();
}

// A plugin that cannot load is refused; the engine runs on its other drivers.
TEST(NpuPlugin, ABrokenPluginLeavesTheOtherDriversWorking) {
  const std::string dir =
      PluginDir("broken_plugin", "lite/backends/npu/plugin/libtest_create_null.so",
                "acme_broken_npu_driver.so");
  CxxConfig config = DefaultConfig("reference", {dir});
  config.set_npu_strict(true);
  auto p = CreatePaddlePredictor<CxxConfig>(config);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  std::vector<float> y;
  ASSERT_TRUE(RunDefault(p->get(), &y).ok());
  const auto host = HostOutput();
  ASSERT_EQ(y.size(), host.size());
  for (size_t i = 0; i < y.size(); ++i) EXPECT_NEAR(y[i], host[i], 1e-5f) << i;
  auto missing = CreatePaddlePredictor<CxxConfig>(DefaultConfig("acme_broken", {dir}));
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("unknown npu driver 'acme_broken'"), std::string::npos)
      << missing.status().ToString();
}

// The garbage test plugin (lite/backends/npu/plugin/testdata) reports 3
// bytes written: the subgraph falls back to host, or fails when strict.
TEST(NpuPlugin, GarbageOutputFallsBackToHost) {
  const std::string dir = PluginDir("garbage_plugin", "lite/backends/npu/plugin/libtest_garbage.so",
                                    "acme_garbage_npu_driver.so");
  setenv("TEST_PLUGIN_MODE", "bytes", 1);
  auto p = CreatePaddlePredictor<CxxConfig>(DefaultConfig("acme_test", {dir}));
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  std::vector<float> y;
  ASSERT_TRUE(RunDefault(p->get(), &y).ok());
  const auto host = HostOutput();
  ASSERT_EQ(y, host);  // the host ops computed it
  auto report = (*p)->GetPlacementReport();
  ASSERT_EQ(report.subgraphs.size(), 1u);
  EXPECT_EQ(report.subgraphs[0].state, "host");
  EXPECT_NE(report.subgraphs[0].reason.find("driver acme_test execute: plugin acme_test execute: "
                                            "output 0 ("),
            std::string::npos) << report.subgraphs[0].reason;
  EXPECT_NE(report.subgraphs[0].reason.find(") reports 3 bytes written, expected 40"),
            std::string::npos) << report.subgraphs[0].reason;

  CxxConfig strict = DefaultConfig("acme_test", {dir});
  strict.set_npu_strict(true);
  auto s = CreatePaddlePredictor<CxxConfig>(strict);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  lite::Status run = RunDefault(s->get(), &y);
  EXPECT_NE(run.message().find("npu strict mode: subgraph 0"), std::string::npos) << run.ToString();
  EXPECT_NE(run.message().find("reports 3 bytes written"), std::string::npos) << run.ToString();

  setenv("TEST_PLUGIN_MODE", "compile_fail", 1);
  auto c = CreatePaddlePredictor<CxxConfig>(strict);
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("driver acme_test compile: plugin acme_test compile: "
                                      "the acme device is on fire"),
            std::string::npos) << c.status().ToString();
  unsetenv("TEST_PLUGIN_MODE");
}

TEST(NpuPlugin, SamplePluginMatchesSharedModelReferences) {
  const std::string root = lite::SharedModelsDir();
  if (root.empty()) GTEST_SKIP() << lite::kSharedModelsMissing;
  for (const std::string model : {"mnist_mlp_fluid2018", "squeezenet_v1.1_caffe2fluid"}) {
    SCOPED_TRACE(model);
    auto ref = lite::tools::LoadReference(root + "/" + model + "/reference");
    ASSERT_TRUE(ref.ok()) << ref.status().ToString();
    CxxConfig config = lite::test_util::StrictNpuConfig(*ref, "sample_ref");
    config.set_npu_driver_paths({SampleDir()});
    auto full = CreatePaddlePredictor<CxxConfig>(config);
    ASSERT_TRUE(full.ok()) << full.status().ToString();
    lite::test_util::ExpectMatchesReference(*ref, full->get(), model + " full, sample_ref plugin");
    auto report = (*full)->GetPlacementReport();
    std::cout << model << ": " << report.Summary() << "\n";
    ASSERT_FALSE(report.subgraphs.empty());
    for (const auto& sg : report.subgraphs) EXPECT_EQ(sg.state, "device") << sg.reason;
    size_t on_device = 0;
    for (const auto& op : report.ops) on_device += op.on_device;
    EXPECT_EQ(on_device, report.ops.size()) << report.ToString();

    const std::string nb = TempDir() + "/" + model + "_plugin.nb";
    ASSERT_TRUE((*full)->SaveOptimizedModel(nb, paddle::lite_api::ModelType::kNaiveBuffer).ok());
    MobileConfig mc;
    mc.set_model_from_file(nb);
    mc.set_npu_driver_paths({SampleDir()});
    mc.set_npu_strict(true);
    auto light = CreatePaddlePredictor<MobileConfig>(mc);
    ASSERT_TRUE(light.ok()) << light.status().ToString();
    lite::test_util::ExpectMatchesReference(*ref, light->get(),
                                            model + " light, sample_ref plugin");
  }
}

}  // namespace
