// Helpers for MIR unit tests: build small programs op by op, and register
// toy kernels for fake op types on chosen places.
#pragma once

#include <string>
#include <vector>

#include "lite/core/kernel.h"
#include "lite/base/program_desc.h"

namespace lite {
namespace mir {
namespace testing {

// Appends an op to block 0 of `prog` (creating the block and float var
// descs for every var mentioned).
inline cpp::OpDesc& AddOp(cpp::ProgramDesc* prog, const std::string& type,
                          const std::map<std::string, std::vector<std::string>>& in,
                          const std::map<std::string, std::vector<std::string>>& out) {
  if (prog->blocks.empty()) prog->blocks.emplace_back();
  cpp::BlockDesc& b = prog->blocks[0];
  cpp::OpDesc op(type);
  for (const auto& kv : in) op.SetInput(kv.first, kv.second);
  for (const auto& kv : out) op.SetOutput(kv.first, kv.second);
  for (const auto& names : {op.InputArgumentNames(), op.OutputArgumentNames()}) {
    for (const auto& n : names) {
      if (!b.FindVar(n)) {
        cpp::VarDesc v;
        v.name = n;
        b.vars.push_back(v);
      }
    }
  }
  b.ops.push_back(op);
  return b.ops.back();
}

class NoopKernel : public KernelBase {
 public:
  Status Run() override { return Status::OK(); }
};

// Registers a no-op kernel for `op` at `place` (once per process per key).
inline const KernelDef* RegisterToyKernel(const std::string& op, Place place,
                                          const std::string& alias = "def") {
  KernelDef probe;
  probe.op_type = op;
  probe.place = place;
  probe.alias = alias;
  if (const KernelDef* d = KernelRegistry::Global().FindByKey(probe.Key())) return d;
  return &KernelRegistry::Global().Register(
      op, place, alias, [] { return std::unique_ptr<KernelBase>(new NoopKernel); });
}

}  // namespace testing
}  // namespace mir
}  // namespace lite
