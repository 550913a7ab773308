// The memory budget (ConfigBase::set_memory_limit_mb) and the per-shape
// caches' bounds, on the quickstart's default model, whose global average
// pool takes any input size: a run over the budget is refused with a Status
// naming the input and the limit and leaves the predictor usable; a negative
// limit fails creation; a first sight's projection counts the part of the
// warm arena buffer its arena reuses; the NPU executables stay within their LRU while the
// sizes change, and an evicted size recompiles to the same answer.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lite/api/memory_budget.h"
#include "lite/api/paddle_api.h"
#include "lite/model_parser/model_saver.h"
#include "lite/utils/memory.h"
#include "tools/default_model.h"

namespace {

using namespace paddle::lite_api;  // NOLINT

CxxConfig DefaultModelConfig() {
  lite::tools::DefaultModel m = lite::tools::MakeDefaultModel();
  std::string model, params;
  EXPECT_TRUE(lite::SaveCombinedModelToBuffers(m.program, *m.scope, &model, &params).ok());
  CxxConfig config;
  config.set_model_buffer(model.data(), model.size(), params.data(), params.size());
  return config;
}

// The default model on npu (xnnpack driver) and host.
CxxConfig XnnpackConfig() {
  CxxConfig config = DefaultModelConfig();
  config.set_valid_places({Place(lite::TargetType::kNPU), Place(lite::TargetType::kHost)});
  config.set_npu_driver("xnnpack");
  return config;
}

// Runs input 0 at 1 x 3 x side x side (LCG data); the output, or empty when
// the run failed (*status says why).
std::vector<float> RunAt(PaddlePredictor* p, int side, Status* status) {
  const int64_t n = 3LL * side * side;
  auto in = p->GetInput(0);
  in->Resize({1, 3, side, side});
  EXPECT_TRUE(in->CopyFromCpu(lite::tools::LcgUniform(n, 5, -1, 1).data(), n).ok());
  *status = p->Run();
  if (!status->ok()) return {};
  auto out = p->GetOutput(0);
  std::vector<float> v(out->numel());
  out->CopyToCpu(v.data());
  return v;
}

TEST(MemoryBudget, NegativeLimitFailsCreation) {
  CxxConfig config = DefaultModelConfig();
  config.set_memory_limit_mb(-5);
  auto p = CreatePaddlePredictor<CxxConfig>(config);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("memory_limit_mb = -5"), std::string::npos)
      << p.status().ToString();
}

TEST(MemoryBudget, RunOverTheBudgetIsRefusedAndThePredictorStaysUsable) {
  for (const char* light : {"full", "light"}) {
    SCOPED_TRACE(light);
    CxxConfig config = DefaultModelConfig();
    config.set_memory_limit_mb(0);
    auto full = CreatePaddlePredictor<CxxConfig>(config);
    ASSERT_TRUE(full.ok()) << full.status().ToString();
    std::shared_ptr<PaddlePredictor> p = *full;
    // The limit: what the process holds now plus 96 MB. A 2048 x 2048 input
    // is 48 MB (the feed keeps it after the refused run) and its first
    // conv's output 128 MB.
    const int limit_mb = static_cast<int>(lite::ProcessRssBytes() / (1024 * 1024)) + 96;
    if (std::string(light) == "light") {
      ASSERT_TRUE(p->SaveOptimizedModel(::testing::TempDir() + "/budget", ModelType::kNaiveBuffer)
                      .ok());
      MobileConfig mc;
      mc.set_model_from_file(::testing::TempDir() + "/budget.nb");
      mc.set_memory_limit_mb(limit_mb);
      auto lp = CreatePaddlePredictor<MobileConfig>(mc);
      ASSERT_TRUE(lp.ok()) << lp.status().ToString();
      p = *lp;
    } else {
      config.set_memory_limit_mb(limit_mb);
      auto bp = CreatePaddlePredictor<CxxConfig>(config);
      ASSERT_TRUE(bp.ok()) << bp.status().ToString();
      p = *bp;
    }
    Status s;
    const std::vector<float> small = RunAt(p.get(), 64, &s);
    ASSERT_TRUE(s.ok()) << s.ToString();
    EXPECT_GT(p->GetMemoryStats().estimate_bytes_per_input_element, 0);
    RunAt(p.get(), 2048, &s);
    ASSERT_FALSE(s.ok()) << "a 2048 x 2048 run fit under " << limit_mb << " MB";
    EXPECT_EQ(s.code(), lite::StatusCode::kInvalidArgument);
    EXPECT_NE(s.message().find("input 'x' [1, 3, 2048, 2048]"), std::string::npos)
        << s.ToString();
    EXPECT_NE(s.message().find("memory limit is " + std::to_string(limit_mb) + ".0 MB"),
              std::string::npos)
        << s.ToString();
    const MemoryStats stats = p->GetMemoryStats();
    EXPECT_EQ(stats.budget_refusals, 1);
    EXPECT_GE(stats.budget_releases, 1);  // released before refusing
    EXPECT_EQ(stats.limit_bytes, static_cast<int64_t>(limit_mb) * 1024 * 1024);
    // Usable afterwards: other sizes run, the first one gives its answer.
    RunAt(p.get(), 96, &s);
    EXPECT_TRUE(s.ok()) << s.ToString();
    EXPECT_EQ(RunAt(p.get(), 64, &s), small);
    EXPECT_TRUE(s.ok()) << s.ToString();
  }
}

