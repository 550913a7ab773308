// NPU subgraphs end to end on the generated default model (no ../shared):
// the reference driver matches host, and the fake driver forces every kind
// of fallback (bridge/driver rejection, compile failure, execute failure),
// strict mode, shape-change rebuilds, partition rules, cross-check, the
// placement report and saved programs with sub-blocks (.nb and protobuf).
#include <cmath>
#include <cstdlib>
#include <memory>

#include <gtest/gtest.h>

#include "lite/api/paddle_api.h"
#include "lite/api/predictor_runtime.h"
#include "lite/backends/npu/fake/fake_driver.h"
#include "lite/core/program.h"
#include "lite/utils/file_util.h"
#include "lite/model_parser/model_loader.h"
#include "lite/model_parser/model_saver.h"
#include "lite/operators/subgraph_op.h"
#include "tools/default_model.h"
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

// The default model, with its input's spatial dims made dynamic so inputs
// of other sizes are accepted, saved once as a combined model.
const std::string& ModelDir() {
  static const std::string dir = [] {
    std::string d = TempDir() + "/npu_default_model";
    auto m = lite::tools::MakeDefaultModel();
    m.program.blocks[0].FindVar(lite::tools::kDefaultModelInput)->dims = {-1, 3, -1, -1};
    lite::Status s = lite::tools::MakeDirs(d);
    EXPECT_TRUE(s.ok()) << s.ToString();
    s = lite::SaveCombinedModel(m.program, *m.scope, d + "/__model__", d + "/__params__");
    EXPECT_TRUE(s.ok()) << s.ToString();
    return d;
  }();
  return dir;
}

CxxConfig Config(const std::string& driver, bool npu = true) {
  CxxConfig c;
  c.set_model_dir(ModelDir());
  if (npu) {
    c.set_valid_places({lite::Place(lite::TargetType::kNPU), lite::Place(lite::TargetType::kHost)});
    c.set_npu_driver(driver);
  }
  return c;
}

std::vector<float> RunOnce(PaddlePredictor* p, int batch = 1, int size = 32) {
  auto in = p->GetInput(0);
  in->Resize({batch, 3, size, size});
  std::vector<float> x = lite::tools::LcgUniform(static_cast<size_t>(batch) * 3 * size * size,
                                                 7, -1, 1);
  in->CopyFromCpu(x.data());
  lite::Status s = p->Run();
  EXPECT_TRUE(s.ok()) << s.ToString();
  auto out = p->GetOutput(0);
  std::vector<float> y(out->numel());
  out->CopyToCpu(y.data());
  return y;
}

std::vector<float> HostOutput(int batch = 1, int size = 32) {
  auto p = CreatePaddlePredictor<CxxConfig>(Config("", /*npu=*/false));
  EXPECT_TRUE(p.ok()) << p.status().ToString();
  return RunOnce(p->get(), batch, size);
}

void ExpectNear(const std::vector<float>& a, const std::vector<float>& b, float tol = 1e-5f) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], tol) << "at " << i;
}

class NpuSubgraphTest : public ::testing::Test {
 protected:
  void SetUp() override { FakeDriverControl::Get().Reset(); }
  void TearDown() override { FakeDriverControl::Get().Reset(); }
};

TEST_F(NpuSubgraphTest, ReferenceDriverRunsEveryOpOnDeviceAndMatchesHost) {
  auto p = CreatePaddlePredictor<CxxConfig>(Config("reference"));
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  auto report = (*p)->GetPlacementReport();
  ASSERT_EQ(report.subgraphs.size(), 1u) << report.ToString();
  // Input dims are dynamic: the subgraph compiles at the first run.
  EXPECT_EQ(report.subgraphs[0].state, "pending");
  ExpectNear(RunOnce(p->get()), HostOutput());
  report = (*p)->GetPlacementReport();
  EXPECT_EQ(report.subgraphs[0].state, "device");
  EXPECT_EQ(report.subgraphs[0].compiles, 1);
  for (const auto& op : report.ops) EXPECT_TRUE(op.on_device) << op.op << ": " << op.reason;
  EXPECT_NE(report.Summary().find("npu/reference: "), std::string::npos);
  EXPECT_NE(report.Summary().find("in 1 subgraph; no fallback"), std::string::npos)
      << report.Summary();
}

