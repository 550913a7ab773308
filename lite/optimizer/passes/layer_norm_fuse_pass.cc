// layer_norm_fuse_pass: LayerNorm written as separate ops (Paddle programs
// of models whose LayerNorm is user code, e.g. NAFNet-style restoration
// nets and converted ONNX exports),
//   mu  = reduce_mean(x, dim = [last], keep_dim)
//   d   = x - mu
//   sq  = pow(d, 2) | elementwise_pow(d, [2]) | square(d) | d * d
//   var = reduce_mean(sq, same dim, keep_dim)
//   s   = sqrt(var + eps)       (elementwise_add of a one-value weight, or
//                                scale with scale 1 and bias eps)
//   y   = d / s
//   [y  = y * w + b]            (w, b: weights of the last dim's size)
// becomes one `layer_norm` op (begin_norm_axis = rank - 1, epsilon, w and b
// as Scale / Bias): one kernel reading x twice instead of seven ops and
// five temporaries, on the x86 target (lite/kernels/x86/
// layer_norm_compute.cc) or the host. The same over the channels of a
// rank-4 NCHW activation (dim [1], NAFNet's LayerNorm2d, w and b per
// channel) becomes `channel_layer_norm` (lite/operators/
// channel_layer_norm_op.h), whose x86 kernel runs in NHWC, where the
// channels are the last axis in memory. The affine ops may take the weight
// under either input. Declined: a reduce over another or several dims
// ("declined_axis") or without keep_dim, an epsilon or exponent that is
// not one value ("declined_constants"), affine weights not along the
// normalized axis ("declined_affine": the normalization alone is fused),
// any fused activation, or an unsafe rename of the output. Runs right
// after constant folding, before the elementwise activation fusion would
// claim the final add.
#include <cmath>

#include "lite/optimizer/passes/fusion_pass.h"
#include "lite/optimizer/passes/graph_rewrite.h"

