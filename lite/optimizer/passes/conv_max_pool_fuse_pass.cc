// conv_max_pool_fuse_pass: a conv2d whose output only a max pool2d reads
// becomes one conv2d_max_pool op (lite/operators/conv_max_pool_op.h):
//
//   x -> conv2d(act) -> y -> pool2d(max) -> out   =>   x -> conv2d_max_pool -> out
//
// so a kernel can pool conv rows while they are in cache. squeezenet's
// first conv writes a 3.3 MB map that its pool reads back at once.
//
// Fused only where it pays: when a kernel of a non-host valid place takes
// the fused op (KernelDef::Accepts with the graph's declared dims; today the
// x86 kernel for 1-4 input channels); else declined as "declined_no_kernel"
// and the two ops stay as they were (the host kernel of the fused op only
// runs the two host kernels). Also declined: a pool that is global or
// adaptive (declined_pool), a conv with a residual input, a post-activation
// affine map or legacy activation flags (declined_conv), and an output that cannot be written
// where the conv was (unsafe_rename). Runs after npu_subgraph_pass, like
// the other fusions device drivers do not map.
#include "lite/optimizer/passes/fusion_pass.h"
#include "lite/optimizer/passes/graph_rewrite.h"
#include "lite/operators/conv_max_pool_op.h"

namespace lite {
namespace mir {
namespace fusion {

namespace {

bool IsPlainConv(const cpp::OpDesc& d) {
  return IsNchw(d) && !d.HasInput("ResidualData") && !d.HasAttr("fuse_post_scale") &&
         !d.HasAttr("fuse_post_bias") && !d.GetAttr<bool>("fuse_relu", false) &&
         !d.GetAttr<bool>("fuse_brelu", false) &&
         d.GetAttr<std::string>("activation_type", "").empty();
}

bool IsWindowMaxPool(const cpp::OpDesc& d) {
  return IsNchw(d) && d.GetAttr<std::string>("pooling_type", "") == "max" &&
         !d.GetAttr<bool>("global_pooling", false) && !d.GetAttr<bool>("adaptive", false);
}

Pattern MakePattern() {
  Pattern p;
  PNode* conv = p.Op("conv", {"conv2d"})->If([](const cpp::OpDesc& d) { return !IsInt8Op(d); });
  PNode* pool = p.Op("pool", {"pool2d"});
  PNode* y = p.Intermediate("y");
  p.Reads(conv, "Input", p.Input("x")).Writes(conv, "Output", y);
  p.Reads(pool, "X", y).Writes(pool, "Out", p.Output("out"));
  return p;
}

}  // namespace

class ConvMaxPoolFusePass : public FusionPass {
 public:

 protected:
  std::vector<Pattern> BuildPatterns() const override { return SinglePattern(MakePattern()); }

  StatusOr<bool> Rewrite(SSAGraph* graph, const Match& m, int) override {
    Node* conv = m.at("conv");
    Node* pool = m.at("pool");
    const cpp::OpDesc& cd = conv->stmt().desc;
    const cpp::OpDesc& pd = pool->stmt().desc;
    if (!IsWindowMaxPool(pd)) {
      Count("declined_pool");
      return false;
    }
    if (!IsPlainConv(cd)) {
      Count("declined_conv");
      return false;
    }
    Node* out = m.at("out");
    cpp::OpDesc fused("conv2d_max_pool");
    for (const char* param : {"Input", "Filter", "Bias"}) {
      if (cd.HasInput(param)) fused.SetInput(param, cd.Input(param));
    }
    fused.SetOutput("Out", {out->arg().name});
    for (const auto& kv : cd.attrs()) fused.SetRawAttr(kv.first, kv.second);
    for (const auto& names : operators::kPoolAttrs) {
      if (const cpp::Attribute* a = pd.FindAttr(names[0])) fused.SetRawAttr(names[1], *a);
    }
    if (!DeviceKernelTakes(*graph, fused)) {
      Count("declined_no_kernel");
      return false;
    }
    if (!CanWriteEarlier(*graph, out, {m.at("y")})) {
      Count("unsafe_rename");
      return false;
    }
    Node* op = graph->NewStmtNode(fused, conv->stmt().order);
    for (Node* in : std::vector<Node*>(conv->inlinks)) SSAGraph::Link(in, op);
    SSAGraph::Unlink(pool, out);
    SSAGraph::Link(op, out);
    RemoveOp(graph, pool);
    RemoveOp(graph, conv);
    return true;
  }
};

}  // namespace fusion
}  // namespace mir
}  // namespace lite

REGISTER_MIR_PASS(conv_max_pool_fuse_pass, lite::mir::fusion::ConvMaxPoolFusePass);
