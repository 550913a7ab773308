// static_kernel_pick_pass: picks one registered kernel per op.
//
// A candidate is scored against the user's valid places in order: the first
// places weigh most; within a place a target match is required (kernels
// registered for kAny match every target), then precision and layout matches
// add smaller amounts. Host kernels stay eligible for any target as the
// fallback. A kernel whose declared float input would receive an integer
// var is rejected, and so is a kernel whose KernelDef::Accepts declines the
// op's attributes or its vars' declared dims; an int8 op (enable_int8)
// takes only kInt8 kernels. Ties go to the smaller kernel
// key, so the pick is deterministic. Every op left without a kernel is
// listed in one error.
// Ops of blocks added by passes (subgraph bodies) and of the program's
// other blocks (control-flow sub-blocks) get host kernels, recorded in their
// kKernelKeyAttr.
#include <algorithm>

#include "lite/optimizer/pass.h"
#include "lite/core/program.h"

namespace lite {
namespace mir {

namespace {

bool IntegerType(DataType t) {
  return t == DataType::kInt32 || t == DataType::kInt64 || t == DataType::kBool ||
         t == DataType::kInt8 || t == DataType::kUInt8 || t == DataType::kInt16;
}

bool InputsAcceptable(const KernelDef& def, const cpp::OpDesc& desc, const SSAGraph& g) {
  for (const auto& kv : desc.inputs()) {
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

// An int8 op (attribute enable_int8, set by quant_dequant_fuse_pass) takes
// only kInt8 kernels, and kInt8 kernels take only int8 ops.
bool PrecisionFits(const KernelDef& def, const cpp::OpDesc& desc) {
  return desc.GetAttr<bool>("enable_int8", false) == (def.place.precision == PrecisionType::kInt8);
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
  bool runs_on_sub_blocks() const override { return true; }

  StatusOr<bool> Run(SSAGraph* graph) override {
    std::vector<std::string> missing;
    bool changed = false;
    const VarDimsFn var_dims = DeclaredDims(*graph);
    auto pick = [&](const cpp::OpDesc& desc, const std::vector<Place>& places) {
      const KernelDef* best = nullptr;
      int64_t best_score = -1;
      for (const KernelDef* def : KernelRegistry::Global().Find(desc.Type())) {
        if (!InputsAcceptable(*def, desc, *graph) || !PrecisionFits(*def, desc) ||
            !def->Accepts(desc, var_dims)) {
          continue;
        }
        int64_t s = Score(*def, places);
        if (s > best_score) {  // Find() is key-sorted: ties keep the first
          best = def;
          best_score = s;
        }
      }
      if (!best) {
        auto outs = desc.OutputArgumentNames();
        missing.push_back(desc.Type() + (outs.empty() ? "" : " (output " + outs.front() + ")"));
      }
      return best;
    };
    for (Node* stmt : graph->StmtNodes()) {
      const KernelDef* best = pick(stmt->stmt().desc, graph->valid_places());
      if (!best) continue;
      if (stmt->stmt().picked != best) changed = true;
      stmt->stmt().picked = best;
      Count(std::string("picked_") + TargetName(best->place.target));
    }
    // Ops of added blocks (subgraph bodies) get host kernels: the program a
    // subgraph falls back to must be ready without rerunning passes.
    for (cpp::BlockDesc& block : *graph->mutable_added_blocks()) {
      for (cpp::OpDesc& desc : block.ops) {
        const KernelDef* best = pick(desc, {Place(TargetType::kHost)});
        if (!best) continue;
        if (desc.GetAttr<std::string>(kKernelKeyAttr, "") != best->Key()) changed = true;
        desc.SetAttr(kKernelKeyAttr, best->Key());
        Count("picked_host_in_subgraphs");
      }
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
