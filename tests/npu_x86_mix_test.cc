// NPU subgraphs next to x86 kernels (`npu,x86,host`), no ../shared needed.
//
// A small program where a kept-on-host elementwise_div runs on x86 in NHWC
// and writes the subgraph's input (so a layout cast sits between them), and
// an x86 elementwise_mul reads the subgraph's output. On every target mix
// and with every forced fallback of the fake driver (Compile refused,
// Execute refused on the first or a later run, a split around a refused
// op) the outputs must equal the host-only run's, on the full predictor and
// on the light one after saving .nb. The aarch64 build has no x86 target
// (lite/api/build_targets.h): there only the npu,host mixes run.
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "lite/api/build_targets.h"
#include "lite/api/paddle_api.h"
#include "lite/backends/npu/fake/fake_driver.h"
#include "lite/base/program_desc.h"
#include "lite/base/scope.h"
#include "lite/model_parser/model_saver.h"
#include "tools/tool_util.h"

namespace {

using lite::npu::FakeDriverControl;
using lite::npu::OperationType;
using paddle::lite_api::CreatePaddlePredictor;
using paddle::lite_api::CxxConfig;
using paddle::lite_api::MobileConfig;
using paddle::lite_api::PaddlePredictor;

std::string TempDir() {
  const char* t = std::getenv("TEST_TMPDIR");
  return t ? t : "/tmp";
}

constexpr int64_t kC = 4, kHidden = 8, kSize = 8;

void AddVar(lite::cpp::ProgramDesc* prog, const std::string& name, std::vector<int64_t> dims,
            bool persistable = false) {
  lite::cpp::VarDesc v;
  v.name = name;
  v.dims = std::move(dims);
  v.persistable = persistable;
  prog->blocks[0].vars.push_back(v);
}

void AddWeight(lite::cpp::ProgramDesc* prog, lite::Scope* scope, const std::string& name,
               std::vector<int64_t> dims, uint32_t seed, double lo, double hi) {
  AddVar(prog, name, dims, true);
  lite::Tensor* t = scope->Var(name)->GetMutableTensor();
  t->Resize(dims);
  auto values = lite::tools::LcgUniform(static_cast<size_t>(t->numel()), seed, lo, hi);
  float* data = t->mutable_data<float>();
  for (size_t i = 0; i < values.size(); ++i) data[i] = values[i];
  t->set_persistable(true);
}

lite::cpp::OpDesc& Conv(lite::cpp::ProgramDesc* prog, const std::string& in,
                        const std::string& filter, const std::string& out, int pad) {
  auto& op = prog->blocks[0].ops.emplace_back("conv2d");
  op.SetInput("Input", {in});
  op.SetInput("Filter", {filter});
  op.SetOutput("Output", {out});
  op.SetAttr("strides", std::vector<int32_t>{1, 1});
  op.SetAttr("paddings", std::vector<int32_t>{pad, pad});
  op.SetAttr("dilations", std::vector<int32_t>{1, 1});
  op.SetAttr("groups", 1);
  return op;
}

// x [1,4,8,8] -> elementwise_div (by a [1] weight; x86 NHWC) -> tmp_1
//   -> conv2d 3x3 (8) -> relu -> pool2d max 3x3 -> conv2d 1x1 (4) -> c2
//                                                          (the subgraph)
//   -> elementwise_mul (by a [1] weight; x86 NHWC) -> out -> fetch.
// Both elementwise ops are kept on host by partition rules (Rules()).
std::string SaveModel() {
  static const std::string dir = [] {
    lite::cpp::ProgramDesc prog;
    prog.blocks.resize(1);
    auto scope = std::make_unique<lite::Scope>();
    prog.blocks[0].vars.push_back(lite::cpp::FeedFetchListVar("feed", lite::cpp::VarKind::kFeedList));
    prog.blocks[0].vars.push_back(
        lite::cpp::FeedFetchListVar("fetch", lite::cpp::VarKind::kFetchList));
    AddVar(&prog, "x", {1, kC, kSize, kSize});
    auto& feed = prog.blocks[0].ops.emplace_back("feed");
    feed.SetInput("X", {"feed"});
    feed.SetOutput("Out", {"x"});
    feed.SetAttr("col", 0);

    AddWeight(&prog, scope.get(), "div.y", {1}, 11, 1.5, 2.5);
    AddVar(&prog, "tmp_1", {1, kC, kSize, kSize});
    auto& div = prog.blocks[0].ops.emplace_back("elementwise_div");
    div.SetInput("X", {"x"});
    div.SetInput("Y", {"div.y"});
    div.SetOutput("Out", {"tmp_1"});
    div.SetAttr("axis", -1);

    AddWeight(&prog, scope.get(), "conv1.w", {kHidden, kC, 3, 3}, 12, -0.3, 0.3);
    AddVar(&prog, "c1", {1, kHidden, kSize, kSize});
    Conv(&prog, "tmp_1", "conv1.w", "c1", 1);
    AddVar(&prog, "r1", {1, kHidden, kSize, kSize});
    auto& relu = prog.blocks[0].ops.emplace_back("relu");
    relu.SetInput("X", {"c1"});
    relu.SetOutput("Out", {"r1"});
    AddVar(&prog, "p1", {1, kHidden, kSize, kSize});
    auto& pool = prog.blocks[0].ops.emplace_back("pool2d");
    pool.SetInput("X", {"r1"});
    pool.SetOutput("Out", {"p1"});
    pool.SetAttr("pooling_type", std::string("max"));
    pool.SetAttr("ksize", std::vector<int32_t>{3, 3});
    pool.SetAttr("strides", std::vector<int32_t>{1, 1});
    pool.SetAttr("paddings", std::vector<int32_t>{1, 1});
    AddWeight(&prog, scope.get(), "conv2.w", {kC, kHidden, 1, 1}, 13, -0.5, 0.5);
    AddVar(&prog, "c2", {1, kC, kSize, kSize});
    Conv(&prog, "p1", "conv2.w", "c2", 0);

    AddWeight(&prog, scope.get(), "mul.y", {1}, 14, 0.5, 1.5);
    AddVar(&prog, "out", {1, kC, kSize, kSize});
    auto& mul = prog.blocks[0].ops.emplace_back("elementwise_mul");
    mul.SetInput("X", {"c2"});
    mul.SetInput("Y", {"mul.y"});
    mul.SetOutput("Out", {"out"});
    mul.SetAttr("axis", -1);

    auto& fetch = prog.blocks[0].ops.emplace_back("fetch");
    fetch.SetInput("X", {"out"});
    fetch.SetOutput("Out", {"fetch"});
    fetch.SetAttr("col", 0);

    const std::string d = TempDir() + "/npu_x86_mix_model";
    EXPECT_TRUE(lite::tools::MakeDirs(d).ok());
    lite::Status s = lite::SaveCombinedModel(prog, *scope, d + "/__model__", d + "/__params__");
    EXPECT_TRUE(s.ok()) << s.ToString();
    return d;
  }();
  return dir;
}

std::string Rules() {
  static const std::string path = [] {
    const std::string p = TempDir() + "/npu_x86_mix_rules.txt";
    std::ofstream(p) << "elementwise_div\nelementwise_mul\n";
    return p;
  }();
  return path;
}

// With x86 only where this build has the target.
std::vector<bool> WithX86() {
  if (!lite::TargetInBuild(lite::TargetType::kX86)) return {false};
  return {false, true};
}

std::vector<lite::Place> Places(bool npu, bool x86) {
  std::vector<lite::Place> places;
  if (npu) places.emplace_back(lite::TargetType::kNPU);
  if (x86) places.emplace_back(lite::TargetType::kX86);
  places.emplace_back(lite::TargetType::kHost);
  return places;
}

CxxConfig Config(bool npu, bool x86, const std::string& driver) {
  CxxConfig c;
  c.set_model_dir(SaveModel());
  c.set_valid_places(Places(npu, x86));
  if (npu) {
    c.set_npu_driver(driver);
    c.set_npu_partition_file(Rules());
  }
  return c;
}

std::vector<float> RunModel(PaddlePredictor* p) {
  auto in = p->GetInput(0);
  in->Resize({1, kC, kSize, kSize});
  auto x = lite::tools::LcgUniform(static_cast<size_t>(kC * kSize * kSize), 7, -1, 1);
  in->CopyFromCpu(x.data());
  lite::Status s = p->Run();
  EXPECT_TRUE(s.ok()) << s.ToString();
  if (!s.ok()) return {};
  auto out = p->GetOutput(0);
  std::vector<float> y(out->numel());
  out->CopyToCpu(y.data());
  return y;
}

const std::vector<float>& HostOutput() {
  static const std::vector<float> out = [] {
    auto p = CreatePaddlePredictor<CxxConfig>(Config(false, false, ""));
    EXPECT_TRUE(p.ok()) << p.status().ToString();
    return p.ok() ? RunModel(p->get()) : std::vector<float>();
  }();
  return out;
}

void ExpectNear(const std::vector<float>& got, const std::vector<float>& want) {
  ASSERT_EQ(got.size(), want.size());
  ASSERT_FALSE(want.empty());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-4f) << "at " << i;
}

