#include "lite/core/thread_governor.h"

#include <gtest/gtest.h>

namespace lite {
namespace {

constexpr int64_t kMs = 1000 * 1000;

// Counters a test moves by hand: time, the process's run delay, idle time.
struct FakeMachine {
  int64_t now = 0, delay = 0, idle = 0;
  ThreadGovernor::Source Source() {
    return {[this] { return now; }, [this] { return delay; }, [this] { return idle; }};
  }
  // One run of `run_ms` during which the threads waited `wait_ms` in total
  // and the usable CPUs were idle `idle_ms`, then a gap of `gap_ms`.
  void Run(ThreadGovernor* g, int64_t run_ms, int64_t wait_ms, int64_t idle_ms = 0,
           int64_t gap_ms = 0) {
    g->BeginRun();
    now += run_ms * kMs;
    delay += wait_ms * kMs;
    idle += idle_ms * kMs;
    g->EndRun();
    now += gap_ms * kMs;
  }
};

TEST(ThreadGovernorTest, QuietMachineKeepsTheRequestedThreads) {
  FakeMachine m;
  ThreadGovernor g(2, m.Source());
  for (int i = 0; i < 100; ++i) {
    m.Run(&g, 30, 1);  // 1 ms of 60 thread-ms waited: under the threshold
    EXPECT_EQ(g.threads(), 2) << "run " << i;
  }
}

TEST(ThreadGovernorTest, ContentionInTwoWindowsDropsToOneThreadWithANote) {
  FakeMachine m;
  ThreadGovernor g(2, m.Source());
  m.Run(&g, 300, 250);  // a contended window (run >= 20 ms closes it)
  EXPECT_EQ(g.threads(), 2) << "one contended window may be a burst";
  EXPECT_EQ(g.change_note(), "");
  m.Run(&g, 300, 250);
  EXPECT_EQ(g.threads(), 1);
  EXPECT_NE(g.change_note().find("threads: 2 -> 1"), std::string::npos) << g.change_note();
  EXPECT_NE(g.change_note().find("42%"), std::string::npos) << g.change_note();
  m.Run(&g, 30, 0);
  EXPECT_EQ(g.change_note(), "") << "the note is said once";
}

TEST(ThreadGovernorTest, AQuietWindowBetweenContendedOnesResetsTheCount) {
  FakeMachine m;
  ThreadGovernor g(2, m.Source());
  m.Run(&g, 300, 250);
  m.Run(&g, 30, 0);
  m.Run(&g, 300, 250);
  EXPECT_EQ(g.threads(), 2);
}

TEST(ThreadGovernorTest, RestoresOnlyAfterTheBackoffAndWhenACpuWasIdle) {
  FakeMachine m;
  ThreadGovernor g(2, m.Source());
  m.Run(&g, 300, 250);
  m.Run(&g, 300, 250);
  ASSERT_EQ(g.threads(), 1);
  // The other CPU stays busy: no trial, however long it lasts.
  for (int i = 0; i < 100; ++i) m.Run(&g, 30, 0, /*idle_ms=*/0);
  EXPECT_EQ(g.threads(), 1);
  // A CPU is idle again, but the back-off (1 s) is measured from the last look.
  m.Run(&g, 30, 0, 30);
  EXPECT_EQ(g.threads(), 1);
  for (int i = 0; i < 40 && g.threads() == 1; ++i) m.Run(&g, 30, 0, 30);
  EXPECT_EQ(g.threads(), 2);
  EXPECT_NE(g.change_note().find("threads: 1 -> 2"), std::string::npos) << g.change_note();
}

TEST(ThreadGovernorTest, AFailedTrialDoublesTheBackoff) {
  FakeMachine m;
  ThreadGovernor g(2, m.Source());
  m.Run(&g, 300, 250);
  m.Run(&g, 300, 250);
  ASSERT_EQ(g.threads(), 1);
  auto runs_until_trial = [&] {
    int runs = 0;
    while (g.threads() == 1 && runs < 10000) {
      m.Run(&g, 10, 0, 10);
      ++runs;
    }
    return runs;
  };
  const int first = runs_until_trial();
  ASSERT_EQ(g.threads(), 2);
  m.Run(&g, 300, 250);  // the trial is contended: one window suffices
  ASSERT_EQ(g.threads(), 1);
  EXPECT_NE(g.change_note().find("in 2 s"), std::string::npos) << g.change_note();
  const int second = runs_until_trial();
  EXPECT_GT(second, first * 3 / 2);
  // A quiet trial resets the back-off.
  m.Run(&g, 300, 0);
  EXPECT_EQ(g.threads(), 2);
}

TEST(ThreadGovernorTest, ShortRunsAreSampledNowAndThen) {
  FakeMachine m;
  int reads = 0;
  ThreadGovernor::Source s = m.Source();
  s.run_delay_ns = [&] {
    ++reads;
    return m.delay;
  };
  ThreadGovernor g(2, s);
  for (int i = 0; i < 1000; ++i) m.Run(&g, 0, 0);  // 0.0 ms runs back to back
  m.now += 20 * kMs;
  for (int i = 0; i < 1000; ++i) m.Run(&g, 0, 0);
  EXPECT_LE(reads, 8) << "counters read on every short run";
  EXPECT_GE(reads, 2);
}

TEST(ThreadGovernorTest, OneThreadOrNoCountersNeverChange) {
  FakeMachine m;
  ThreadGovernor one(1, m.Source());
  for (int i = 0; i < 10; ++i) m.Run(&one, 300, 290);
  EXPECT_EQ(one.threads(), 1);
  ThreadGovernor::Source blind = m.Source();
  blind.run_delay_ns = [] { return int64_t{-1}; };
  ThreadGovernor g(2, blind);
  for (int i = 0; i < 10; ++i) m.Run(&g, 300, 290);
  EXPECT_EQ(g.threads(), 2);
}

}  // namespace
}  // namespace lite
