#include "tools/opt_report.h"

#include "lite/backends/npu/driver.h"
#include "lite/backends/npu/npu_options.h"
#include "lite/kernels/npu/bridges/bridge.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <sstream>

#include "lite/core/kernel.h"
#include "lite/core/op_lite.h"
#include "lite/core/program.h"

namespace lite {
namespace tools {

namespace {

std::set<std::string> AllOpTypes() {
  std::set<std::string> types;
  for (const auto& t : OpRegistry::Global().Types()) types.insert(t);
  for (const KernelDef* def : KernelRegistry::Global().All()) types.insert(def->op_type);
  return types;
}

std::string Pad(const std::string& s, size_t width) {
  return s.size() >= width ? s + " " : s + std::string(width - s.size(), ' ');
}

std::string TargetHeader(size_t op_width) {
  std::string line = Pad("op", op_width);
  for (TargetType t : ReportTargets()) line += Pad(TargetName(t), 6);
  return line;
}

// The target of a recorded kernel key ("op/alias/target/precision/layout").
std::string KeyTarget(const std::string& key) {
  if (const KernelDef* def = KernelRegistry::Global().FindByKey(key)) {
    return TargetName(def->place.target);
  }
  std::vector<std::string> parts;
  std::stringstream ss(key);
  std::string part;
  while (std::getline(ss, part, '/')) parts.push_back(part);
  return parts.size() >= 3 ? parts[2] + " (unregistered)" : "unknown";
}

}  // namespace

const std::vector<TargetType>& ReportTargets() {
  static const std::vector<TargetType> targets{TargetType::kHost, TargetType::kX86,
                                               TargetType::kARM, TargetType::kNPU};
  return targets;
}

bool HasKernelFor(const std::string& op, TargetType t) {
  for (const KernelDef* def : KernelRegistry::Global().Find(op)) {
    if (def->place.target == t || def->place.target == TargetType::kAny) return true;
  }
  return false;
}

bool SupportedBy(const std::string& op, const std::vector<Place>& places) {
  if (!OpRegistry::Global().Has(op)) return false;
  if (HasKernelFor(op, TargetType::kHost)) return true;  // the fallback
  for (const Place& p : places) {
    if (HasKernelFor(op, p.target)) return true;
  }
  return false;
}

std::string AllOpsTable() {
  std::ostringstream os;
  const auto types = AllOpTypes();
  os << TargetHeader(32) << "op registered\n";
  for (const auto& type : types) {
    std::string line = Pad(type, 32);
    for (TargetType t : ReportTargets()) line += Pad(HasKernelFor(type, t) ? "Y" : "-", 6);
    line += OpRegistry::Global().Has(type) ? "Y" : "- (kernel only)";
    os << line << "\n";
  }
  os << types.size() << " op types\n";
  return os.str();
}

std::string SupportedOpsText(const std::vector<Place>& places) {
  std::ostringstream os;
  int n = 0;
  for (const auto& type : AllOpTypes()) {
    if (!SupportedBy(type, places)) continue;
    std::string targets;
    for (TargetType t : ReportTargets()) {
      if (HasKernelFor(type, t)) targets += (targets.empty() ? "" : ",") + std::string(TargetName(t));
    }
    os << Pad(type, 32) << targets << "\n";
    ++n;
  }
  os << n << " op types supported\n";
  return os.str();
}

namespace {
std::map<std::string, int> AllBlockOpCounts(const cpp::ProgramDesc& program) {
  std::map<std::string, int> counts;
  for (const auto& block : program.blocks) {
    for (const auto& op : block.ops) ++counts[op.Type()];
  }
  return counts;
}

size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t replace = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
      diagonal = row[j];
      row[j] = std::min({replace, row[j] + 1, row[j - 1] + 1});
    }
  }
  return row[b.size()];
}
}  // namespace

std::string ClosestSupportedOp(const std::string& op, const std::vector<Place>& places) {
  std::string best;
  size_t best_distance = 0;
  for (const auto& type : AllOpTypes()) {  // sorted: the first of equals wins
    if (!SupportedBy(type, places)) continue;
    const size_t d = EditDistance(op, type);
    if (best.empty() || d < best_distance) best = type, best_distance = d;
  }
  return best;
}

std::vector<UnsupportedOp> UnsupportedModelOps(const cpp::ProgramDesc& program,
                                               const std::vector<Place>& places) {
  std::vector<UnsupportedOp> out;
  for (const auto& kv : AllBlockOpCounts(program)) {
    if (SupportedBy(kv.first, places)) continue;
    out.push_back({kv.first, kv.second, ClosestSupportedOp(kv.first, places)});
  }
  return out;
}