TEST_F(NpuSubgraphTest, ARejectedOperationStaysOnHostWithTheDriversReason) {
  FakeDriverControl::Get().reject = {OperationType::kSoftmax};
  auto p = CreatePaddlePredictor<CxxConfig>(Config("fake"));
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  ExpectNear(RunOnce(p->get()), HostOutput());
  auto report = (*p)->GetPlacementReport();
  bool softmax_seen = false;
  for (const auto& op : report.ops) {
    if (op.op.rfind("softmax", 0) == 0) {
      softmax_seen = true;
      EXPECT_FALSE(op.on_device);
      EXPECT_NE(op.reason.find("fake driver rejects softmax"), std::string::npos) << op.reason;
    } else {
      EXPECT_TRUE(op.on_device) << op.op;
    }
  }
  EXPECT_TRUE(softmax_seen);
}

TEST_F(NpuSubgraphTest, CompileFailureFallsBackToHostAndSaysWhy) {
  FakeDriverControl::Get().fail_compile = true;
  auto p = CreatePaddlePredictor<CxxConfig>(Config("fake"));
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  ExpectNear(RunOnce(p->get()), HostOutput());
  auto report = (*p)->GetPlacementReport();
  ASSERT_EQ(report.subgraphs.size(), 1u);
  EXPECT_EQ(report.subgraphs[0].state, "host");
  EXPECT_NE(report.subgraphs[0].reason.find("compile failure requested"), std::string::npos);
  EXPECT_NE(report.Summary().find("1 subgraph fell back"), std::string::npos) << report.Summary();
  for (const auto& op : report.ops) EXPECT_FALSE(op.on_device);
  // Later runs stay on host without asking the driver again.
  int compiles = FakeDriverControl::Get().compile_calls;
  RunOnce(p->get());
  EXPECT_EQ(FakeDriverControl::Get().compile_calls, compiles);
}

TEST_F(NpuSubgraphTest, StrictModeTurnsAFallbackIntoAnError) {
  FakeDriverControl::Get().fail_compile = true;
  CxxConfig c = Config("fake");
  c.set_npu_strict(true);
  // Known input shapes compile at creation, so strict mode fails there.
  auto m = lite::tools::MakeDefaultModel();
  std::string dir = TempDir() + "/npu_static_model";
  ASSERT_TRUE(lite::tools::MakeDirs(dir).ok());
  ASSERT_TRUE(lite::SaveCombinedModel(m.program, *m.scope, dir + "/__model__",
                                      dir + "/__params__").ok());
  c.set_model_dir(dir);
  auto p = CreatePaddlePredictor<CxxConfig>(c);
  ASSERT_FALSE(p.ok());
  const std::string& msg = p.status().message();
  EXPECT_NE(msg.find("npu strict mode: subgraph 0"), std::string::npos) << msg;
  EXPECT_NE(msg.find("cannot run on driver fake"), std::string::npos) << msg;
  EXPECT_NE(msg.find("compile failure requested"), std::string::npos) << msg;
}

TEST_F(NpuSubgraphTest, StaticShapesCompileAtCreation) {
  auto m = lite::tools::MakeDefaultModel();
  std::string dir = TempDir() + "/npu_static_model2";
  ASSERT_TRUE(lite::tools::MakeDirs(dir).ok());
  ASSERT_TRUE(lite::SaveCombinedModel(m.program, *m.scope, dir + "/__model__",
                                      dir + "/__params__").ok());
  CxxConfig c = Config("fake");
  c.set_model_dir(dir);
  auto p = CreatePaddlePredictor<CxxConfig>(c);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(FakeDriverControl::Get().compile_calls, 1);
  EXPECT_EQ((*p)->GetPlacementReport().subgraphs[0].state, "device");
}