// The first run of a new predictor is checked too, from the dry planning
// pass (RuntimeProgram::ActivationBytesAhead): no run has been measured, yet
// a 2048 x 2048 input (its first conv's output alone 128 MB) is refused
// under what the process holds plus 96 MB. The predictor then runs 64 x 64
// as one without a limit does, also right after another refusal (the dry
// pass leaves no shape behind for the repeat). On npu (xnnpack) too: the
// subgraph kernel infers its inner shapes ahead (KernelBase::InferAhead) and
// adds what compiling that shape will take; the refusal comes before any
// compile.
TEST(MemoryBudget, FirstRunOverTheBudgetIsRefusedBeforeAnyRunWasMeasured) {
  for (bool npu : {false, true}) {
    SCOPED_TRACE(npu ? "npu,host (xnnpack)" : "default places");
    auto make = [npu] { return npu ? XnnpackConfig() : DefaultModelConfig(); };
    auto plain = CreatePaddlePredictor<CxxConfig>(make());
    ASSERT_TRUE(plain.ok()) << plain.status().ToString();
    Status s;
    const std::vector<float> small = RunAt(plain->get(), 64, &s);
    ASSERT_TRUE(s.ok()) << s.ToString();
    CxxConfig config = make();
    const int limit_mb = static_cast<int>(lite::ProcessRssBytes() / (1024 * 1024)) + 96;
    config.set_memory_limit_mb(limit_mb);
    auto p = CreatePaddlePredictor<CxxConfig>(config);
    ASSERT_TRUE(p.ok()) << p.status().ToString();
    // On npu creation compiled the model's declared input shape.
    const int held = (*p)->GetMemoryStats().npu_cached_shapes;
    RunAt(p->get(), 2048, &s);
    ASSERT_FALSE(s.ok()) << "a first 2048 x 2048 run fit under " << limit_mb << " MB";
    EXPECT_EQ(s.code(), lite::StatusCode::kInvalidArgument);
    EXPECT_NE(s.message().find("input 'x' [1, 3, 2048, 2048] needs about"), std::string::npos)
        << s.ToString();
    EXPECT_NE(s.message().find("of activations planned at this shape"), std::string::npos)
        << s.ToString();
    const MemoryStats stats = (*p)->GetMemoryStats();
    EXPECT_EQ(stats.budget_refusals, 1);
    EXPECT_EQ(stats.npu_cached_shapes, held);  // nothing compiled for it
    EXPECT_GE(stats.planned_activation_bytes, 128LL * 1024 * 1024);
    EXPECT_EQ(RunAt(p->get(), 64, &s), small);
    ASSERT_TRUE(s.ok()) << s.ToString();
    RunAt(p->get(), 2048, &s);
    EXPECT_FALSE(s.ok());
    EXPECT_EQ(RunAt(p->get(), 64, &s), small);
    EXPECT_TRUE(s.ok()) << s.ToString();
    EXPECT_EQ((*p)->GetMemoryStats().budget_refusals, 2);
  }
}

// The dry planning pass's activation bytes for a new size are about the
// arena the run then plans from what it recorded (the largest live set),
// within 10% at three sizes in either direction.
TEST(MemoryBudget, PlannedActivationsAheadMatchTheRecordedArena) {
  CxxConfig config = DefaultModelConfig();
  config.set_memory_limit_mb(1 << 20);  // a budget, never reached
  auto p = CreatePaddlePredictor<CxxConfig>(config);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  for (int side : {64, 160, 96}) {
    SCOPED_TRACE(side);
    Status s;
    RunAt(p->get(), side, &s);
    ASSERT_TRUE(s.ok()) << s.ToString();
    const MemoryStats stats = (*p)->GetMemoryStats();
    ASSERT_GT(stats.arena_bytes, 0);
    EXPECT_GE(stats.planned_activation_bytes, stats.arena_bytes * 0.9);
    EXPECT_LE(stats.planned_activation_bytes, stats.arena_bytes * 1.1);
  }
}