class NpuX86Mix : public ::testing::Test {
 protected:
  void SetUp() override { FakeDriverControl::Get().Reset(); }
  void TearDown() override { FakeDriverControl::Get().Reset(); }

  // Two runs on the full predictor, then two on the light one from its .nb;
  // returns the full predictor's placement report after its runs.
  paddle::lite_api::PlacementReport ExpectMatchesHost(const CxxConfig& config,
                                                      const std::string& what) {
    SCOPED_TRACE(what);
    paddle::lite_api::PlacementReport report;
    auto full = CreatePaddlePredictor<CxxConfig>(config);
    EXPECT_TRUE(full.ok()) << full.status().ToString();
    if (!full.ok()) return report;
    for (int round = 0; round < 2; ++round) ExpectNear(RunModel(full->get()), HostOutput());
    report = (*full)->GetPlacementReport();
    const std::string nb = TempDir() + "/npu_x86_mix_" + what + ".nb";
    lite::Status saved =
        (*full)->SaveOptimizedModel(nb, paddle::lite_api::ModelType::kNaiveBuffer);
    EXPECT_TRUE(saved.ok()) << saved.ToString();
    MobileConfig mc;
    mc.set_model_from_file(nb);
    auto light = CreatePaddlePredictor<MobileConfig>(mc);
    EXPECT_TRUE(light.ok()) << light.status().ToString();
    if (!light.ok()) return report;
    for (int round = 0; round < 2; ++round) ExpectNear(RunModel(light->get()), HostOutput());
    return report;
  }
};