TEST_F(NpuSubgraphTest, ExecuteFailureRerunsThatCallOnHostAndStaysThere) {
  FakeDriverControl::Get().fail_execute_on_call = 2;
  auto p = CreatePaddlePredictor<CxxConfig>(Config("fake"));
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  const auto host = HostOutput();
  ExpectNear(RunOnce(p->get()), host);
  EXPECT_EQ((*p)->GetPlacementReport().subgraphs[0].state, "device");
  ExpectNear(RunOnce(p->get()), host);  // fails on the device, reruns on host
  auto report = (*p)->GetPlacementReport();
  EXPECT_EQ(report.subgraphs[0].state, "host");
  EXPECT_NE(report.subgraphs[0].reason.find("execute failure requested on call 2"),
            std::string::npos)
      << report.subgraphs[0].reason;
  ExpectNear(RunOnce(p->get()), host);
  EXPECT_EQ(FakeDriverControl::Get().execute_calls, 2);
}

TEST_F(NpuSubgraphTest, InputShapeChangeRebuildsAndCachesPerShape) {
  auto p = CreatePaddlePredictor<CxxConfig>(Config("fake"));
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  ExpectNear(RunOnce(p->get(), 1, 32), HostOutput(1, 32));
  ExpectNear(RunOnce(p->get(), 1, 64), HostOutput(1, 64));
  ExpectNear(RunOnce(p->get(), 1, 32), HostOutput(1, 32));
  ExpectNear(RunOnce(p->get(), 2, 64), HostOutput(2, 64));
  EXPECT_EQ(FakeDriverControl::Get().compile_calls, 3);  // 32, 64, batch 2
  EXPECT_EQ((*p)->GetPlacementReport().subgraphs[0].compiles, 3);
}

TEST_F(NpuSubgraphTest, PartitionRulesKeepMatchingOpsOnHost) {
  std::string file = TempDir() + "/partition.txt";
  // The first pool (by its output var) and softmax stay on host.
  ASSERT_TRUE(lite::WriteStringToFile(file, "# test rules\nsoftmax\npool2d::pool1.out\n").ok());
  CxxConfig c = Config("reference");
  c.set_npu_partition_file(file);
  c.set_npu_min_subgraph_size(1);
  auto p = CreatePaddlePredictor<CxxConfig>(c);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  ExpectNear(RunOnce(p->get()), HostOutput());
  auto report = (*p)->GetPlacementReport();
  int host = 0;
  for (const auto& op : report.ops) {
    if (op.op.rfind("softmax", 0) == 0 || op.op == "pool2d (output: pool1.out)") {
      ++host;
      EXPECT_FALSE(op.on_device);
      EXPECT_NE(op.reason.find("kept on host by partition line"), std::string::npos) << op.reason;
    } else {
      EXPECT_TRUE(op.on_device) << op.op;
    }
  }
  EXPECT_EQ(host, 2);
  EXPECT_EQ(report.subgraphs.size(), 2u);  // the first pool cuts the chain in two
}

TEST_F(NpuSubgraphTest, MinimumSizeDropsSmallClusters) {
  std::string file = TempDir() + "/partition2.txt";
  ASSERT_TRUE(lite::WriteStringToFile(file, "pool2d::pool1.out\n").ok());
  CxxConfig c = Config("reference");
  c.set_npu_partition_file(file);
  c.set_npu_min_subgraph_size(100);
  auto p = CreatePaddlePredictor<CxxConfig>(c);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  auto report = (*p)->GetPlacementReport();
  EXPECT_TRUE(report.subgraphs.empty());
  bool saw_reason = false;
  for (const auto& op : report.ops) {
    saw_reason |= op.reason.find("below the minimum size 100") != std::string::npos;
  }
  EXPECT_TRUE(saw_reason) << report.ToString();
}

TEST_F(NpuSubgraphTest, CrossCheckComparesDeviceAndHost) {
  CxxConfig c = Config("reference");
  c.set_npu_cross_check(true);
  auto p = CreatePaddlePredictor<CxxConfig>(c);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  ExpectNear(RunOnce(p->get()), HostOutput());
  RunOnce(p->get());
  auto sub = (*p)->GetPlacementReport().subgraphs.at(0);
  EXPECT_EQ(sub.cross_checked_runs, 2);
  EXPECT_LT(sub.max_abs_diff, 1e-5);
  EXPECT_NE((*p)->GetPlacementReport().ToString().find("cross-check over 2 run(s)"),
            std::string::npos);
}

