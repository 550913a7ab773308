// layout_cast_pass: keeps activations in NHWC between consecutive NHWC
// kernels (the x86 and arm targets) and converts only where the layout
// really changes.
//
// Kernels registered at layout NHWC (lite/kernels/x86, lite/kernels/arm) read
// and write
// their rank-4 activations in NHWC element order (dims stay NCHW), except
// inputs and outputs they bind to another layout (the x86 conv for 1-4
// input channels reads its Input in NCHW, the x86 transpose2 writes its Out
// row-major); every other kernel expects NCHW. A var's layout is NHWC when
// its producer's picked kernel writes it in NHWC (an NHWC kernel, output
// not bound otherwise), else NCHW (weights and other vars without a
// producer are NCHW, and NHWC kernels read persistable inputs as NCHW).
// Where a consumer wants the other layout, one `layout` op per (var, wanted
// layout) is inserted, its kernel chosen by alias (nchw_to_nhwc /
// nhwc_to_nchw) and by the target of the NHWC kernel on its side of the
// cast (x86's for an x86 conv, arm's for an arm conv; the first one the
// valid places list when that target has none), shared by all consumers
// that want it. A var read by an op
// that takes its inputs by name keeps its name: a fetch (the predictor's
// output names are the fetch inputs), a control-flow op or an NPU `subgraph`
// op (their sub-blocks read the var by name; a subgraph's
// input_data_names and its host fallback do too). Its NHWC producer
// writes a renamed var, which NHWC consumers read, and the layout op writes
// the original name in NCHW.
// Two kinds of reads need no cast: a var declared with a rank other than 4
// (NHWC kernels hold those row-major, so both layouts are the same bytes:
// the x86 layout kernel's copy of PP-OCRv4 rec's [1, 76, 6625] logits
// before its softmax took 2-3% of the run; a detection head's rank-3 boxes
// and scores between x86 concat / softmax and host box_coder /
// multiclass_nms3), counted as same_bytes, and an input an op reads only
// the dims of (dims stay NCHW in both layouts: `shape`, prior_box's Input
// and Image), listed in ReadsDimsOnly. Requires static_kernel_pick_pass;
// runs after type_target_cast_pass.
#include <map>
#include <utility>

#include "lite/optimizer/pass.h"

namespace lite {
namespace mir {

namespace {

// Whether `var`, an output of `producer`, is written in NHWC.
bool WritesNhwc(const Node* producer, const std::string& var) {
  const KernelDef* def = producer->stmt().picked;
  return def && def->place.layout == DataLayoutType::kNHWC &&
         def->OutputPlace(OutputParamOf(producer, var)).layout == DataLayoutType::kNHWC;
}

// Ops whose inputs must keep their names: renaming one would leave a
// sub-block (or the predictor's outputs) reading a var nothing writes.
bool ReadsInputsByName(const cpp::OpDesc& desc) {
  return desc.Type() == "fetch" || desc.Type() == "subgraph" || IsControlFlowOp(desc);
}

// Inputs whose data the op never reads, only their dims.
bool ReadsDimsOnly(const std::string& op, const std::string& param) {
  if (op == "shape") return param == "Input";
  if (op == "prior_box" || op == "density_prior_box") {
    return param == "Input" || param == "Image";
  }
  return false;
}

// Whether `stmt`'s picked kernel reads its input `var` in NHWC.
bool ReadsNhwc(const Node* stmt, const std::string& var) {
  const KernelDef* def = stmt->stmt().picked;
  return def && def->InputPlace(InputParamOf(stmt, var)).layout == DataLayoutType::kNHWC;
}

// `var`'s declared rank is known (dims listed) and not 4: its element order
// is the same in NCHW and NHWC. Unknown (undeclared) ranks are not.
bool SameInBothLayouts(const SSAGraph& graph, const std::string& var) {
  const cpp::VarDesc* vd = graph.FindVarDesc(var);
  return vd && !vd->dims.empty() && vd->dims.size() != 4;
}

}  // namespace

class LayoutCastPass : public Pass {
 public:
  std::vector<TargetType> bound_targets() const override {
    return {TargetType::kX86, TargetType::kARM};
  }

  StatusOr<bool> Run(SSAGraph* graph) override {
    std::map<std::pair<int, bool>, Node*> casts;  // (src var id, to NHWC)
    ASSIGN_OR_RETURN(bool changed, CastFetchedVars(graph));
    for (Node* stmt : graph->StmtNodes()) {
      const KernelDef* picked = stmt->stmt().picked;
      if (!picked || stmt->stmt().desc.Type() == "layout") continue;
      for (Node* in : std::vector<Node*>(stmt->inlinks)) {
        const cpp::VarDesc* vd = graph->FindVarDesc(in->arg().name);
        if (in->arg().is_weight || (vd && vd->persistable)) continue;
        if (ReadsDimsOnly(stmt->stmt().desc.Type(), InputParamOf(stmt, in->arg().name))) continue;
        const bool want = ReadsNhwc(stmt, in->arg().name);
        const bool have = !in->inlinks.empty() && WritesNhwc(in->inlinks.front(), in->arg().name);
        if (have == want) continue;
        if (SameInBothLayouts(*graph, in->arg().name)) {
          Count("same_bytes");
          continue;
        }
        auto key = std::make_pair(in->id(), want);
        Node* cast = casts[key];
        if (!cast) {
          const Node* nhwc_side = want ? stmt : in->inlinks.front();
          ASSIGN_OR_RETURN(cast, InsertCast(graph, in, want, stmt->stmt().order,
                                            nhwc_side->stmt().picked->place.target));
          casts[key] = cast;
          Count(want ? "to_nhwc" : "to_nchw");
        }
        SSAGraph::Unlink(in, stmt);
        SSAGraph::Link(cast, stmt);
        stmt->stmt().desc.RenameInput(in->arg().name, cast->arg().name);
        changed = true;
      }
    }
    return changed;
  }