namespace lite {
namespace mir {
namespace fusion {

namespace {

enum Square { kPow, kElementwisePow, kSquareOp, kMulSelf, kSquareKinds };

// affine: 0 none, else 1 plus 2 when the mul reads its weight as X (not Y)
// plus 4 when the add reads its bias as X.
Pattern MakePattern(Square square, bool scale_eps, int affine) {
  Pattern p;
  PNode* mean = p.Op("mean", {"reduce_mean"});
  PNode* x = p.Input("x")->DTypeIs(DataType::kFloat32);
  PNode* mu = p.Intermediate("mu");
  PNode* sub = p.Op("sub", {"elementwise_sub"})->If(HasNoActivations);
  PNode* d = p.Intermediate("d");
  p.Reads(mean, "X", x).Writes(mean, "Out", mu);
  p.Reads(sub, "X", x).Reads(sub, "Y", mu).Writes(sub, "Out", d);
  PNode* sq = p.Intermediate("sq");
  PNode* pw = nullptr;
  switch (square) {
    case kPow:
      pw = p.Op("square", {"pow"});
      p.Reads(pw, "X", d);
      break;
    case kElementwisePow:
      pw = p.Op("square", {"elementwise_pow"})->If(HasNoActivations);
      p.Reads(pw, "X", d).Reads(pw, "Y", p.Input("two")->Weight());
      break;
    case kSquareOp:
      pw = p.Op("square", {"square"});
      p.Reads(pw, "X", d);
      break;
    default:
      pw = p.Op("square", {"elementwise_mul"})->If(HasNoActivations);
      p.Reads(pw, "X", d).Reads(pw, "Y", d);
      break;
  }
  p.Writes(pw, "Out", sq);
  PNode* var_mean = p.Op("var", {"reduce_mean"});
  PNode* var = p.Intermediate("var_out");
  p.Reads(var_mean, "X", sq).Writes(var_mean, "Out", var);
  PNode* eps = nullptr;
  if (scale_eps) {
    eps = p.Op("eps", {"scale"})->If(HasNoFusedActivation);
    p.Reads(eps, "X", var);
  } else {
    eps = p.Op("eps", {"elementwise_add"})->If(HasNoActivations);
    p.Reads(eps, "X", var).Reads(eps, "Y", p.Input("eps_value")->Weight());
  }
  PNode* ve = p.Intermediate("ve");
  p.Writes(eps, "Out", ve);
  PNode* sqrt = p.Op("sqrt", {"sqrt"});
  PNode* sd = p.Intermediate("sd");
  p.Reads(sqrt, "X", ve).Writes(sqrt, "Out", sd);
  PNode* div = p.Op("div", {"elementwise_div"})->If(HasNoActivations);
  p.Reads(div, "X", d).Reads(div, "Y", sd);
  if (!affine) {
    p.Writes(div, "Out", p.Output("out"));
    return p;
  }
  PNode* normed = p.Intermediate("normed");
  PNode* mul = p.Op("mul", {"elementwise_mul"})->If(HasNoActivations);
  PNode* scaled = p.Intermediate("scaled");
  PNode* add = p.Op("add", {"elementwise_add"})->If(HasNoActivations);
  p.Writes(div, "Out", normed);
  const bool w_first = affine & 2, b_first = affine & 4;
  p.Reads(mul, w_first ? "Y" : "X", normed);
  p.Reads(mul, w_first ? "X" : "Y", p.Input("w")->Weight()->DTypeIs(DataType::kFloat32));
  p.Writes(mul, "Out", scaled);
  p.Reads(add, b_first ? "Y" : "X", scaled);
  p.Reads(add, b_first ? "X" : "Y", p.Input("b")->Weight()->DTypeIs(DataType::kFloat32));
  p.Writes(add, "Out", p.Output("out"));
  return p;
}

// The one value of a float weight, if it holds exactly one.
bool OneValue(const Tensor* t, float* v) {
  if (!t || !t->IsInitialized() || t->dtype() != DataType::kFloat32 || t->numel() != 1) {
    return false;
  }
  *v = t->data<float>()[0];
  return true;
}

// The one dim (in [0, rank)) a reduce_mean over `rank` dims averages,
// keeping it; -1 for anything else.
int64_t MeanAxis(const cpp::OpDesc& op, size_t rank) {
  const auto dims = op.GetAttr<std::vector<int64_t>>("dim", {0});
  const int64_t r = static_cast<int64_t>(rank);
  if (!op.GetAttr<bool>("keep_dim", false) || op.GetAttr<bool>("reduce_all", false) ||
      dims.size() != 1 || dims[0] < -r || dims[0] >= r) {
    return -1;
  }
  return dims[0] < 0 ? dims[0] + r : dims[0];
}

// A weight of n values that an elementwise op with its `axis` attribute
// (Paddle's rule: Y's dims placed from `axis`, -1 aligning them to the end)
// broadcasts along dim `along` of a rank-`rank` X: n there, 1 elsewhere.
bool VectorAlong(const cpp::OpDesc& op, const Tensor* w, size_t rank, int64_t along, int64_t n) {
  if (!w || !w->IsInitialized() || w->numel() != n || w->dims().empty()) return false;
  const DDim& wd = w->dims();
  const int64_t wr = static_cast<int64_t>(wd.size()), r = static_cast<int64_t>(rank);
  const int axis = op.GetAttr<int32_t>("axis", -1);
  const int64_t start = axis == -1 ? r - wr : axis;
  if (start < 0 || start + wr > r) return false;
  for (int64_t k = 0; k < wr; ++k) {
    if (wd[k] != (start + k == along ? n : 1)) return false;
  }
  return true;
}

}  // namespace

class LayerNormFusePass : public FusionPass {
 public:
  bool runs_on_sub_blocks() const override { return true; }

 protected:
  // Affine forms first (the four operand orders), so a trailing * w + b
  // joins the op; then the normalization alone.
  std::vector<Pattern> BuildPatterns() const override {
    std::vector<Pattern> out;
    for (int affine : {1, 3, 5, 7, 0}) {
      for (int s = 0; s < kSquareKinds; ++s) {
        for (bool scale_eps : {false, true}) {
          out.push_back(MakePattern(static_cast<Square>(s), scale_eps, affine));
        }
      }
    }
    return out;
  }