TEST_F(NpuSubgraphTest, SavedProgramsKeepTheirSubgraphs) {
  auto full = CreatePaddlePredictor<CxxConfig>(Config("reference"));
  ASSERT_TRUE(full.ok()) << full.status().ToString();
  const auto expect = RunOnce(full->get());
  // naive buffer -> light predictor.
  const std::string nb = TempDir() + "/npu_model.nb";
  ASSERT_TRUE((*full)->SaveOptimizedModel(nb, paddle::lite_api::ModelType::kNaiveBuffer).ok());
  MobileConfig mc;
  mc.set_model_from_file(nb);
  auto light = CreatePaddlePredictor<MobileConfig>(mc);
  ASSERT_TRUE(light.ok()) << light.status().ToString();
  ExpectNear(RunOnce(light->get()), expect, 0);
  auto report = (*light)->GetPlacementReport();
  ASSERT_EQ(report.subgraphs.size(), 1u);
  EXPECT_EQ(report.subgraphs[0].driver, "reference");
  EXPECT_EQ(report.subgraphs[0].state, "device");
  // The light predictor can switch drivers; the fake one is then used.
  mc.set_npu_driver("fake");
  auto light_fake = CreatePaddlePredictor<MobileConfig>(mc);
  ASSERT_TRUE(light_fake.ok()) << light_fake.status().ToString();
  ExpectNear(RunOnce(light_fake->get()), expect, 0);
  EXPECT_EQ(FakeDriverControl::Get().execute_calls, 1);
  // protobuf -> the runtime both predictors build.
  const std::string dir = TempDir() + "/npu_model_pb";
  ASSERT_TRUE((*full)->SaveOptimizedModel(dir, paddle::lite_api::ModelType::kProtobuf).ok());
  auto root = std::make_shared<lite::Scope>();
  lite::cpp::ProgramDesc program;
  lite::ModelSource src;
  src.model_dir = dir;
  ASSERT_TRUE(lite::LoadModel(src, &program, root.get()).ok());
  ASSERT_GE(program.blocks.size(), 2u);
  auto rt = lite::PredictorRuntime::Create(program, root, 1, lite::NpuOptions());
  ASSERT_TRUE(rt.ok()) << rt.status().ToString();
  EXPECT_EQ((*rt)->GetPlacementReport().subgraphs.size(), 1u);
}

