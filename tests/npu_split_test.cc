// The split fallback: when the driver's Compile refuses an operation its
// check mode accepted, the subgraph is split around it - the other ops stay
// on the device, the refused one runs on host - instead of falling back
// whole. Driven by the fake driver on the generated default model.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

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

// The parts of a split ("ops 1-2 device, ops 3-3 host, ...") as
// (first op, last op, on device), in order.
struct SplitPart {
  int first, last;
  bool device;
};
std::vector<SplitPart> SplitParts(const std::string& split) {
  std::vector<SplitPart> parts;
  size_t at = split.find('(');
  const size_t close = split.find(')', at);
  while (at != std::string::npos && at < close) {
    at = split.find("ops ", at);
    if (at == std::string::npos || at > close) break;
    SplitPart p{};
    char where[8] = {0};
    if (std::sscanf(split.c_str() + at, "ops %d-%d %7[a-z]", &p.first, &p.last, where) != 3) break;
    p.device = std::string(where) == "device";
    parts.push_back(p);
    at += 4;
  }
  return parts;
}

TEST_F(NpuSplitTest, NeighbouringDevicePartsAreOnePart) {
  const std::vector<float> host = RunOnce(Create(/*npu=*/false).get());
  // Both pools refused: bisection alone leaves device ranges side by side.
  FakeDriverControl::Get().fail_compile_of = {OperationType::kPool2D};
  auto p = Create(/*npu=*/true, /*strict=*/true);
  ASSERT_TRUE(p);
  const std::vector<float> got = RunOnce(p.get());
  ASSERT_EQ(got.size(), host.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], host[i], 1e-5f) << i;
  const auto report = p->GetPlacementReport();
  ASSERT_EQ(report.subgraphs.size(), 1u) << report.ToString();
  const std::string& split = report.subgraphs[0].split;
  const auto parts = SplitParts(split);
  ASSERT_GE(parts.size(), 2u) << split;
  int device_parts = 0, host_parts = 0;
  for (size_t i = 0; i < parts.size(); ++i) {
    (parts[i].device ? device_parts : host_parts) += 1;
    if (i > 0) {
      EXPECT_EQ(parts[i].first, parts[i - 1].last + 1) << split;
      EXPECT_FALSE(parts[i].device && parts[i - 1].device) << "neighbouring device parts: " << split;
    }
  }
  EXPECT_GE(device_parts, 1) << split;
  // Device runs alternate with host runs.
  EXPECT_LE(std::abs(device_parts - host_parts), 1) << split;
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
