#include "lite/backends/npu/ccodegen/ccodegen_toolchain.h"

#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

#include "lite/utils/logging.h"

extern char** environ;

namespace lite {
namespace npu {

namespace {

bool IsExecutableFile(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(path.c_str(), X_OK) == 0;
}

// `name` itself when it holds a '/', else its first match in $PATH; "" if none.
std::string Resolve(const std::string& name) {
  if (name.find('/') != std::string::npos) return IsExecutableFile(name) ? name : "";
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "";
  size_t begin = 0;
  while (begin <= dirs.size()) {
    size_t end = dirs.find(':', begin);
    if (end == std::string::npos) end = dirs.size();
    const std::string dir = end > begin ? dirs.substr(begin, end - begin) : ".";
    if (IsExecutableFile(dir + "/" + name)) return dir + "/" + name;
    begin = end + 1;
  }
  return "";
}

// A private directory, removed with its files on destruction.
class TempDir {
 public:
  static StatusOr<std::unique_ptr<TempDir>> Create() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/lite_ccodegen_XXXXXX";
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    if (!mkdtemp(buf.data())) {
      return FailedPrecondition("ccodegen: cannot create a temporary directory " + pattern + ": " +
                                std::strerror(errno));
    }
    return std::unique_ptr<TempDir>(new TempDir(buf.data()));
  }
  ~TempDir() {
    if (DIR* d = opendir(path_.c_str())) {
      while (dirent* e = readdir(d)) {
        const std::string name = e->d_name;
        if (name != "." && name != "..") unlink((path_ + "/" + name).c_str());
      }
      closedir(d);
    }
    rmdir(path_.c_str());
  }
  const std::string& path() const { return path_; }
  std::string File(const std::string& name) const { return path_ + "/" + name; }

 private:
  explicit TempDir(std::string path) : path_(std::move(path)) {}
  std::string path_;
};

Status WriteBytes(const std::string& path, const void* data, size_t size) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
  f.close();
  if (!f) return FailedPrecondition("ccodegen: cannot write " + path);
  return Status::OK();
}

std::string ReadText(const std::string& path, size_t limit) {
  std::ifstream f(path, std::ios::binary);
  std::string s((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (s.size() > limit) s = s.substr(0, limit) + "...";
  return s;
}

// Runs argv[0] with its output in `log`; OK when it exits with 0.
Status Run(const std::vector<std::string>& argv, const std::string& log) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int err = posix_spawn(&pid, argv[0].c_str(), &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (err != 0) return FailedPrecondition("cannot start " + argv[0] + ": " + std::strerror(err));
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return Internal("waitpid on " + argv[0] + ": " + std::strerror(errno));
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return Status::OK();
  const std::string how = WIFEXITED(status) ? "exited with " + std::to_string(WEXITSTATUS(status))
                                            : "was killed by signal " + std::to_string(WTERMSIG(status));
  return FailedPrecondition(argv[0] + " " + how + ": " + ReadText(log, 2000));
}

std::string Join(const std::vector<std::string>& argv) {
  std::string s;
  for (const std::string& a : argv) s += (s.empty() ? "" : " ") + a;
  return s;
}

}  // namespace

StatusOr<std::string> FindCCompiler() {
  if (const char* chosen = std::getenv(kCcodegenCompilerEnv)) {
    const std::string path = Resolve(chosen);
    if (path.empty()) {
      return NotFound(std::string("ccodegen: C compiler '") + chosen + "' from $" +
                      kCcodegenCompilerEnv + " is not an executable file");
    }
    return path;
  }
  for (const char* name : {"cc", "gcc", "clang"}) {
    const std::string path = Resolve(name);
    if (!path.empty()) return path;
  }
  return NotFound(std::string("ccodegen: no C compiler (cc, gcc or clang) in $PATH; set $") +
                  kCcodegenCompilerEnv);
}

SharedObject::~SharedObject() {
  if (handle_) dlclose(handle_);
}

void* SharedObject::Symbol(const char* name) const { return dlsym(handle_, name); }

StatusOr<std::vector<uint8_t>> BuildSharedObject(const std::string& source) {
  ASSIGN_OR_RETURN(std::string compiler, FindCCompiler());
  ASSIGN_OR_RETURN(std::unique_ptr<TempDir> dir, TempDir::Create());
  RETURN_IF_ERROR(WriteBytes(dir->File("model.c"), source.data(), source.size()));
  const char* march = std::getenv(kCcodegenMarchEnv);
  const std::string march_flag = std::string("-march=") + (march && *march ? march : "native");
  const std::vector<std::string> argv = {compiler, "-O2", march_flag, "-fPIC", "-shared",
                                         "-std=c99", "-o", dir->File("model.so"),
                                         dir->File("model.c"), "-lm"};
  if (const char* v = std::getenv(kCcodegenVerboseEnv); v && std::string(v) == "1") {
    LogMessage(LogSeverity::kInfo, "ccodegen: " + Join(argv));
  }
  Status built = Run(argv, dir->File("compile.log"));
  if (!built.ok()) return built.WithContext("ccodegen: compiling " + dir->File("model.c"));
  std::ifstream f(dir->File("model.so"), std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (bytes.empty()) return FailedPrecondition("ccodegen: " + compiler + " wrote no " + dir->File("model.so"));
  return bytes;
}

StatusOr<std::unique_ptr<SharedObject>> LoadSharedObject(const std::vector<uint8_t>& bytes) {
  ASSIGN_OR_RETURN(std::unique_ptr<TempDir> dir, TempDir::Create());
  const std::string path = dir->File("model.so");
  RETURN_IF_ERROR(WriteBytes(path, bytes.data(), bytes.size()));
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* why = dlerror();
    return FailedPrecondition(std::string("ccodegen: dlopen of the generated code failed: ") +
                              (why ? why : "unknown error"));
  }
  return std::make_unique<SharedObject>(handle);
}

}  // namespace npu
}  // namespace lite
