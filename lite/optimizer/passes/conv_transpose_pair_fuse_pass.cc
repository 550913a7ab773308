// conv_transpose_pair_fuse_pass: a conv2d_transpose whose output only a
// second conv2d_transpose reads becomes one conv2d_transpose_pair op
// (lite/operators/conv_transpose_pair_op.h):
//
//   x -> conv2d_transpose -> mid -> conv2d_transpose -> out
//     =>   x -> conv2d_transpose_pair -> out
//
// so a kernel can run the second on bands of the first's output while they
// are in cache. PP-OCR's DB detection heads (v3, v4, v5) end with two
// 2x2-stride-2 transposes whose 9.8 MB intermediate (24 x 320 x 320) would
// otherwise be written and read back.
//
// Fused only where a kernel of a non-host valid place takes the fused op
// (today x86, for non-overlapping windows: kernel == stride, no padding,
// one group; the second's output block per input pixel at most 16 values);
// else "declined_no_kernel" and the two ops stay. Also declined: int8
// transposes ("declined_int8"), and an output that cannot be written where
// the first was ("unsafe_rename"). Runs after npu_subgraph_pass, like the
// other fusions device drivers do not map, and after the bias, batch norm
// and activation folds that complete each transpose.
#include "lite/optimizer/passes/fusion_pass.h"
#include "lite/optimizer/passes/graph_rewrite.h"
#include "lite/operators/conv_transpose_pair_op.h"

namespace lite {
namespace mir {
namespace fusion {

class ConvTransposePairFusePass : public FusionPass {
 public:

 protected:
  std::vector<Pattern> BuildPatterns() const override {
    Pattern p;
    PNode* first = p.Op("first", {"conv2d_transpose"})->If(IsNchw);
    PNode* mid = p.Intermediate("mid");
    PNode* second = p.Op("second", {"conv2d_transpose"})->If(IsNchw);
    p.Reads(first, "Input", p.Input("x")).Writes(first, "Output", mid);
    p.Reads(second, "Input", mid).Writes(second, "Output", p.Output("out"));
    return SinglePattern(std::move(p));
  }

  StatusOr<bool> Rewrite(SSAGraph* graph, const Match& m, int) override {
    Node* first = m.at("first");
    Node* second = m.at("second");
    const cpp::OpDesc& a = first->stmt().desc;
    const cpp::OpDesc& b = second->stmt().desc;
    if (IsInt8Op(a) || IsInt8Op(b)) {
      Count("declined_int8");
      return false;
    }
    const cpp::OpDesc fused = operators::MakeConvTransposePair(a, b);
    if (!DeviceKernelTakes(*graph, fused)) {
      Count("declined_no_kernel");
      return false;
    }
    Node* out = m.at("out");
    if (!CanWriteEarlier(*graph, out, {m.at("mid")})) {
      Count("unsafe_rename");
      return false;
    }
    Node* op = graph->NewStmtNode(fused, first->stmt().order);
    for (Node* in : std::vector<Node*>(first->inlinks)) SSAGraph::Link(in, op);
    for (Node* in : std::vector<Node*>(second->inlinks)) {
      if (in != m.at("mid")) SSAGraph::Link(in, op);
    }
    SSAGraph::Unlink(second, out);
    SSAGraph::Link(op, out);
    RemoveOp(graph, second);
    RemoveOp(graph, first);
    return true;
  }
};

}  // namespace fusion
}  // namespace mir
}  // namespace lite

REGISTER_MIR_PASS(conv_transpose_pair_fuse_pass, lite::mir::fusion::ConvTransposePairFusePass);
