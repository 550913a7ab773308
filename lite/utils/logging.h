// The engine's one message sink.
//
// The library reports things that are not errors (a subgraph falling back to
// its host ops, a driver plugin refused or ignored, the placement summary of
// a strict predictor, a pass registered twice) through LogMessage(). A host
// application routes or silences them with SetLogSink(); with no sink set
// each message goes to stderr as one line. Errors are Status values and are
// never only logged. The sink is process-wide and owned here; it is called
// under a lock, one message at a time, so it needs no locking of its own.
#pragma once

#include <functional>
#include <string>

namespace lite {

enum class LogSeverity { kInfo, kWarning };

const char* LogSeverityName(LogSeverity s);  // "info", "warning"

using LogSink = std::function<void(LogSeverity severity, const std::string& message)>;

// Installs `sink` for every later message; an empty sink restores stderr.
// Pass a sink that does nothing to silence the engine.
void SetLogSink(LogSink sink);

// Hands `message` (no trailing newline) to the sink.
void LogMessage(LogSeverity severity, const std::string& message);

}  // namespace lite
