// LogMessage goes to the installed sink with its severity, an empty sink
// restores stderr, and concurrent messages reach the sink whole.
#include "lite/utils/logging.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace lite {
namespace {

TEST(Logging, SinkReceivesMessagesWithSeverity) {
  std::vector<std::pair<LogSeverity, std::string>> got;
  SetLogSink([&got](LogSeverity s, const std::string& m) { got.emplace_back(s, m); });
  LogMessage(LogSeverity::kWarning, "npu: subgraph 0 runs on host: reason");
  LogMessage(LogSeverity::kInfo, "summary");
  SetLogSink(nullptr);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].first, LogSeverity::kWarning);
  EXPECT_EQ(got[0].second, "npu: subgraph 0 runs on host: reason");
  EXPECT_EQ(got[1].first, LogSeverity::kInfo);
  EXPECT_STREQ(LogSeverityName(got[1].first), "info");
}

TEST(Logging, EmptySinkRestoresStderr) {
  int calls = 0;
  SetLogSink([&calls](LogSeverity, const std::string&) { ++calls; });
  SetLogSink(nullptr);
  testing::internal::CaptureStderr();
  LogMessage(LogSeverity::kWarning, "to stderr");
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "to stderr\n");
  EXPECT_EQ(calls, 0);
}

TEST(Logging, SilencingSinkKeepsStderrClean) {
  SetLogSink([](LogSeverity, const std::string&) {});
  testing::internal::CaptureStderr();
  LogMessage(LogSeverity::kWarning, "silenced");
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  SetLogSink(nullptr);
}

TEST(Logging, ConcurrentMessagesArriveWhole) {
  std::vector<std::string> got;
  SetLogSink([&got](LogSeverity, const std::string& m) { got.push_back(m); });
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([t] {
      for (int i = 0; i < 100; ++i) LogMessage(LogSeverity::kInfo, "thread " + std::to_string(t));
    });
  }
  for (auto& th : threads) th.join();
  SetLogSink(nullptr);
  ASSERT_EQ(got.size(), 400u);
  for (const auto& m : got) EXPECT_EQ(m.rfind("thread ", 0), 0u) << m;
}

}  // namespace
}  // namespace lite
