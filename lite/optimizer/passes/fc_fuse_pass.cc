// fc_fuse_pass: a matrix product with a 2-D float32 weight, plus a 1-D bias
// of N = W.dims[1] values added along the last dim, [plus relu], becomes one
// fc op (Input, W, Bias; in_num_col_dims; activation_type "" or "relu"):
//   mul        y_num_col_dims 1; in_num_col_dims = x_num_col_dims
//   matmul     no transposes, alpha 1; in_num_col_dims = rank(X) - 1
//   matmul_v2  no transposes; in_num_col_dims = rank(X) - 1
// X must have rank >= 2 for the matmuls (a 1-D X is a different product).
// An int8 product (matmul_ops.h, made by quant_dequant_fuse_pass: an int8
// weight) becomes an int8 fc carrying its int8 attributes.
// The fc op is the product's node rewritten in place; fuse_* attributes the
// add already carried move to it.
#include "lite/optimizer/passes/fusion_pass.h"
#include "lite/optimizer/passes/graph_rewrite.h"

namespace lite {
namespace mir {
namespace fusion {

namespace {
bool ProductOk(const cpp::OpDesc& d) {
  if (!HasNoFusedActivation(d)) return false;
  if (d.Type() == "mul") return d.GetAttr<int32_t>("y_num_col_dims", 1) == 1;
  for (const char* a : {"fused_reshape_X", "fused_reshape_Y", "fused_transpose_X",
                        "fused_transpose_Y", "fused_reshape_Out", "fused_transpose_Out"}) {
    if (!d.GetAttr<std::vector<int32_t>>(a).empty()) return false;
  }
  if (d.Type() == "matmul") {
    return !d.GetAttr<bool>("transpose_X", false) && !d.GetAttr<bool>("transpose_Y", false) &&
           d.GetAttr<float>("alpha", 1.f) == 1.f && d.GetAttr<int32_t>("head_number", 1) == 1;
  }
  return !d.GetAttr<bool>("trans_x", false) && !d.GetAttr<bool>("trans_y", false);
}

Pattern MakePattern(bool with_relu) {
  Pattern p;
  PNode* mm = p.Op("mm", {"mul", "matmul", "matmul_v2"})->If(ProductOk);
  // dtype: float32, or int8 for an int8 product (checked in Rewrite).
  PNode* w = p.Input("w")->Weight()->DimsIf([](const DDim& d) { return d.size() == 2; });
  PNode* mid = p.Intermediate("mm_out");
  PNode* add = p.Op("add", {"elementwise_add"})->If([with_relu](const cpp::OpDesc& d) {
    return HasNoYActivation(d) && (!with_relu || HasNoFusedActivation(d));
  });
  PNode* bias = p.Input("bias")->Weight()->DTypeIs(DataType::kFloat32)->DimsIf(
      [](const DDim& d) { return d.size() == 1; });
  p.Reads(mm, "X", p.Input("x")).Reads(mm, "Y", w).Writes(mm, "Out", mid);
  p.Reads(add, "X", mid).Reads(add, "Y", bias);
  if (!with_relu) {
    p.Writes(add, "Out", p.Output("out"));
    return p;
  }
  PNode* sum = p.Intermediate("add_out");
  PNode* relu = p.Op("relu", {"relu"});
  p.Writes(add, "Out", sum).Reads(relu, "X", sum).Writes(relu, "Out", p.Output("out"));
  return p;
}
}  // namespace

class FcFusePass : public FusionPass {
 public:
  bool runs_on_sub_blocks() const override { return true; }

 protected:
  std::vector<Pattern> BuildPatterns() const override {
    std::vector<Pattern> out;
    out.push_back(MakePattern(true));
    out.push_back(MakePattern(false));
    return out;
  }

  StatusOr<bool> Rewrite(SSAGraph* graph, const Match& m, int which) override {
    const bool with_relu = which == 0;
    Node* mm = m.at("mm");
    const cpp::OpDesc& d = mm->stmt().desc;
    const cpp::OpDesc& add = m.at("add")->stmt().desc;
    const Tensor* weight = WeightTensor(*graph, m.at("w"));
    const bool int8 = IsInt8Op(d);
    if (!weight || weight->dtype() != (int8 ? DataType::kInt8 : DataType::kFloat32)) return false;
    int in_num_col_dims = d.GetAttr<int32_t>("x_num_col_dims", 1);
    if (d.Type() != "mul") {
      in_num_col_dims = static_cast<int>(VarDims(*graph, *m.at("x")).size()) - 1;
    }
    const DDim w = VarDims(*graph, *m.at("w"));
    const DDim b = VarDims(*graph, *m.at("bias"));
    const int axis = add.GetAttr<int32_t>("axis", -1);
    if (in_num_col_dims < 1 || b[0] != w[1] || (axis != -1 && axis != in_num_col_dims)) {
      Count("shape_mismatch");
      return false;
    }
    std::vector<const Node*> going = {m.at("mm_out")};
    if (with_relu) going.push_back(m.at("add_out"));
    if (!CanWriteEarlier(*graph, m.at("out"), going)) {
      Count("unsafe_rename");
      return false;
    }
    cpp::OpDesc fc("fc");
    fc.SetInput("Input", {m.at("x")->arg().name});
    fc.SetInput("W", {m.at("w")->arg().name});
    fc.SetInput("Bias", {m.at("bias")->arg().name});
    fc.SetOutput("Out", {m.at("mm_out")->arg().name});
    fc.SetAttr("in_num_col_dims", in_num_col_dims);
    fc.SetAttr("activation_type", std::string(with_relu ? "relu" : ""));
    for (const char* a : {"fuse_activation", "fuse_alpha", "fuse_beta", "fuse_gamma"}) {
      if (const cpp::Attribute* attr = add.FindAttr(a)) fc.SetRawAttr(a, *attr);
    }
    if (int8) {
      for (const char* a : {"enable_int8", "Input_scale", "Filter_scales", "quant_round_type"}) {
        if (const cpp::Attribute* attr = d.FindAttr(a)) fc.SetRawAttr(a, *attr);
      }
    }
    mm->stmt().desc = fc;
    SSAGraph::Link(m.at("bias"), mm);
    Node* last = with_relu ? m.at("relu") : m.at("add");
    SSAGraph::Unlink(last, m.at("out"));
    ReplaceOutput(mm, m.at("mm_out"), m.at("out"));
    RemoveOp(graph, m.at("add"));
    if (with_relu) RemoveOp(graph, m.at("relu"));
    Count(with_relu ? "with_relu" : "no_act");
    if (int8) Count("int8");
    return true;
  }
};

}  // namespace fusion
}  // namespace mir
}  // namespace lite

REGISTER_MIR_PASS(fc_fuse_pass, lite::mir::fusion::FcFusePass);