TEST_F(NpuX86Mix, TheSubgraphRunsOnTheDeviceBetweenX86KernelsOnEveryMix) {
  for (bool x86 : WithX86()) {
    for (const std::string driver : {"reference", "xnnpack"}) {
      const std::string what = std::string(x86 ? "npu_x86_host_" : "npu_host_") + driver;
      auto report = ExpectMatchesHost(Config(true, x86, driver), what);
      ASSERT_EQ(report.subgraphs.size(), 1u) << what << ": " << report.ToString();
      EXPECT_EQ(report.subgraphs[0].state, "device") << what << ": " << report.ToString();
    }
  }
  if (WithX86().back()) ExpectMatchesHost(Config(false, true, ""), "x86_host");
}

TEST_F(NpuX86Mix, EveryForcedFallbackGivesTheHostOutputs) {
  struct Fault {
    const char* name;
    void (*set)(FakeDriverControl*);
    const char* state;  // the subgraph's state after the runs
  };
  const Fault faults[] = {
      {"compile", [](FakeDriverControl* c) { c->fail_compile = true; }, "host"},
      {"execute_always", [](FakeDriverControl* c) { c->fail_execute = true; }, "host"},
      {"execute_first", [](FakeDriverControl* c) { c->fail_execute_on_call = 1; }, "host"},
      {"execute_second", [](FakeDriverControl* c) { c->fail_execute_on_call = 2; }, "host"},
      // The pool's compile is refused: a split, the convs on the device.
      {"split",
       [](FakeDriverControl* c) { c->fail_compile_of = {OperationType::kPool2D}; }, "device"},
  };
  for (bool x86 : WithX86()) {
    for (const Fault& f : faults) {
      FakeDriverControl::Get().Reset();
      f.set(&FakeDriverControl::Get());
      const std::string what = std::string(x86 ? "npu_x86_host_" : "npu_host_") + f.name;
      auto report = ExpectMatchesHost(Config(true, x86, "fake"), what);
      ASSERT_EQ(report.subgraphs.size(), 1u) << what << ": " << report.ToString();
      EXPECT_EQ(report.subgraphs[0].state, f.state) << what << ": " << report.ToString();
    }
  }
}

}  // namespace
