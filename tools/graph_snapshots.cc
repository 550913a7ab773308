#include "tools/graph_snapshots.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <vector>

#include "lite/utils/file_util.h"
#include "tools/tool_util.h"

namespace lite {
namespace tools {

namespace {
// Runs `dot -Tsvg in -o out` without a shell; false when it failed.
bool RenderSvg(const std::string& in, const std::string& out) {
  std::vector<std::string> args{"dot", "-Tsvg", in, "-o", out};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(&a[0]);
  argv.push_back(nullptr);
  pid_t pid;
  if (posix_spawnp(&pid, "dot", nullptr, nullptr, argv.data(), environ) != 0) return false;
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return false;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}
}  // namespace

bool OnPath(const std::string& exe) {
  const char* path = std::getenv("PATH");
  if (!path) return false;
  for (const auto& dir : SplitList(path, ':')) {
    if (::access((dir + "/" + exe).c_str(), X_OK) == 0) return true;
  }
  return false;
}

Status WriteGraphSnapshot(const std::string& dir, const std::string& name,
                          const std::string& dot, bool svg) {
  const std::string base = JoinPath(dir, name);
  RETURN_IF_ERROR(WriteStringToFile(base + ".dot", dot));
  std::cout << "  wrote " << base << ".dot";
  if (svg) std::cout << (RenderSvg(base + ".dot", base + ".svg") ? " (+ .svg)" : " (svg FAILED)");
  std::cout << "\n";
  return Status::OK();
}

Status ClearGraphSnapshots(const std::string& dir) {
  std::vector<std::string> names;
  RETURN_IF_ERROR(ListDirectory(dir, &names));
  for (const auto& n : names) {
    const bool numbered = n.size() > 7 && std::isdigit(static_cast<unsigned char>(n[0])) &&
                          std::isdigit(static_cast<unsigned char>(n[1])) && n[2] == '_';
    const std::string ext = n.size() > 4 ? n.substr(n.size() - 4) : "";
    if (numbered && (ext == ".dot" || ext == ".svg")) std::remove(JoinPath(dir, n).c_str());
  }
  return Status::OK();
}

}  // namespace tools
}  // namespace lite