 private:
  // The layout kernel of `alias` on `target`, else on the first valid
  // place that has one, else any.
  static StatusOr<const KernelDef*> LayoutKernel(const SSAGraph& graph, const std::string& var,
                                                 bool to_nhwc, TargetType target) {
    const std::string alias = to_nhwc ? "nchw_to_nhwc" : "nhwc_to_nchw";
    std::vector<TargetType> order{target};
    for (const Place& p : graph.valid_places()) order.push_back(p.target);
    const KernelDef* any = nullptr;
    for (TargetType t : order) {
      for (const KernelDef* d : KernelRegistry::Global().Find("layout")) {
        if (d->alias != alias) continue;
        if (d->place.target == t) return d;
        if (!any) any = d;
      }
    }
    if (any) return any;
    return NotFound("layout_cast_pass: var '" + var + "' needs a layout/" + alias +
                    " kernel, which is not registered in this build");
  }

  // A new var named after `base` with its VarDesc.
  static Node* NewVar(SSAGraph* graph, const std::string& base, const std::string& suffix) {
    std::string name = graph->UniqueVarName(base + suffix);
    cpp::VarDesc vd;
    if (const cpp::VarDesc* d = graph->FindVarDesc(base)) vd = *d;
    vd.name = name;
    vd.persistable = false;
    graph->SetVarDesc(vd);
    return graph->NewArgNode(name);
  }

  // Vars written by NHWC kernels and read by name (fetch, control flow,
  // subgraph): the producer and its NHWC consumers move to "<var>/nhwc", a
  // layout op writes <var> in NCHW.
  StatusOr<bool> CastFetchedVars(SSAGraph* graph) {
    bool changed = false;
    for (Node* fetch : graph->StmtNodes()) {
      const cpp::OpDesc& reader = fetch->stmt().desc;
      if (!ReadsInputsByName(reader)) continue;
      for (Node* var : std::vector<Node*>(fetch->inlinks)) {
        if (var->inlinks.empty() || !WritesNhwc(var->inlinks.front(), var->arg().name)) continue;
        // Counted by Run's loop, which skips its read too.
        if (SameInBothLayouts(*graph, var->arg().name)) continue;
        Node* producer = var->inlinks.front();
        const std::string name = var->arg().name;
        ASSIGN_OR_RETURN(const KernelDef* kernel,
                         LayoutKernel(*graph, name, false, producer->stmt().picked->place.target));
        Node* nhwc = NewVar(graph, name, "/nhwc");
        nhwc->arg().place = producer->stmt().picked->place;
        nhwc->arg().place_known = true;
        SSAGraph::Unlink(producer, var);
        SSAGraph::Link(producer, nhwc);
        producer->stmt().desc.RenameOutput(name, nhwc->arg().name);
        for (Node* c : std::vector<Node*>(var->outlinks)) {
          if (!ReadsNhwc(c, name)) continue;
          SSAGraph::Unlink(var, c);
          SSAGraph::Link(nhwc, c);
          c->stmt().desc.RenameInput(name, nhwc->arg().name);
        }
        cpp::OpDesc desc("layout");
        desc.SetInput("Input", {nhwc->arg().name});
        desc.SetOutput("Out", {name});
        Node* op = graph->NewStmtNode(desc, fetch->stmt().order);
        op->stmt().picked = kernel;
        SSAGraph::Link(nhwc, op);
        SSAGraph::Link(op, var);
        var->arg().place = kernel->place;
        Count("to_nchw_fetched");
        changed = true;
      }
    }
    return changed;
  }

  static StatusOr<Node*> InsertCast(SSAGraph* graph, Node* src, bool to_nhwc, int64_t order,
                                    TargetType target) {
    ASSIGN_OR_RETURN(const KernelDef* kernel,
                     LayoutKernel(*graph, src->arg().name, to_nhwc, target));
    Node* out = NewVar(graph, src->arg().name, to_nhwc ? "/nhwc" : "/nchw");
    const std::string name = out->arg().name;
    cpp::OpDesc desc("layout");
    desc.SetInput("Input", {src->arg().name});
    desc.SetOutput("Out", {name});
    Node* op = graph->NewStmtNode(desc, order);
    op->stmt().picked = kernel;
    out->arg().place = kernel->place;
    out->arg().place_known = true;
    SSAGraph::Link(src, op);
    SSAGraph::Link(op, out);
    return out;
  }
};

}  // namespace mir
}  // namespace lite

REGISTER_MIR_PASS(layout_cast_pass, lite::mir::LayoutCastPass);
