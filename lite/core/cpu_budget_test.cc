#include "lite/core/cpu_budget.h"

#include <gtest/gtest.h>

#include <thread>

namespace lite {
namespace {

TEST(CpuBudgetTest, ParsesCgroupQuotas) {
  EXPECT_EQ(ParseCpuQuota("max 100000\n", "", ""), 0);
  EXPECT_DOUBLE_EQ(ParseCpuQuota("150000 100000\n", "", ""), 1.5);
  EXPECT_DOUBLE_EQ(ParseCpuQuota("", "200000\n", "100000\n"), 2.0);
  EXPECT_EQ(ParseCpuQuota("", "-1\n", "100000\n"), 0);
  EXPECT_EQ(ParseCpuQuota("", "", ""), 0);
  EXPECT_EQ(ParseCpuQuota("garbage", "", ""), 0);
}

TEST(CpuBudgetTest, CapsTheRequestToUsableCpusWithANote) {
  ThreadCap cap = CapThreads(8, 2);
  EXPECT_EQ(cap.threads, 2);
  EXPECT_NE(cap.note.find("8 requested, 2 used"), std::string::npos) << cap.note;
  cap = CapThreads(2, 2);
  EXPECT_EQ(cap.threads, 2);
  EXPECT_EQ(cap.note, "");
  EXPECT_EQ(CapThreads(0, 4).threads, 1);
}

TEST(CpuBudgetTest, ReadsThisMachine) {
  const int usable = UsableCpus();
  EXPECT_GE(usable, 1);
  EXPECT_LE(usable, static_cast<int>(AffinityCpus().size()));
  // Linux provides both counters; they only grow.
  const int64_t delay = ProcessRunDelayNs();
  const int64_t idle = IdleNs(AffinityCpus());
  if (delay < 0 || idle < 0) GTEST_SKIP() << "no /proc schedstat or /proc/stat here";
  std::thread t([] {});
  t.join();
  EXPECT_GE(ProcessRunDelayNs(), 0);
  EXPECT_GE(IdleNs(AffinityCpus()), idle);
}

}  // namespace
}  // namespace lite
