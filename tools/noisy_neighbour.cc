#include "tools/noisy_neighbour.h"

#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <string>

namespace lite {
namespace tools {

namespace {
[[noreturn]] void BusyLoop(int cpu, double max_seconds, pid_t parent) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(0);  // the parent died before prctl
  setsid();
  setpriority(PRIO_PROCESS, 0, 19);
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  sched_setaffinity(0, sizeof(set), &set);
  const auto end = std::chrono::steady_clock::now() +
                   std::chrono::duration<double>(max_seconds);
  volatile uint64_t sink = 0;
  while (std::chrono::steady_clock::now() < end) {
    for (int i = 0; i < 100000; ++i) sink = sink + i;
  }
  _exit(0);
}
}  // namespace

StatusOr<std::unique_ptr<NoisyNeighbour>> NoisyNeighbour::Start(int cpu, double max_seconds) {
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) return Internal(std::string("noisy neighbour: fork failed: ") + std::strerror(errno));
  if (pid == 0) BusyLoop(cpu, max_seconds, parent);
  return std::unique_ptr<NoisyNeighbour>(new NoisyNeighbour(pid, cpu));
}

NoisyNeighbour::~NoisyNeighbour() {
  kill(pid_, SIGKILL);
  waitpid(pid_, nullptr, 0);
}

}  // namespace tools
}  // namespace lite