TEST(MemoryBudget, WithoutALimitTheSameRunGoesThrough) {
  auto p = CreatePaddlePredictor<CxxConfig>(DefaultModelConfig());
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  Status s;
  RunAt(p->get(), 64, &s);
  ASSERT_TRUE(s.ok());
  RunAt(p->get(), 1024, &s);
  EXPECT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ((*p)->GetMemoryStats().budget_refusals, 0);
  EXPECT_EQ((*p)->GetMemoryStats().limit_bytes, 0);
}

// The program keeps one warm arena buffer, the largest arena so far
// (arena_plan.h): after a 1280 x 1280 run and a small one the process holds
// 400 MB, 100 MB of them that buffer, while the plan of the shape run last
// has a 5 MB arena. A first sight estimated at 150 MB, 60 of them arena,
// binds its arena into the warm buffer: 400 - 60 + 150. Subtracting the last
// plan's 5 MB instead (the budget's earlier projection) counts 55 MB twice.
TEST(MemoryBudget, ProjectionSubtractsTheWarmArenaTheRunReuses) {
  constexpr int64_t kMb = 1024 * 1024;
  EXPECT_EQ(lite::MemoryBudget::ProjectedRssBytes(400 * kMb, 100 * kMb, 60 * kMb, 150 * kMb),
            490 * kMb);
  // An arena larger than the warm buffer replaces it: all of it is reused.
  EXPECT_EQ(lite::MemoryBudget::ProjectedRssBytes(400 * kMb, 100 * kMb, 120 * kMb, 150 * kMb),
            450 * kMb);
  // No warm buffer (released, or no plan yet), or no arena estimate yet.
  EXPECT_EQ(lite::MemoryBudget::ProjectedRssBytes(400 * kMb, 0, 60 * kMb, 150 * kMb), 550 * kMb);
  EXPECT_EQ(lite::MemoryBudget::ProjectedRssBytes(400 * kMb, 100 * kMb, 0, 150 * kMb), 550 * kMb);
}

TEST(MemoryBudget, NpuExecutablesStayWithinTheirLru) {
  auto p = CreatePaddlePredictor<CxxConfig>(XnnpackConfig());
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  const PlacementReport report = (*p)->GetPlacementReport();
  ASSERT_FALSE(report.subgraphs.empty()) << report.ToString();
  const int subgraphs = static_cast<int>(report.subgraphs.size());
  Status s;
  const std::vector<float> first = RunAt(p->get(), 32, &s);
  ASSERT_TRUE(s.ok()) << s.ToString();
  for (int side = 40; side <= 96; side += 8) {
    RunAt(p->get(), side, &s);
    ASSERT_TRUE(s.ok()) << s.ToString();
    EXPECT_LE((*p)->GetMemoryStats().npu_cached_shapes, 4 * subgraphs) << "side " << side;
  }
  EXPECT_GT((*p)->GetMemoryStats().npu_evictions, 0);
  // 32 was evicted long ago: it compiles again and answers the same.
  EXPECT_EQ(RunAt(p->get(), 32, &s), first);
  EXPECT_TRUE(s.ok()) << s.ToString();
}

// Executables kept together need no more activation memory than 1.5x the
// largest compiled so far: after 96x96, 64x64 evicts it (4096 + 9216 units
// > 1.5 x 9216), 32x32 and 40x40 join 64x64, and 96x96 again evicts 64x64
// (the oldest) but keeps 32 and 40 (1024 + 1600 + 9216 <= 13824).
TEST(MemoryBudget, NpuExecutablesTogetherNeedNoMoreThanTheLargest) {
  auto p = CreatePaddlePredictor<CxxConfig>(XnnpackConfig());
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  const int subgraphs = static_cast<int>((*p)->GetPlacementReport().subgraphs.size());
  ASSERT_GT(subgraphs, 0);
  Status s;
  const std::vector<float> large = RunAt(p->get(), 96, &s);
  ASSERT_TRUE(s.ok()) << s.ToString();
  for (int side : {64, 32, 40}) {
    RunAt(p->get(), side, &s);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }
  const int64_t small = (*p)->GetMemoryStats().npu_cached_shapes;
  EXPECT_EQ(RunAt(p->get(), 96, &s), large);
  ASSERT_TRUE(s.ok()) << s.ToString();
  // The first subgraph (whose activations scale with the input) held 64, 32
  // and 40, then 32, 40 and 96; without the bound it would hold all four.
  // Any other subgraph (past the global pool: one shape) keeps one.
  EXPECT_EQ(small, subgraphs + 2);
  EXPECT_EQ((*p)->GetMemoryStats().npu_cached_shapes, subgraphs + 2);
}

}  // namespace
