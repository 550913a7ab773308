// se_residual_fuse_pass: a squeeze-excitation gate with a shortcut,
// a + a * s (PP-OCRv3's RSE layers: elementwise_add(X = a,
// Y = elementwise_mul(X = a, Y = s)), s a per-channel gate), becomes
// a * (s + 1): the mul reads a new var s + 1 that a small elementwise_add of
// s and a one-element weight 1.0 computes (C values), and writes the add's
// output. The full-size add and its pass over memory are gone (at 96 x 160 x
// 160 on ppocr det, one read of two 9.8 MB tensors and one write).
//
// Also matched with the operands of the add swapped. Declined (counted) when
// a and the product do not have the same known dims (then s would broadcast
// a: a + a * s keeps a's shape, a * (s + 1) might not), when either op has a
// fused activation or Y activation, or when renaming the add's output to
// the mul is unsafe. Rounding differs from the two-op form by at most an ulp
// or so of a per element.
#include "lite/optimizer/passes/fusion_pass.h"
#include "lite/optimizer/passes/graph_rewrite.h"

namespace lite {
namespace mir {
namespace fusion {

namespace {

// a + mul(a, s), the product read by the add under `product_param`.
Pattern MakePattern(const char* product_param, const char* a_param) {
  Pattern p;
  PNode* mul = p.Op("mul", {"elementwise_mul"})->If(HasNoActivations);
  PNode* a = p.Input("a");
  PNode* product = p.Intermediate("product");
  PNode* add = p.Op("add", {"elementwise_add"})->If(HasNoActivations);
  p.Reads(mul, "X", a).Reads(mul, "Y", p.Input("s")).Writes(mul, "Out", product);
  p.Reads(add, a_param, a).Reads(add, product_param, product);
  p.Writes(add, "Out", p.Output("out"));
  return p;
}

}  // namespace

class SeResidualFusePass : public FusionPass {
 public:
  bool runs_on_sub_blocks() const override { return true; }

 protected:
  std::vector<Pattern> BuildPatterns() const override { return BothOperandOrders(MakePattern); }

  StatusOr<bool> Rewrite(SSAGraph* graph, const Match& m, int) override {
    Node* mul = m.at("mul");
    Node* a = m.at("a");
    Node* s = m.at("s");
    const cpp::OpDesc& md = mul->stmt().desc;
    if (md.Input("X").size() != 1 || md.Input("Y").size() != 1 || a == s) {
      Count("declined_inputs");
      return false;
    }
    const DDim a_dims = VarDims(*graph, *a);
    if (a_dims.empty() || a_dims != VarDims(*graph, *m.at("product"))) {
      Count("declined_shapes");
      return false;
    }
    const cpp::VarDesc* sd = graph->FindVarDesc(s->arg().name);
    const cpp::VarDesc* ad = graph->FindVarDesc(a->arg().name);
    if (!sd || !ad || sd->dtype != DataType::kFloat32 || ad->dtype != DataType::kFloat32) {
      Count("declined_dtype");
      return false;
    }
    if (!CanWriteEarlier(*graph, m.at("out"), {m.at("product")})) {
      Count("unsafe_rename");
      return false;
    }
    // s + 1, right before the mul.
    Tensor one_value;
    one_value.Resize({1});
    *one_value.mutable_data<float>() = 1.f;
    Node* one = AddWeight(graph, "se_residual_one", one_value);
    cpp::VarDesc gate_desc = *sd;
    gate_desc.name = graph->UniqueVarName(s->arg().name + "_plus_one");
    gate_desc.persistable = false;
    graph->SetVarDesc(gate_desc);
    Node* gate = graph->NewArgNode(gate_desc.name);
    cpp::OpDesc plus("elementwise_add");
    plus.SetInput("X", {s->arg().name});
    plus.SetInput("Y", {one->arg().name});
    plus.SetOutput("Out", {gate_desc.name});
    plus.SetAttr("axis", -1);
    Node* plus_op = graph->NewStmtNode(plus, mul->stmt().order);
    SSAGraph::Link(s, plus_op);
    SSAGraph::Link(one, plus_op);
    SSAGraph::Link(plus_op, gate);
    SetInput(graph, mul, "Y", gate);
    AbsorbIntoProducer(graph, mul, m.at("product"), m.at("add"), m.at("out"));
    return true;
  }
};

}  // namespace fusion
}  // namespace mir
}  // namespace lite

REGISTER_MIR_PASS(se_residual_fuse_pass, lite::mir::fusion::SeResidualFusePass);
