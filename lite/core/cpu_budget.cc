#include "lite/core/cpu_budget.h"

#include <dirent.h>
#include <sched.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace lite {

namespace {

std::string ReadSmallFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return "";
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The cgroup path of `controller` ("" = the v2 unified line "0::") from
// /proc/self/cgroup, or "" when absent.
std::string CgroupPath(const std::string& controller) {
  std::istringstream lines(ReadSmallFile("/proc/self/cgroup"));
  std::string line;
  while (std::getline(lines, line)) {
    // id:controllers:path
    const size_t a = line.find(':');
    const size_t b = a == std::string::npos ? a : line.find(':', a + 1);
    if (b == std::string::npos) continue;
    const std::string controllers = line.substr(a + 1, b - a - 1);
    const std::string path = line.substr(b + 1);
    if (controller.empty() ? controllers.empty()
                           : ("," + controllers + ",").find("," + controller + ",") !=
                                 std::string::npos) {
      return path;
    }
  }
  return "";
}

double CgroupQuota() {
  const std::string v2 = CgroupPath("");
  std::string cpu_max;
  if (!v2.empty()) cpu_max = ReadSmallFile("/sys/fs/cgroup" + v2 + "/cpu.max");
  if (cpu_max.empty()) cpu_max = ReadSmallFile("/sys/fs/cgroup/cpu.max");
  std::string quota, period;
  const std::string v1 = CgroupPath("cpu");
  for (const char* mount : {"/sys/fs/cgroup/cpu", "/sys/fs/cgroup/cpu,cpuacct"}) {
    if (!quota.empty()) break;
    quota = ReadSmallFile(std::string(mount) + v1 + "/cpu.cfs_quota_us");
    period = ReadSmallFile(std::string(mount) + v1 + "/cpu.cfs_period_us");
  }
  return ParseCpuQuota(cpu_max, quota, period);
}

}  // namespace

std::vector<int> AffinityCpus() {
  std::vector<int> cpus;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    for (int c = 0; c < CPU_SETSIZE; ++c) {
      if (CPU_ISSET(c, &set)) cpus.push_back(c);
    }
  }
  if (cpus.empty()) {
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    for (int c = 0; c < (online > 0 ? online : 1); ++c) cpus.push_back(c);
  }
  return cpus;
}

double ParseCpuQuota(const std::string& cpu_max, const std::string& quota_us,
                     const std::string& period_us) {
  double quota = 0, period = 0;
  if (!cpu_max.empty()) {
    std::istringstream in(cpu_max);
    std::string q;
    in >> q >> period;
    if (q != "max" && in) quota = std::atof(q.c_str());
  } else if (!quota_us.empty() && !period_us.empty()) {
    quota = std::atof(quota_us.c_str());
    period = std::atof(period_us.c_str());
  }
  return quota > 0 && period > 0 ? quota / period : 0;
}

int UsableCpus() {
  int usable = static_cast<int>(AffinityCpus().size());
  const double quota = CgroupQuota();
  if (quota > 0) usable = std::min(usable, static_cast<int>(std::ceil(quota - 1e-9)));
  return usable < 1 ? 1 : usable;
}

ThreadCap CapThreads(int requested, int usable) {
  ThreadCap cap;
  cap.threads = requested < 1 ? 1 : requested;
  if (cap.threads > usable) {
    cap.note = "threads: " + std::to_string(cap.threads) + " requested, " +
               std::to_string(usable) + " used: this process may run on " +
               std::to_string(usable) + " CPU" + (usable == 1 ? "" : "s") +
               " (affinity mask and cgroup CPU quota)";
    cap.threads = usable;
  }
  return cap;
}

ThreadCap CapThreads(int requested) { return CapThreads(requested, UsableCpus()); }

int64_t ProcessRunDelayNs() {
  DIR* dir = opendir("/proc/self/task");
  if (!dir) return -1;
  int64_t total = 0;
  bool any = false;
  while (dirent* e = readdir(dir)) {
    if (e->d_name[0] == '.') continue;
    const std::string path = std::string("/proc/self/task/") + e->d_name + "/schedstat";
    FILE* f = std::fopen(path.c_str(), "r");
    if (!f) continue;  // the thread just exited
    unsigned long long run = 0, wait = 0;
    if (std::fscanf(f, "%llu %llu", &run, &wait) == 2) {
      total += static_cast<int64_t>(wait);
      any = true;
    }
    std::fclose(f);
  }
  closedir(dir);
  return any ? total : -1;
}

int64_t IdleNs(const std::vector<int>& cpus) {
  FILE* f = std::fopen("/proc/stat", "r");
  if (!f) return -1;
  const long hz = sysconf(_SC_CLK_TCK);
  int64_t total = 0;
  bool any = false;
  char line[512];
  while (std::fgets(line, sizeof(line), f)) {
    int cpu = -1;
    unsigned long long user, nice, system, idle, iowait;
    if (std::sscanf(line, "cpu%d %llu %llu %llu %llu %llu", &cpu, &user, &nice, &system, &idle,
                    &iowait) != 6) {
      continue;  // the aggregate "cpu " line and everything else
    }
    for (int c : cpus) {
      if (c == cpu) {
        total += static_cast<int64_t>(idle + iowait);
        any = true;
      }
    }
  }
  std::fclose(f);
  if (!any || hz <= 0) return -1;
  return total * (1000000000LL / hz);
}

}  // namespace lite
