// Status and StatusOr: how every failure crosses a module or the public API.
//
// A Status is a code plus a message that names what failed (file, op, var,
// pass). StatusOr<T> holds either a value or a non-OK Status. CHECK is kept
// for programmer errors only; anything a user can cause returns a Status.
#pragma once

#include <cassert>
#include <optional>
#include <string>
#include <utility>

namespace lite {

enum class StatusCode {
  kOk = 0,
  kInvalidArgument,    // bad user input: feed shape, attribute value, flag
  kNotFound,           // missing file, var, op or kernel
  kUnimplemented,      // valid input the engine does not support
  kDataLoss,           // truncated or corrupt model/params file
  kFailedPrecondition, // called in the wrong state (e.g. Run before feed)
  kInternal,           // engine bug surfaced as an error
};

const char* StatusCodeName(StatusCode code);

class Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message)
      : code_(code), message_(std::move(message)) {}

  static Status OK() { return Status(); }
  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  // "INVALID_ARGUMENT: message" or "OK".
  std::string ToString() const;
  // Returns a copy with `context + ": "` prepended to the message.
  Status WithContext(const std::string& context) const;

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

inline Status InvalidArgument(std::string m) {
  return Status(StatusCode::kInvalidArgument, std::move(m));
}
inline Status NotFound(std::string m) {
  return Status(StatusCode::kNotFound, std::move(m));
}
inline Status Unimplemented(std::string m) {
  return Status(StatusCode::kUnimplemented, std::move(m));
}
inline Status DataLoss(std::string m) {
  return Status(StatusCode::kDataLoss, std::move(m));
}
inline Status FailedPrecondition(std::string m) {
  return Status(StatusCode::kFailedPrecondition, std::move(m));
}
inline Status Internal(std::string m) {
  return Status(StatusCode::kInternal, std::move(m));
}

template <typename T>
class StatusOr {
 public:
  StatusOr(const Status& status) : status_(status) {  // NOLINT
    assert(!status.ok() && "StatusOr built from an OK status without value");
    if (status_.ok()) status_ = Internal("StatusOr built from OK status");
  }
  StatusOr(T value) : value_(std::move(value)) {}  // NOLINT

  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }
  T& value() & { return *value_; }
  const T& value() const& { return *value_; }
  T&& value() && { return std::move(*value_); }
  T& operator*() & { return *value_; }
  const T& operator*() const& { return *value_; }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace lite

#define LITE_CONCAT_INNER(a, b) a##b
#define LITE_CONCAT(a, b) LITE_CONCAT_INNER(a, b)

// Returns from the enclosing function if `expr` (a Status) is not OK.
#define RETURN_IF_ERROR(expr)                  \
  do {                                         \
    ::lite::Status _lite_status = (expr);      \
    if (!_lite_status.ok()) return _lite_status; \
  } while (0)

// `ASSIGN_OR_RETURN(auto x, MakeX());` unwraps a StatusOr or returns its error.
#define ASSIGN_OR_RETURN(lhs, expr) \
  ASSIGN_OR_RETURN_IMPL(LITE_CONCAT(_lite_statusor_, __LINE__), lhs, expr)
#define ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                          \
  if (!tmp.ok()) return tmp.status();         \
  lhs = std::move(tmp).value()