std::string UnsupportedOpsText(const std::vector<UnsupportedOp>& ops) {
  std::string text;
  for (const auto& op : ops) {
    if (!text.empty()) text += ", ";
    text += op.type + " x" + std::to_string(op.count);
    if (!op.closest.empty()) text += " (closest supported: " + op.closest + ")";
  }
  return text;
}

std::string ModelOpsTable(const cpp::ProgramDesc& program, const std::vector<Place>& places) {
  const std::map<std::string, int> counts = AllBlockOpCounts(program);
  std::ostringstream os;
  os << Pad("op", 32) << Pad("count", 7);
  for (TargetType t : ReportTargets()) os << Pad(TargetName(t), 6);
  os << "runs\n";
  int total = 0;
  for (const auto& kv : counts) {
    total += kv.second;
    os << Pad(kv.first, 32) << Pad(std::to_string(kv.second), 7);
    for (TargetType t : ReportTargets()) os << Pad(HasKernelFor(kv.first, t) ? "Y" : "-", 6);
    os << (SupportedBy(kv.first, places) ? "yes" : "NO") << "\n";
  }
  os << total << " ops, " << counts.size() << " types";
  const auto unsupported = UnsupportedModelOps(program, places);
  if (unsupported.empty()) {
    os << "; all supported\n";
  } else {
    os << "; unsupported: " << UnsupportedOpsText(unsupported) << "\n";
  }
  return os.str();
}

std::string KernelsText() {
  std::ostringstream os;
  const auto all = KernelRegistry::Global().All();
  for (const KernelDef* def : all) os << def->Key() << "\n";
  os << all.size() << " kernels\n";
  return os.str();
}

std::string DriversText(const npu::PluginScan& scan) {
  std::ostringstream os;
  const auto names = npu::DriverRegistry::Global().Names();
  os << "npu drivers (" << names.size() << "; plugin ABI " << npu::EngineAbiVersion() << "):\n";
  for (const auto& name : names) {
    const char* tag = name == NpuOptions().driver ? "  (default)" : "";
    npu::PluginLibrary plugin;
    if (npu::FindPlugin(name, &plugin)) {
      os << "  " << name << "  abi " << plugin.abi_major << "." << plugin.abi_minor
         << "  version " << (plugin.version.empty() ? "?" : plugin.version) << tag << "  "
         << plugin.path << "\n";
      continue;
    }
    auto driver = npu::DriverRegistry::Global().Create(name);
    if (!driver.ok()) {
      os << "  " << name << ": " << driver.status().message() << "\n";
      continue;
    }
    os << "  " << name << "  api " << (*driver)->api_major() << "." << (*driver)->api_minor()
       << tag << "  " << npu::DriverRegistry::Global().Origin(name) << "\n";
  }
  for (const auto& r : scan.refused) os << "  refused: " << r << "\n";
  for (const auto& r : scan.ignored) os << "  ignored: " << r << "\n";
  const auto bridged = npu::BridgeRegistry::Global().OpTypes();
  os << "op bridges (" << bridged.size() << "):";
  for (const auto& t : bridged) os << " " << t;
  os << "\n";
  return os.str();
}

std::map<std::string, int> OpCounts(const cpp::ProgramDesc& program) {
  std::map<std::string, int> counts;
  if (!program.blocks.empty()) {
    for (const auto& op : program.blocks[0].ops) ++counts[op.Type()];
  }
  return counts;
}

std::string SummaryText(const cpp::ProgramDesc& before, const cpp::ProgramDesc& after) {
  const auto a = OpCounts(before), b = OpCounts(after);
  int na = 0, nb = 0;
  for (const auto& kv : a) na += kv.second;
  for (const auto& kv : b) nb += kv.second;
  std::set<std::string> types;
  for (const auto& kv : a) types.insert(kv.first);
  for (const auto& kv : b) types.insert(kv.first);
  std::ostringstream os;
  os << "summary: ops " << na << " -> " << nb << "\n";
  for (const auto& t : types) {
    const int x = a.count(t) ? a.at(t) : 0, y = b.count(t) ? b.at(t) : 0;
    char line[160];
    std::snprintf(line, sizeof(line), "  %-32s %4d -> %4d", t.c_str(), x, y);
    os << line;
    if (y != x) os << "  (" << (y > x ? "+" : "") << (y - x) << ")";
    os << "\n";
  }
  os << "  subgraph ops: " << (b.count("subgraph") ? b.at("subgraph") : 0) << "\n";
  std::map<std::string, int> per_target;
  if (!after.blocks.empty()) {
    for (const auto& op : after.blocks[0].ops) {
      ++per_target[KeyTarget(op.GetAttr<std::string>(kKernelKeyAttr, ""))];
    }
  }
  os << "  kernels per target:";
  for (const auto& kv : per_target) os << " " << kv.first << "=" << kv.second;
  os << "\n";
  return os.str();
}

}  // namespace tools
}  // namespace lite
