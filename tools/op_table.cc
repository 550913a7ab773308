#include "tools/op_table.h"

#include <map>
#include <set>
#include <sstream>

#include "lite/core/kernel.h"
#include "lite/core/op_lite.h"
#include "lite/kernels/npu/bridges/bridge.h"

namespace lite {
namespace tools {

namespace {

std::string JoinSorted(const std::set<std::string>& items, const std::string& sep) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : sep) + s;
  return out;
}

}  // namespace

std::string OpTableMarkdown() {
  std::set<std::string> types;
  for (const auto& t : OpRegistry::Global().Types()) types.insert(t);
  // op type -> column ("host", "x86", "other") -> precisions / places.
  std::map<std::string, std::map<std::string, std::set<std::string>>> kernels;
  for (const KernelDef* def : KernelRegistry::Global().All()) {
    types.insert(def->op_type);
    const TargetType t = def->place.target;
    if (t == TargetType::kHost || t == TargetType::kX86) {
      kernels[def->op_type][TargetName(t)].insert(PrecisionName(def->place.precision));
    } else {
      kernels[def->op_type]["other"].insert(def->place.DebugString());
    }
  }
  const std::vector<std::string> bridged = npu::BridgeRegistry::Global().OpTypes();
  const std::set<std::string> bridges(bridged.begin(), bridged.end());
  types.insert(bridges.begin(), bridges.end());

  std::ostringstream out;
  out << "# Ops\n\n"
      << "Generated from the op, kernel and NPU bridge registries by `" << kOpTableCommand
      << "`; do not edit by hand (`//tools:op_table_test` fails when this file is out of "
         "date).\n\n"
      << types.size() << " op types. **host** / **x86**: the precisions of the kernels "
      << "registered for that target (`any`: the kernel dispatches on the tensors' dtype); "
      << "**other**: kernels of other targets (target/precision/layout); **npu bridge**: an "
      << "NPU bridge converts the op inside device subgraphs; **attribute values**: the only "
      << "values of an attribute the op accepts, where it declares them.\n\n"
      << "| op | host | x86 | other | npu bridge | attribute values |\n"
      << "|---|---|---|---|---|---|\n";
  for (const auto& type : types) {
    auto& k = kernels[type];
    std::set<std::string> attrs;
    for (const auto& kv : OpRegistry::Global().AttrValues(type)) {
      std::set<std::string> values(kv.second.begin(), kv.second.end());
      attrs.insert("`" + kv.first + "`: " + JoinSorted(values, ", "));
    }
    out << "| " << type << " | " << JoinSorted(k["host"], ", ") << " | "
        << JoinSorted(k["x86"], ", ") << " | " << JoinSorted(k["other"], ", ") << " | "
        << (bridges.count(type) ? "yes" : "") << " | " << JoinSorted(attrs, "; ") << " |\n";
  }
  return out.str();
}

}  // namespace tools
}  // namespace lite
