// Small POSIX file helpers for model I/O: whole-file read and write, existence
// checks, directory listing. Errors are Status values naming the path.
// The caller owns every buffer; nothing is cached.
#pragma once

#include <string>
#include <vector>

#include "lite/utils/status.h"

namespace lite {

// Reads the whole file into *out (sized once from fstat). NotFound when the
// path does not exist, InvalidArgument when it is a directory, DataLoss when
// the read comes up short.
Status ReadFileToString(const std::string& path, std::string* out);

// Writes `bytes` to `path` through a temporary file in the same directory
// that is renamed over `path`, so readers never see a half-written file.
// NotFound when the directory does not exist.
Status WriteStringToFile(const std::string& path, const std::string& bytes);

bool IsRegularFile(const std::string& path);
bool IsDirectory(const std::string& path);

// Names of the entries of `dir` (no "." or ".."), sorted. NotFound when
// `dir` does not exist, InvalidArgument when it is not a directory.
Status ListDirectory(const std::string& dir, std::vector<std::string>* names);

// "dir/name" with exactly one separator ("name" when dir is empty).
std::string JoinPath(const std::string& dir, const std::string& name);

}  // namespace lite
