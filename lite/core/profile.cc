#include "lite/core/profile.h"

#include <cstdio>
#include <sstream>

namespace lite {

std::string FormatProfile(const std::vector<ProfileRow>& rows, double total_ms) {
  std::ostringstream os;
  char line[256];
  std::snprintf(line, sizeof(line), "%-26s %-20s %5s %10s %7s %9s  %s\n", "op type", "place",
                "ops", "ms/run", "share", "GFLOP/s", "impl");
  os << line;
  for (const auto& r : rows) {
    char gf[32] = "-";
    if (r.gflops >= 0) std::snprintf(gf, sizeof(gf), "%.1f", r.gflops);
    std::snprintf(line, sizeof(line), "%-26s %-20s %5d %10.3f %6.1f%% %9s  %s\n",
                  r.op_type.c_str(), r.place.c_str(), r.ops, r.ms, r.percent, gf,
                  r.impl.empty() ? "-" : r.impl.c_str());
    os << line;
  }
  std::snprintf(line, sizeof(line), "%-26s %-20s %5s %10.3f %6.1f%%\n", "total", "", "", total_ms,
                total_ms > 0 ? 100.0 : 0.0);
  os << line;
  return os.str();
}

std::string FormatProfileDetail(const std::vector<ProfileRow>& rows, double total_ms) {
  std::ostringstream os;
  char line[320];
  std::snprintf(line, sizeof(line), "%4s %-26s %-30s %-18s %9s %7s %9s  %s\n", "#", "op type",
                "output", "place", "ms/run", "share", "GFLOP/s", "impl");
  os << line;
  for (size_t i = 0; i < rows.size(); ++i) {
    const ProfileRow& r = rows[i];
    char gf[32] = "-";
    if (r.gflops >= 0) std::snprintf(gf, sizeof(gf), "%.1f", r.gflops);
    std::snprintf(line, sizeof(line), "%4zu %-26s %-30s %-18s %9.3f %6.1f%% %9s  %s\n", i,
                  r.op_type.c_str(), r.output.c_str(), r.place.c_str(), r.ms, r.percent, gf,
                  r.impl.empty() ? "-" : r.impl.c_str());
    os << line;
  }
  std::snprintf(line, sizeof(line), "%4s %-26s %-30s %-18s %9.3f %6.1f%%\n", "", "total", "", "",
                total_ms, total_ms > 0 ? 100.0 : 0.0);
  os << line;
  return os.str();
}

}  // namespace lite
