// simple_gate_fuse_pass: NAFNet's SimpleGate, a split in two halves whose
// halves only one elementwise_mul reads, becomes one simple_gate op
// (lite/operators/simple_gate_op.h):
//
//   x -> split(num 2, axis) -> a, b -> elementwise_mul(a, b) -> out
//     =>  x -> simple_gate(axis) -> out
//
// so a kernel reads x once and writes out, where the split wrote both halves
// and the mul read them back. The halves have equal dims, so the mul's axis
// does not matter, and a * b = b * a, so either half may be X. Fused only
// where a kernel of a non-host valid place takes simple_gate (today x86),
// else declined as "declined_no_kernel". Also declined: a split by tensors
// or in unequal sections (declined_split), a mul with a fused activation or
// int8 (declined_mul), and an output that cannot be written where the split
// was (unsafe_rename). Runs after npu_subgraph_pass, like the other fusions
// device drivers do not map.
#include "lite/optimizer/passes/fusion_pass.h"
#include "lite/optimizer/passes/graph_rewrite.h"

namespace lite {
namespace mir {
namespace fusion {

namespace {

// Two equal halves by attributes: num 2, or sections {k, k}.
bool SplitsInHalves(const cpp::OpDesc& d) {
  if (d.HasInput("AxisTensor") || d.HasInput("SectionsTensorList")) return false;
  const auto sections = d.GetAttr<std::vector<int64_t>>("sections", {});
  if (sections.empty()) return d.GetAttr<int32_t>("num", 0) == 2;
  return sections.size() == 2 && sections[0] > 0 && sections[0] == sections[1];
}

Pattern MakePattern() {
  Pattern p;
  PNode* split = p.Op("split", {"split"});
  PNode* mul = p.Op("mul", {"elementwise_mul"});
  PNode* a = p.Intermediate("a");
  PNode* b = p.Intermediate("b");
  p.Reads(split, "X", p.Input("x")).Writes(split, "Out", a).Writes(split, "Out", b);
  p.Reads(mul, "X", a).Reads(mul, "Y", b).Writes(mul, "Out", p.Output("out"));
  return p;
}

}  // namespace

class SimpleGateFusePass : public FusionPass {
 protected:
  std::vector<Pattern> BuildPatterns() const override { return SinglePattern(MakePattern()); }

  StatusOr<bool> Rewrite(SSAGraph* graph, const Match& m, int) override {
    Node* split = m.at("split");
    Node* mul = m.at("mul");
    const cpp::OpDesc& sd = split->stmt().desc;
    const cpp::OpDesc& md = mul->stmt().desc;
    if (!SplitsInHalves(sd) || sd.Output("Out").size() != 2) {
      Count("declined_split");
      return false;
    }
    if (!HasNoActivations(md) || IsInt8Op(md) || md.Input("X").size() != 1 ||
        md.Input("Y").size() != 1) {
      Count("declined_mul");
      return false;
    }
    Node* out = m.at("out");
    cpp::OpDesc fused("simple_gate");
    fused.SetInput("X", {m.at("x")->arg().name});
    fused.SetOutput("Out", {out->arg().name});
    fused.SetAttr("axis", sd.GetAttr<int32_t>("axis", 0));
    if (!DeviceKernelTakes(*graph, fused)) {
      Count("declined_no_kernel");
      return false;
    }
    if (!CanWriteEarlier(*graph, out, {m.at("a"), m.at("b")})) {
      Count("unsafe_rename");
      return false;
    }
    Node* op = graph->NewStmtNode(fused, split->stmt().order);
    SSAGraph::Link(m.at("x"), op);
    SSAGraph::Unlink(mul, out);
    SSAGraph::Link(op, out);
    RemoveOp(graph, mul);
    RemoveOp(graph, split);
    return true;
  }
};

}  // namespace fusion
}  // namespace mir
}  // namespace lite

REGISTER_MIR_PASS(simple_gate_fuse_pass, lite::mir::fusion::SimpleGateFusePass);
