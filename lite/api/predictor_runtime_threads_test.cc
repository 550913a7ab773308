// PredictorRuntime under a ThreadGovernor: while the governor says one
// thread, runs go to a single-threaded twin of the program over the same
// exec scope, and switching back and forth never changes an answer. The
// x86 case skips on the aarch64 build, which has no x86 target.
#include <gtest/gtest.h>

#include "lite/api/build_targets.h"
#include "lite/api/optimizer.h"
#include "lite/api/predictor_runtime.h"
#include "lite/core/cpu_budget.h"
#include "tools/default_model.h"

namespace lite {
namespace {

// Counters the test moves: every clock read is 100 ms later; while
// `contended` the threads wait 90 ms per counter read and no CPU is idle,
// otherwise one CPU is idle all the time.
struct Machine {
  static constexpr int64_t kStep = 100 * 1000 * 1000;
  int64_t now = 0, delay = 0, idle = 0;
  bool contended = false;
  ThreadGovernor::Source Source() {
    ThreadGovernor::Source s;
    s.now_ns = [this] {
      if (!contended) idle += kStep;
      return now += kStep;
    };
    s.run_delay_ns = [this] { return delay += contended ? kStep * 9 / 10 : 0; };
    s.idle_ns = [this] { return idle; };
    return s;
  }
};

std::vector<float> RunOnce(PredictorRuntime* rt, const std::vector<float>& x) {
  auto in = rt->GetInput(0);
  in->Resize({1, 3, 32, 32});
  in->CopyFromCpu(x.data());
  Status s = rt->Run();
  EXPECT_TRUE(s.ok()) << s.ToString();
  auto out = rt->GetOutput(0);
  std::vector<float> v(out->numel());
  out->CopyToCpu(v.data());
  return v;
}

void CheckSwitching(const std::vector<Place>& places) {
  if (UsableCpus() < 2) GTEST_SKIP() << "needs 2 usable CPUs";
  tools::DefaultModel m = tools::MakeDefaultModel();
  auto root = std::shared_ptr<Scope>(std::move(m.scope));
  OptimizeOptions options;
  options.valid_places = places;
  auto optimized = OptimizeProgram(m.program, root.get(), options);
  ASSERT_TRUE(optimized.ok()) << optimized.status().ToString();
  auto single = PredictorRuntime::Create(optimized->program, root, 1);
  auto rt = PredictorRuntime::Create(optimized->program, root, 2);
  ASSERT_TRUE(single.ok() && rt.ok());
  EXPECT_EQ((*rt)->threads(), 2);
  Machine machine;
  (*rt)->set_thread_governor(std::make_unique<ThreadGovernor>(2, machine.Source()));
  (*rt)->set_profiling(true);

  const auto a = tools::LcgUniform(3 * 32 * 32, 11, -1, 1);
  const auto b = tools::LcgUniform(3 * 32 * 32, 12, -1, 1);
  const auto want_a = RunOnce(single->get(), a);
  const auto want_b = RunOnce(single->get(), b);
  ASSERT_NE(want_a, want_b);

  std::vector<int> used;
  for (int round = 0; round < 24; ++round) {
    machine.contended = round < 6;  // six contended runs, then quiet
    used.push_back((*rt)->active_threads());
    const bool odd = round % 2;
    const auto got = RunOnce(rt->get(), odd ? b : a);
    const auto& want = odd ? want_b : want_a;
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) {
      ASSERT_NEAR(got[i], want[i], 1e-5f * (1 + std::abs(want[i]))) << "round " << round;
    }
  }
  // It dropped to one thread under contention and came back once quiet.
  EXPECT_NE(std::find(used.begin(), used.end(), 1), used.end());
  EXPECT_EQ(used.front(), 2);
  EXPECT_NE(std::find(used.begin() + 8, used.end(), 2), used.end());
  // The profile covers the runs of both programs.
  EXPECT_NE((*rt)->GetProfileSummary().find("runs on 1 thread"), std::string::npos)
      << (*rt)->GetProfileSummary();
}

TEST(PredictorRuntimeThreads, HostSwitchesToOneThreadAndBackWithSameAnswers) {
  CheckSwitching({Place(TargetType::kHost)});
}

TEST(PredictorRuntimeThreads, X86SwitchesToOneThreadAndBackWithSameAnswers) {
  if (!TargetInBuild(TargetType::kX86)) GTEST_SKIP() << "no x86 target in this build";
  CheckSwitching({Place(TargetType::kX86), Place(TargetType::kHost)});
}

TEST(PredictorRuntimeThreads, ThreadsAreCappedToUsableCpus) {
  tools::DefaultModel m = tools::MakeDefaultModel();
  auto root = std::shared_ptr<Scope>(std::move(m.scope));
  auto optimized = OptimizeProgram(m.program, root.get(), OptimizeOptions());
  ASSERT_TRUE(optimized.ok());
  auto rt = PredictorRuntime::Create(optimized->program, root, 64);
  ASSERT_TRUE(rt.ok());
  EXPECT_EQ((*rt)->threads(), UsableCpus());
}

}  // namespace
}  // namespace lite
