// The split fallback: when the driver's Compile refuses an operation its
// check mode accepted, the subgraph is split around it - the other ops stay
// on the device, the refused one runs on host - instead of falling back
// whole. Driven by the fake driver on the generated default model.
#include <memory>

#include <gtest/gtest.h>

#include "lite/api/paddle_api.h"
#include "lite/backends/npu/fake/fake_driver.h"
#include "tests/npu_test_model.h"

namespace {

using lite::npu::FakeDriverControl;
using lite::npu::OperationType;
using npu_test::RunOnce;
using paddle::lite_api::CreatePaddlePredictor;
using paddle::lite_api::CxxConfig;
using paddle::lite_api::PaddlePredictor;

std::shared_ptr<PaddlePredictor> Create(bool npu, bool strict = false) {
  CxxConfig c;
  static const std::string dir = npu_test::SaveDefaultModel("npu_split_model");
  c.set_model_dir(dir);
  if (npu) {
    c.set_valid_places({lite::Place(lite::TargetType::kNPU), lite::Place(lite::TargetType::kHost)});
    c.set_npu_driver("fake");
    c.set_npu_strict(strict);
  }
  auto p = CreatePaddlePredictor<CxxConfig>(c);
  EXPECT_TRUE(p.ok()) << p.status().ToString();
  return p.ok() ? *p : nullptr;
}

class NpuSplitTest : public ::testing::Test {
 protected:
  void SetUp() override { FakeDriverControl::Get().Reset(); }
  void TearDown() override { FakeDriverControl::Get().Reset(); }
};

TEST_F(NpuSplitTest, ARefusedOperationIsSplitOutAndTheRestStaysOnDevice) {
  const std::vector<float> host = RunOnce(Create(/*npu=*/false).get());
  FakeDriverControl::Get().fail_compile_of = {OperationType::kPool2D};
  // Strict mode passes: the subgraph does not fall back, it is split.
  auto p = Create(/*npu=*/true, /*strict=*/true);
  ASSERT_TRUE(p);
  const std::vector<float> got = RunOnce(p.get());
  ASSERT_EQ(got.size(), host.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], host[i], 1e-5f) << i;

  auto report = p->GetPlacementReport();
  ASSERT_EQ(report.subgraphs.size(), 1u) << report.ToString();
  const auto& sub = report.subgraphs[0];
  EXPECT_EQ(sub.state, "device");
  EXPECT_NE(sub.split.find("split into"), std::string::npos) << report.ToString();
  EXPECT_NE(sub.split.find("fake driver: compile refuses pool2d at these dims"), std::string::npos)
      << sub.split;
  int pools = 0, on_device = 0;
  for (const auto& op : report.ops) {
    if (op.op.rfind("pool2d", 0) == 0) {
      ++pools;
      EXPECT_FALSE(op.on_device) << op.op;
      EXPECT_NE(op.reason.find("split: driver fake compile: fake driver: compile refuses pool2d"),
                std::string::npos)
          << op.reason;
    } else {
      EXPECT_TRUE(op.on_device) << op.op << ": " << op.reason;
      on_device += op.on_device;
    }
  }
  EXPECT_GE(pools, 1);
  EXPECT_GT(on_device, 2);
  EXPECT_GE(sub.compiles, 2);  // one executable per device part
  EXPECT_NE(report.ToString().find("split into"), std::string::npos);
}

TEST_F(NpuSplitTest, WithoutTheRefusalThereIsNoSplit) {
  auto p = Create(/*npu=*/true);
  ASSERT_TRUE(p);
  RunOnce(p.get());
  auto report = p->GetPlacementReport();
  ASSERT_EQ(report.subgraphs.size(), 1u);
  EXPECT_EQ(report.subgraphs[0].split, "");
  EXPECT_EQ(report.subgraphs[0].compiles, 1);
  for (const auto& op : report.ops) EXPECT_TRUE(op.on_device) << op.op;
}

TEST_F(NpuSplitTest, WhenEveryOperationIsRefusedTheSubgraphFallsBackWhole) {
  FakeDriverControl::Get().fail_compile = true;
  auto p = Create(/*npu=*/true);
  ASSERT_TRUE(p);
  RunOnce(p.get());
  auto report = p->GetPlacementReport();
  ASSERT_EQ(report.subgraphs.size(), 1u);
  EXPECT_EQ(report.subgraphs[0].state, "host");
  EXPECT_NE(report.subgraphs[0].reason.find("no part of it compiles alone"), std::string::npos)
      << report.subgraphs[0].reason;
  for (const auto& op : report.ops) EXPECT_FALSE(op.on_device) << op.op;
}

}  // namespace
