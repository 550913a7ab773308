#include "lite/utils/file_util.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace lite {

namespace {

Status ErrnoStatus(const std::string& action, const std::string& path, int err) {
  std::string msg = "cannot " + action + " '" + path + "': " + std::strerror(err);
  if (err == ENOENT || err == ENOTDIR) return NotFound(msg);
  return InvalidArgument(msg);
}

// Closes the descriptor on every path out of a function.
struct FdCloser {
  int fd;
  ~FdCloser() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

Status ReadFileToString(const std::string& path, std::string* out) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ErrnoStatus("open", path, errno);
  FdCloser closer{fd};
  struct stat st;
  if (::fstat(fd, &st) != 0) return ErrnoStatus("stat", path, errno);
  if (S_ISDIR(st.st_mode)) {
    return InvalidArgument("'" + path + "' is a directory, expected a file");
  }
  std::string bytes(static_cast<size_t>(st.st_size), '\0');
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::read(fd, &bytes[done], bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return ErrnoStatus("read", path, errno);
    if (n == 0) break;
    done += static_cast<size_t>(n);
  }
  if (done != bytes.size()) {
    return DataLoss("short read of '" + path + "': got " + std::to_string(done) +
                    " of " + std::to_string(bytes.size()) + " bytes");
  }
  *out = std::move(bytes);
  return Status::OK();
}

Status WriteStringToFile(const std::string& path, const std::string& bytes) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return ErrnoStatus("create", path, errno);
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      int err = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      return ErrnoStatus("write", path, err);
    }
    done += static_cast<size_t>(n);
  }
  if (::close(fd) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    return ErrnoStatus("write", path, err);
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    return ErrnoStatus("rename a temporary file to", path, err);
  }
  return Status::OK();
}

bool IsRegularFile(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool IsDirectory(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

Status ListDirectory(const std::string& dir, std::vector<std::string>* names) {
  struct stat st;
  if (::stat(dir.c_str(), &st) != 0) return ErrnoStatus("open directory", dir, errno);
  if (!S_ISDIR(st.st_mode)) {
    return InvalidArgument("'" + dir + "' is not a directory");
  }
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return ErrnoStatus("open directory", dir, errno);
  names->clear();
  while (struct dirent* e = ::readdir(d)) {
    std::string n = e->d_name;
    if (n != "." && n != "..") names->push_back(n);
  }
  ::closedir(d);
  std::sort(names->begin(), names->end());
  return Status::OK();
}

std::string JoinPath(const std::string& dir, const std::string& name) {
  if (dir.empty()) return name;
  if (dir.back() == '/') return dir + name;
  return dir + "/" + name;
}

}  // namespace lite
