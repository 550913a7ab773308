#include "lite/utils/logging.h"

#include <cstdio>
#include <mutex>
#include <utility>

namespace lite {

namespace {
std::mutex& SinkMutex() {
  static auto* mu = new std::mutex;
  return *mu;
}
LogSink& Sink() {
  static auto* sink = new LogSink;
  return *sink;
}
}  // namespace

const char* LogSeverityName(LogSeverity s) {
  return s == LogSeverity::kWarning ? "warning" : "info";
}

void SetLogSink(LogSink sink) {
  std::lock_guard<std::mutex> lock(SinkMutex());
  Sink() = std::move(sink);
}

void LogMessage(LogSeverity severity, const std::string& message) {
  std::lock_guard<std::mutex> lock(SinkMutex());
  if (Sink()) {
    Sink()(severity, message);
    return;
  }
  std::fprintf(stderr, "%s\n", message.c_str());
}

}  // namespace lite
