// static_kernel_pick_pass: picks one registered kernel per op.
//
// A candidate is scored against the user's valid places in order: the first
// places weigh most; within a place a target match is required (kernels
// registered for kAny match every target), then precision and layout matches
// add smaller amounts. Host kernels stay eligible for any target as the
// fallback. A kernel whose declared float input would receive an integer
// var is rejected. Ties go to the smaller kernel key, so the pick is
// deterministic. Every op left without a kernel is listed in one error.
#include <algorithm>

#include "lite/core/mir/pass.h"

namespace lite {
namespace mir {

namespace {

bool IntegerType(DataType t) {
  return t == DataType::kInt32 || t == DataType::kInt64 || t == DataType::kBool ||
         t == DataType::kInt8 || t == DataType::kUInt8 || t == DataType::kInt16;
}

bool InputsAcceptable(const KernelDef& def, const Node* stmt, const SSAGraph& g) {
  for (const auto& kv : stmt->stmt().desc.inputs()) {
    if (def.InputPlace(kv.first).precision != PrecisionType::kFloat) continue;
    for (const auto& var : kv.second) {
      const cpp::VarDesc* vd = g.FindVarDesc(var);
      if (vd && vd->kind == cpp::VarKind::kLoDTensor && IntegerType(vd->dtype)) {
        return false;
      }
    }
  }
  return true;
}

int64_t Score(const KernelDef& def, const std::vector<Place>& places) {
  int64_t best = -1;
  const int64_t n = static_cast<int64_t>(places.size());
  for (int64_t i = 0; i < n; ++i) {
    const Place& p = places[i];
    if (def.place.target != p.target && def.place.target != TargetType::kAny) continue;
    int64_t s = (n - i) * 1000;
    if (def.place.precision == p.precision) s += 100;
    else if (def.place.precision == PrecisionType::kAny) s += 50;
    if (def.place.layout == p.layout) s += 10;
    else if (def.place.layout == DataLayoutType::kAny) s += 5;
    best = std::max(best, s);
  }
  if (best < 0 && def.place.target == TargetType::kHost) best = 1;  // fallback
  return best;
}

}  // namespace

class StaticKernelPickPass : public Pass {
 public:
  std::string name() const override { return "static_kernel_pick_pass"; }

  StatusOr<bool> Run(SSAGraph* graph) override {
    std::vector<std::string> missing;
    bool changed = false;
    for (Node* stmt : graph->StmtNodes()) {
      const auto& type = stmt->stmt().desc.Type();
      const KernelDef* best = nullptr;
      int64_t best_score = -1;
      for (const KernelDef* def : KernelRegistry::Global().Find(type)) {
        if (!InputsAcceptable(*def, stmt, *graph)) continue;
        int64_t s = Score(*def, graph->valid_places());
        if (s > best_score) {  // Find() is key-sorted: ties keep the first
          best = def;
          best_score = s;
        }
      }
      if (!best) {
        auto outs = stmt->stmt().desc.OutputArgumentNames();
        missing.push_back(type + (outs.empty() ? "" : " (output " + outs.front() + ")"));
        continue;
      }
      if (stmt->stmt().picked != best) changed = true;
      stmt->stmt().picked = best;
      Count(std::string("picked_") + TargetName(best->place.target));
    }
    if (!missing.empty()) {
      std::string places;
      for (const Place& p : graph->valid_places()) {
        places += (places.empty() ? "" : ", ") + p.DebugString();
      }
      std::string ops;
      for (const auto& m : missing) ops += (ops.empty() ? "" : "; ") + m;
      return NotFound(std::to_string(missing.size()) +
                      " op(s) have no kernel for any valid place [" + places +
                      "] (host is always tried as fallback): " + ops);
    }
    return changed;
  }
};

}  // namespace mir
}  // namespace lite

REGISTER_MIR_PASS(static_kernel_pick_pass, lite::mir::StaticKernelPickPass);
