// interp_residual_fuse_pass: elementwise_add(a, resize(x)) (either operand
// order), where the resize (nearest_interp / bilinear_interp, v1 or v2) is
// read only by the add, becomes the resize with ResidualData = a: Out =
// resize(x) + a. The top-down path of a feature pyramid (PP-OCR det's
// RSE-FPN: p4 = in4 + upsample(p5)) then writes its upsampled map once
// instead of writing it and reading it back in the add (at 96 x 160 x 160,
// 9.8 MB each way).
//
// Runs after npu_subgraph_pass, so it only sees ops left outside device
// subgraphs (drivers map the plain ops). Declined (counted) when a and the
// resized map do not have the same known dims, when the add has an
// activation, when a's name has other versions (reading it at the resize
// instead of the add must not see a different write), or when renaming the
// add's output to the resize is unsafe. The resize then reads a as well,
// which orders a's producer before it. When a is itself x * s with s one
// value per channel (PP-OCRv3's scaled SE output) and read only by the add,
// the resize takes x as ResidualData and s as ResidualScale and the mul
// goes too: its full-size output is never written.
#include "lite/optimizer/passes/fusion_pass.h"
#include "lite/optimizer/passes/graph_rewrite.h"

namespace lite {
namespace mir {
namespace fusion {

namespace {

Pattern MakePattern(const char* resized_param, const char* a_param) {
  Pattern p;
  PNode* resize = p.Op("resize", {"nearest_interp", "nearest_interp_v2", "bilinear_interp",
                                  "bilinear_interp_v2"})
                      ->If([](const cpp::OpDesc& d) { return !d.HasInput("ResidualData"); });
  PNode* resized = p.Intermediate("resized");
  PNode* add = p.Op("add", {"elementwise_add"})->If(HasNoActivations);
  p.Writes(resize, "Out", resized);
  p.Reads(add, resized_param, resized).Reads(add, a_param, p.Input("a"));
  p.Writes(add, "Out", p.Output("out"));
  return p;
}

}  // namespace

class InterpResidualFusePass : public FusionPass {
 public:
  bool runs_on_sub_blocks() const override { return true; }

 protected:
  std::vector<Pattern> BuildPatterns() const override { return BothOperandOrders(MakePattern); }

  StatusOr<bool> Rewrite(SSAGraph* graph, const Match& m, int) override {
    Node* a = m.at("a");
    Node* resized = m.at("resized");
    const DDim dims = VarDims(*graph, *a);
    if (dims.size() != 4 || dims != VarDims(*graph, *resized)) {
      Count("declined_shapes");
      return false;
    }
    const cpp::VarDesc* ad = graph->FindVarDesc(a->arg().name);
    if (!ad || ad->dtype != DataType::kFloat32 || a->arg().is_weight) {
      Count("declined_operand");
      return false;
    }
    if (Versions(*graph, a->arg().name) != 1) {
      Count("declined_versions");
      return false;
    }
    if (!CanWriteEarlier(*graph, m.at("out"), {resized})) {
      Count("unsafe_rename");
      return false;
    }
    Node* resize = m.at("resize");
    Node* scaled = nullptr;
    Node* scale = nullptr;
    Node* mul = ChannelScaleMul(*graph, a, dims, &scaled, &scale);
    cpp::OpDesc& rd = resize->stmt().desc;
    if (mul) {  // a = x * s[c]: the resize reads x and s instead
      rd.SetInput("ResidualData", {scaled->arg().name});
      rd.SetInput("ResidualScale", {scale->arg().name});
      SSAGraph::Link(scaled, resize);
      SSAGraph::Link(scale, resize);
      Count("scale_folded");
    } else {
      rd.SetInput("ResidualData", {a->arg().name});
      SSAGraph::Link(a, resize);
    }
    AbsorbIntoProducer(graph, resize, resized, m.at("add"), m.at("out"));
    if (mul) RemoveOp(graph, mul);  // takes a, now unread, with it
    return true;
  }

};

}  // namespace fusion
}  // namespace mir
}  // namespace lite

REGISTER_MIR_PASS(interp_residual_fuse_pass, lite::mir::fusion::InterpResidualFusePass);
