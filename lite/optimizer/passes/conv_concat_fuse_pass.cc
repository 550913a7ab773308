// conv_concat_fuse_pass: a channel concat whose inputs are all written by
// conv2d ops and read by nothing else becomes one conv2d_concat op
// (lite/operators/conv_concat_op.h):
//
//   x0 -> conv2d -> y0,  x1 -> conv2d -> y1,  concat(y0, y1; axis 1) -> out
//     =>  x0, x1 -> conv2d_concat -> out
//
// so a kernel can write every conv's output into its channel slice of `out`
// in place. squeezenet's fire modules concatenate two expand convs, whose
// copies the fused op saves.
//
// Fused only where it pays: when a kernel of a non-host valid place takes
// the fused op (DeviceKernelTakes; today x86's, for convs its conv kernel
// takes); else declined as "declined_no_kernel". Also declined: a concat on
// another axis, with an AxisTensor or an input_upscale (declined_concat); an
// input that is not a conv2d's output read only by the concat, or listed
// twice (declined_input); convs not in NCHW, with a residual input or
// legacy activation flags, or with a bias on some but not all
// (declined_conv); and a conv input that another op rewrites before the
// concat, where the fused op reads it (unsafe_read). The fused op takes the concat's place in the
// program. Not a FusionPass: the concat's input count varies. Runs after
// npu_subgraph_pass, like the other fusions device drivers do not map.
#include <algorithm>

#include "lite/optimizer/passes/fusion_pass.h"
#include "lite/optimizer/passes/graph_rewrite.h"
#include "lite/operators/conv_concat_op.h"

namespace lite {
namespace mir {
namespace fusion {

namespace {

bool IsChannelConcat(const cpp::OpDesc& d) {
  return IsNchw(d) && d.GetAttr<int>("axis", 0) == 1 &&
         (!d.HasInput("AxisTensor") || d.Input("AxisTensor").empty()) &&
         d.GetAttr<std::vector<int>>("input_upscale", {}).empty();
}

bool IsPlainConv(const cpp::OpDesc& d) {
  return IsNchw(d) && !d.HasInput("ResidualData") && !d.GetAttr<bool>("fuse_relu", false) &&
         !d.GetAttr<bool>("fuse_brelu", false);
}

bool HasBias(const cpp::OpDesc& d) { return d.HasInput("Bias") && !d.Input("Bias").empty(); }

}  // namespace

class ConvConcatFusePass : public Pass {
 public:

  StatusOr<bool> Run(SSAGraph* graph) override {
    bool changed = false;
    for (Node* concat : graph->StmtNodes()) {
      if (concat->stmt().desc.Type() != "concat") continue;
      ASSIGN_OR_RETURN(bool fused, TryFuse(graph, concat));
      changed |= fused;
    }
    return changed;
  }

 private:
  // The conv writing each of the concat's inputs in order, or empty (with
  // the decline counted) when one does not qualify.
  std::vector<Node*> Producers(Node* concat) {
    const cpp::OpDesc& cd = concat->stmt().desc;
    std::vector<Node*> convs;
    const std::vector<std::string>& xs = cd.Input("X");
    for (const std::string& name : xs) {
      Node* y = nullptr;
      for (Node* in : concat->inlinks) {
        if (in->arg().name == name) y = in;
      }
      if (!y || std::count(xs.begin(), xs.end(), name) != 1 || y->inlinks.size() != 1 ||
          y->outlinks.size() != 1 || IsFetched(y) || y->arg().is_weight ||
          y->inlinks[0]->stmt().desc.Type() != "conv2d" || IsInt8Op(y->inlinks[0]->stmt().desc) ||
          y->inlinks[0]->stmt().desc.Output("Output") != std::vector<std::string>{name}) {
        Count("declined_input");
        return {};
      }
      convs.push_back(y->inlinks[0]);
    }
    return convs;
  }

  StatusOr<bool> TryFuse(SSAGraph* graph, Node* concat) {
    const cpp::OpDesc& cd = concat->stmt().desc;
    if (!IsChannelConcat(cd) || cd.Input("X").size() < 2) {
      Count("declined_concat");
      return false;
    }
    const std::vector<Node*> convs = Producers(concat);
    if (convs.empty()) return false;
    std::vector<const cpp::OpDesc*> descs;
    for (Node* c : convs) descs.push_back(&c->stmt().desc);
    const bool bias = HasBias(*descs[0]);
    for (const cpp::OpDesc* d : descs) {
      if (!IsPlainConv(*d) || HasBias(*d) != bias) {
        Count("declined_conv");
        return false;
      }
    }
    if (concat->outlinks.size() != 1) {
      Count("declined_concat");
      return false;
    }
    Node* out = concat->outlinks[0];
    const cpp::OpDesc fused = operators::MakeConvConcat(descs, out->arg().name);
    if (!DeviceKernelTakes(*graph, fused)) {
      Count("declined_no_kernel");
      return false;
    }
    // The convs' inputs are read at the concat's place from now on.
    std::vector<Node*> inputs;
    for (Node* c : convs) {
      for (Node* in : c->inlinks) {
        if (!CanReadLater(*graph, in)) {
          Count("unsafe_read");
          return false;
        }
        if (std::find(inputs.begin(), inputs.end(), in) == inputs.end()) inputs.push_back(in);
      }
    }
    Node* op = graph->NewStmtNode(fused, concat->stmt().order);
    for (Node* in : inputs) SSAGraph::Link(in, op);
    SSAGraph::Unlink(concat, out);
    SSAGraph::Link(op, out);
    RemoveOp(graph, concat);
    for (Node* c : convs) RemoveOp(graph, c);
    Count("matched");
    return true;
  }
};

}  // namespace fusion
}  // namespace mir
}  // namespace lite

REGISTER_MIR_PASS(conv_concat_fuse_pass, lite::mir::fusion::ConvConcatFusePass);
