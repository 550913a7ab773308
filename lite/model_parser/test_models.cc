#include "lite/model_parser/test_models.h"

#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <vector>

namespace lite {

namespace {

bool IsDir(const std::string& p) {
  struct stat st;
  return !p.empty() && ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

std::string RealPath(const std::string& p) {
  char buf[PATH_MAX];
  return ::realpath(p.c_str(), buf) ? std::string(buf) : std::string();
}

std::string Parent(const std::string& p) {
  size_t slash = p.find_last_of('/');
  if (slash == std::string::npos || slash == 0) return "/";
  return p.substr(0, slash);
}

}  // namespace

std::string RepoRootFromRunfiles() {
  const std::string kSelf = "lite/model_parser/test_models.cc";
  std::string srcdir = Env("TEST_SRCDIR");
  std::string ws = Env("TEST_WORKSPACE");
  if (srcdir.empty()) return "";
  if (ws.empty()) ws = "paddle_lite_plus";
  std::string real = RealPath(srcdir + "/" + ws + "/" + kSelf);
  if (real.size() <= kSelf.size() ||
      real.compare(real.size() - kSelf.size(), kSelf.size(), kSelf) != 0) {
    return "";
  }
  return real.substr(0, real.size() - kSelf.size() - 1);
}

std::string SharedModelsDir() {
  std::vector<std::string> candidates;
  candidates.push_back(Env("LITE_SHARED_MODELS"));
  std::string ws = Env("BUILD_WORKSPACE_DIRECTORY");
  if (!ws.empty()) candidates.push_back(ws + "/../shared/models");
  std::string root = RepoRootFromRunfiles();
  if (!root.empty()) candidates.push_back(root + "/../shared/models");
  for (std::string dir = RealPath("."); !dir.empty() && dir != "/"; dir = Parent(dir)) {
    candidates.push_back(dir + "/shared/models");
  }
  candidates.push_back("/work/shared/models");
  for (const auto& c : candidates) {
    if (IsDir(c)) return c;
  }
  return "";
}

}  // namespace lite