// The host fallback reads the sub-block's vars by name: a subgraph whose
// bound Inputs left its input_data_names, or whose sub-block reads a var
// that is none of its inputs, is refused when the runtime is built, naming
// the var, instead of failing (or reading stale data) at run time.
TEST_F(NpuSubgraphTest, ASubgraphWhoseBoundaryNamesDisagreeIsRefusedAtLoad) {
  auto full = CreatePaddlePredictor<CxxConfig>(Config("reference"));
  ASSERT_TRUE(full.ok()) << full.status().ToString();
  const std::string dir = TempDir() + "/npu_model_boundary_pb";
  ASSERT_TRUE((*full)->SaveOptimizedModel(dir, paddle::lite_api::ModelType::kProtobuf).ok());
  auto root = std::make_shared<lite::Scope>();
  lite::cpp::ProgramDesc saved;
  lite::ModelSource src;
  src.model_dir = dir;
  ASSERT_TRUE(lite::LoadModel(src, &saved, root.get()).ok());
  lite::cpp::OpDesc* sub = nullptr;
  for (auto& op : saved.blocks[0].ops) {
    if (op.Type() == "subgraph") sub = &op;
  }
  ASSERT_NE(sub, nullptr);
  const std::string input = sub->Input("Inputs").at(0);
  ASSERT_TRUE(lite::PredictorRuntime::Create(saved, root, 1, lite::NpuOptions()).ok());

  // A pass inserted a cast (here a scale by 1) and renamed the bound input
  // to its output, not the name list.
  lite::cpp::ProgramDesc renamed = saved;
  auto& ops = renamed.blocks[0].ops;
  for (size_t i = 0; i < ops.size(); ++i) {
    if (ops[i].Type() != "subgraph") continue;
    ops[i].RenameInput(input, input + "/nchw");
    lite::cpp::OpDesc cast("scale");
    cast.SetInput("X", {input});
    cast.SetOutput("Out", {input + "/nchw"});
    cast.SetAttr("scale", 1.0f);
    cast.SetAttr("bias", 0.0f);
    cast.SetAttr(lite::kKernelKeyAttr, std::string("scale/def/host/any/NCHW"));
    ops.insert(ops.begin() + i, cast);
    break;
  }
  renamed.blocks[0].vars.push_back(*renamed.blocks[0].FindVar(input));
  renamed.blocks[0].vars.back().name = input + "/nchw";
  auto rt = lite::PredictorRuntime::Create(renamed, root, 1, lite::NpuOptions());
  ASSERT_FALSE(rt.ok());
  EXPECT_NE(rt.status().message().find("are not its input_data_names ('" + input + "')"),
            std::string::npos)
      << rt.status().message();

  // Both lists renamed, the sub-block still reading the old name.
  for (auto& op : renamed.blocks[0].ops) {
    if (op.Type() != "subgraph") continue;
    op.SetAttr(lite::operators::kInputDataNamesAttr, op.Input("Inputs"));
  }
  rt = lite::PredictorRuntime::Create(renamed, root, 1, lite::NpuOptions());
  ASSERT_FALSE(rt.ok());
  EXPECT_NE(rt.status().message().find("reads var '" + input + "', which is no input"),
            std::string::npos)
      << rt.status().message();
}

TEST_F(NpuSubgraphTest, XnnpackMatchesHostAtOneAndTwoThreadsAndAcrossShapes) {
  for (int threads : {1, 2}) {
    CxxConfig c = Config("xnnpack");
    c.set_threads(threads);
    auto p = CreatePaddlePredictor<CxxConfig>(c);
    ASSERT_TRUE(p.ok()) << p.status().ToString();
    ExpectNear(RunOnce(p->get(), 1, 32), HostOutput(1, 32));
    ExpectNear(RunOnce(p->get(), 2, 48), HostOutput(2, 48));  // rebuilt for the new shape
    ExpectNear(RunOnce(p->get(), 1, 32), HostOutput(1, 32));  // cached executable again
    auto report = (*p)->GetPlacementReport();
    EXPECT_EQ(report.subgraphs.at(0).state, "device") << report.ToString();
    EXPECT_EQ(report.subgraphs.at(0).compiles, 2);
  }
}

TEST_F(NpuSubgraphTest, UnknownDriverAndPassNamesAreErrors) {
  auto p = CreatePaddlePredictor<CxxConfig>(Config("no_such_driver"));
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("unknown npu driver 'no_such_driver'"), std::string::npos)
      << p.status().message();
  CxxConfig c = Config("reference");
  c.set_disabled_passes({"no_such_pass"});
  auto q = CreatePaddlePredictor<CxxConfig>(c);
  ASSERT_FALSE(q.ok());
  EXPECT_NE(q.status().message().find("unknown pass 'no_such_pass'"), std::string::npos)
      << q.status().message();
}

TEST_F(NpuSubgraphTest, SameModelGivesTheSameSubgraphsAndDot) {
  auto dot_of = [] {
    CxxConfig c = Config("reference");
    c.set_dot_dump(paddle::lite_api::DotDump::kNamedPass, "npu_subgraph_pass");
    auto p = CreatePaddlePredictor<CxxConfig>(c);
    EXPECT_TRUE(p.ok()) << p.status().ToString();
    for (const auto& d : (*p)->GetPassDots()) {
      if (d.pass == "npu_subgraph_pass") return d.dot;
    }
    return std::string();
  };
  const std::string a = dot_of(), b = dot_of();
  ASSERT_FALSE(a.empty());
  EXPECT_EQ(a, b);
  EXPECT_NE(a.find("subgraph #0 (reference)"), std::string::npos);
}

}  // namespace