  StatusOr<bool> Rewrite(SSAGraph* graph, const Match& m, int which) override {
    const bool affine = which < 4 * 2 * kSquareKinds;
    const DDim x_dims = VarDims(*graph, *m.at("x"));
    const size_t rank = x_dims.size();
    const int64_t axis = MeanAxis(m.at("mean")->stmt().desc, rank);
    const bool last = rank > 0 && axis == static_cast<int64_t>(rank) - 1;
    const bool channels = rank == 4 && axis == 1;
    if ((!last && !channels) || MeanAxis(m.at("var")->stmt().desc, rank) != axis) {
      Count("declined_axis");
      return false;
    }
    float epsilon = 0.f;
    if (!Exponent2(*graph, m) || !Epsilon(*graph, m, &epsilon)) {
      Count("declined_constants");
      return false;
    }
    const int64_t n = x_dims[axis];
    const Tensor* w = affine ? WeightTensor(*graph, m.at("w")) : nullptr;
    const Tensor* b = affine ? WeightTensor(*graph, m.at("b")) : nullptr;
    if (affine && (n <= 0 || !VectorAlong(m.at("mul")->stmt().desc, w, rank, axis, n) ||
                   !VectorAlong(m.at("add")->stmt().desc, b, rank, axis, n))) {
      Count("declined_affine");
      return false;
    }
    Node* out = m.at("out");
    std::vector<const Node*> going;
    for (const char* name : {"mu", "d", "sq", "var_out", "ve", "sd"}) going.push_back(m.at(name));
    if (affine) {
      going.push_back(m.at("normed"));
      going.push_back(m.at("scaled"));
    }
    if (!CanWriteEarlier(*graph, out, going)) {
      Count("unsafe_rename");
      return false;
    }
    Node* x = m.at("x");
    cpp::OpDesc ln(last ? "layer_norm" : "channel_layer_norm");
    ln.SetInput("X", {x->arg().name});
    if (affine) {
      ln.SetInput("Scale", {m.at("w")->arg().name});
      ln.SetInput("Bias", {m.at("b")->arg().name});
    }
    ln.SetOutput("Y", {out->arg().name});
    if (last) ln.SetAttr("begin_norm_axis", static_cast<int32_t>(rank - 1));
    ln.SetAttr("epsilon", epsilon);
    Node* op = graph->NewStmtNode(ln, m.at("mean")->stmt().order);
    SSAGraph::Link(x, op);
    if (affine) {
      SSAGraph::Link(m.at("w"), op);
      SSAGraph::Link(m.at("b"), op);
    }
    SSAGraph::Unlink(m.at(affine ? "add" : "div"), out);
    SSAGraph::Link(op, out);
    for (Node* o : m.ops()) RemoveOp(graph, o);
    return true;
  }

 private:
  // The squaring op squares: pow with factor 2 (no FactorTensor), or
  // elementwise_pow by a one-value weight 2; square and d * d always do.
  static bool Exponent2(const SSAGraph& graph, const Match& m) {
    const cpp::OpDesc& sq = m.at("square")->stmt().desc;
    if (sq.Type() == "pow") {
      return !sq.HasInput("FactorTensor") && sq.GetAttr<float>("factor", 1.f) == 2.f;
    }
    if (sq.Type() == "elementwise_pow") {
      float e = 0.f;
      return OneValue(WeightTensor(graph, m.at("two")), &e) && e == 2.f;
    }
    return true;
  }

  // epsilon from the one-value weight added, or the scale op's bias (scale
  // 1); it must be finite and >= 0, as layer_norm requires.
  static bool Epsilon(const SSAGraph& graph, const Match& m, float* eps) {
    const cpp::OpDesc& op = m.at("eps")->stmt().desc;
    if (op.Type() == "scale") {
      if (op.HasInput("ScaleTensor") || op.GetAttr<float>("scale", 1.f) != 1.f) return false;
      *eps = op.GetAttr<float>("bias", 0.f);
    } else if (!OneValue(WeightTensor(graph, m.at("eps_value")), eps)) {
      return false;
    }
    return std::isfinite(*eps) && *eps >= 0.f;
  }
};

}  // namespace fusion
}  // namespace mir
}  // namespace lite

REGISTER_MIR_PASS(layer_norm_fuse_pass, lite::mir::fusion::LayerNormFusePass);
