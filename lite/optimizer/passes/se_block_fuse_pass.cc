// se_block_fuse_pass: a whole squeeze-excitation block becomes one
// squeeze_excitation op (lite/operators/squeeze_excitation_op.h):
//
//   x -> pool2d(avg to 1x1) -> conv2d(1x1, act) -> conv2d(1x1, gate act)
//     -> elementwise_mul(X = x, Y = gate [, y_activation])
//
// MobileNetV3 and PP-OCR's classifier have one after most depthwise convs;
// on their small maps each of the four ops cost about as much as the whole
// fused block (kernel calls, four tiny outputs), a third of the classifier's
// ops. The gate's activation is the excite conv's fused activation or the
// mul's y_activation (declined when both are set).
//
// Runs after npu_subgraph_pass, so device subgraphs keep the plain ops their
// drivers map. Declined (counted) unless: the pool averages whole planes
// (global, adaptive to 1x1, or one window of x's known H x W with no
// padding); both convs are groups 1 with no padding and static float
// weights [R, C, 1, 1] and [C, R, 1, 1] (biases [R] and [C] too), C being
// x's channels where known; the mul has no output activation and axis -1 or
// 0 (the gate [N, C, 1, 1] then broadcasts per channel); and the mul's
// output may be written where the block starts. Intermediate dims are not
// needed: the filters fix them.
//
// Quantized models: int8 convs (quant_dequant_fuse_pass; float32 Input and
// Output, per-channel Filter_scales) join too. The fused op gets their
// float weights back (level * Filter_scales[c] / 127, the simulation's
// values) and their Input_scale / quant_round_type as Squeeze_* / Excite_*
// attributes, so it quantizes m and h as their int8 kernels would: the
// result equals the four ops' up to float rounding. On the classifier's
// 1x1 maps the two int8 convs cost more in oneDNN calls than in arithmetic.
// Either conv may be int8 alone.
#include "lite/optimizer/passes/fusion_pass.h"
#include "lite/optimizer/passes/graph_rewrite.h"
#include "lite/operators/elementwise_ops.h"
#include "lite/operators/pool_op.h"
#include "lite/base/quant_math.h"
#include "lite/base/fused_activation.h"

namespace lite {
namespace mir {
namespace fusion {

namespace {

bool NoPadding(const cpp::OpDesc& d) {
  for (int v : d.GetAttr<std::vector<int>>("paddings", {0, 0})) {
    if (v != 0) return false;
  }
  return d.GetAttr<std::string>("padding_algorithm", "EXPLICIT") != "SAME";
}

// A pool2d that averages each whole plane of x to one value. `x` is x's
// dims as far as known: a window must match known H and W.
bool AveragesPlanes(const cpp::OpDesc& d, const DDim& x) {
  if (d.GetAttr<std::string>("pooling_type", "") != "avg") return false;
  if (operators::AveragesWholePlanes(d)) return true;
  if (d.GetAttr<bool>("global_pooling", false) || d.GetAttr<bool>("adaptive", false)) {
    return false;
  }
  const std::vector<int> k = d.GetAttr<std::vector<int>>("ksize", {});
  return x.size() == 4 && k.size() == 2 && k[0] == x[2] && k[1] == x[3] && NoPadding(d);
}

// A conv2d the fused op can stand for once its filter is 1x1 (checked in
// Rewrite): one group, no padding (so a 1x1 map stays 1x1 at any stride), no
// residual, and an activation described by the fuse_* attributes alone.
// An int8 conv qualifies with float32 Input and Output (no levels between
// it and another int8 op).
bool IsPointConv(const cpp::OpDesc& d) {
  const bool float_io = d.GetAttr<std::string>("Input_dtype", "float32") == "float32" &&
                        d.GetAttr<std::string>("Output_dtype", "float32") == "float32";
  return d.GetAttr<int>("groups", 1) == 1 && NoPadding(d) && IsNchw(d) &&
         !d.HasInput("ResidualData") && !d.GetAttr<bool>("fuse_relu", false) &&
         !d.GetAttr<bool>("fuse_brelu", false) &&
         d.GetAttr<std::string>("activation_type", "").empty() && (!IsInt8Op(d) || float_io);
}

bool IsInt8Conv(const Node* conv) {
  return conv->stmt().desc.GetAttr<bool>("enable_int8", false);
}

Pattern MakePattern() {
  Pattern p;
  PNode* pool = p.Op("pool", {"pool2d"})->If(IsNchw);
  PNode* x = p.Input("x");
  PNode* pooled = p.Intermediate("pooled");
  PNode* squeeze = p.Op("squeeze", {"conv2d"})->If(IsPointConv);
  PNode* squeezed = p.Intermediate("squeezed");
  PNode* excite = p.Op("excite", {"conv2d"})->If(IsPointConv);
  PNode* excited = p.Intermediate("excited");
  PNode* mul = p.Op("mul", {"elementwise_mul"})->If(HasNoFusedActivation);
  p.Reads(pool, "X", x).Writes(pool, "Out", pooled);
  p.Reads(squeeze, "Input", pooled).Writes(squeeze, "Output", squeezed);
  p.Reads(excite, "Input", squeezed).Writes(excite, "Output", excited);
  p.Reads(mul, "X", x).Reads(mul, "Y", excited).Writes(mul, "Out", p.Output("out"));
  return p;
}

// `op` reads as `param` a static tensor of `dims` (a bias: of dims[0]
// values, or absent), float32 (an int8 conv's Filter: int8 levels with one
// Filter_scales value per output channel).
bool StaticWeight(const SSAGraph& graph, Node* op, const std::string& param, const DDim& dims,
                  bool is_bias) {
  if (is_bias && !op->stmt().desc.HasInput(param)) return true;
  Node* var = InputNode(op, param);
  const Tensor* t = var ? WeightTensor(graph, var) : nullptr;
  if (!t || (is_bias ? t->numel() != dims[0] : t->dims() != dims)) return false;
  if (is_bias || !IsInt8Conv(op)) return t->dtype() == DataType::kFloat32;
  const auto scales = op->stmt().desc.GetAttr<std::vector<float>>("Filter_scales", {});
  return t->dtype() == DataType::kInt8 && static_cast<int64_t>(scales.size()) == dims[0];
}

// The int8 conv's filter as the float32 weights it stands for: level *
// Filter_scales[o] / 127, o the output channel (dim 0).
Tensor DequantizedFilter(const SSAGraph& graph, Node* conv) {
  const Tensor& levels = *WeightTensor(graph, InputNode(conv, "Filter"));
  const auto scales = conv->stmt().desc.GetAttr<std::vector<float>>("Filter_scales", {});
  Tensor out;
  out.Resize(levels.dims());
  float* w = out.mutable_data<float>();
  const int64_t per_channel = levels.numel() / levels.dims()[0];
  for (int64_t i = 0; i < levels.numel(); ++i) {
    const operators::quant::Quantizer q(scales[i / per_channel], 127, 1);
    w[i] = q.Dequantize(static_cast<float>(levels.data<int8_t>()[i]));
  }
  return out;
}

// Points the fused op's `param` at the int8 conv's dequantized filter and
// sets `prefix`_input_scale / _round_type from the conv's quantization.
void TakeInt8Conv(SSAGraph* graph, Node* conv, const std::string& param,
                  const std::string& prefix, cpp::OpDesc* se, Node** filter) {
  const cpp::OpDesc& d = conv->stmt().desc;
  *filter = AddWeight(graph, d.Input("Filter")[0] + ".dequantized", DequantizedFilter(*graph, conv));
  se->SetInput(param, {(*filter)->arg().name});
  se->SetAttr(prefix + "_input_scale", d.GetAttr<float>("Input_scale", 0.f));
  se->SetAttr(prefix + "_round_type", d.GetAttr<int32_t>("quant_round_type", 1));
}

}  // namespace

class SeBlockFusePass : public FusionPass {
 public:
  bool runs_on_sub_blocks() const override { return true; }

 protected:
  std::vector<Pattern> BuildPatterns() const override { return SinglePattern(MakePattern()); }

  StatusOr<bool> Rewrite(SSAGraph* graph, const Match& m, int) override {
    Node* x = m.at("x");
    Node* mul = m.at("mul");
    const DDim xd = VarDims(*graph, *x);  // may be unknown, or hold -1s
    if (x->arg().is_weight || !AveragesPlanes(m.at("pool")->stmt().desc, xd)) {
      Count("declined_pool");
      return false;
    }
    // C and R from the squeeze filter; everything else must agree.
    Node* squeeze = m.at("squeeze");
    Node* excite = m.at("excite");
    Node* w1 = InputNode(squeeze, "Filter");
    const Tensor* w1t = w1 ? WeightTensor(*graph, w1) : nullptr;
    const DDim wd = w1t ? w1t->dims() : DDim();
    const int64_t r = wd.size() == 4 ? wd[0] : -1, c = wd.size() == 4 ? wd[1] : -1;
    const bool ok = r > 0 && c > 0 && (xd.size() != 4 || xd[1] < 0 || xd[1] == c) &&
                    StaticWeight(*graph, squeeze, "Filter", {r, c, 1, 1}, false) &&
                    StaticWeight(*graph, squeeze, "Bias", {r}, true) &&
                    StaticWeight(*graph, excite, "Filter", {c, r, 1, 1}, false) &&
                    StaticWeight(*graph, excite, "Bias", {c}, true);
    if (!ok) {
      Count("declined_convs");
      return false;
    }
    const cpp::OpDesc& md = mul->stmt().desc;
    const int axis = md.GetAttr<int32_t>("axis", -1);
    if (md.Input("X").size() != 1 || md.Input("Y").size() != 1 || (axis != -1 && axis != 0)) {
      Count("declined_mul");
      return false;
    }
    auto act = operators::FusedActivation::FromOpDesc(squeeze->stmt().desc);
    auto excite_act = operators::FusedActivation::FromOpDesc(excite->stmt().desc);
    auto mul_act = operators::YActivationFromOpDesc(md);
    if (!act.ok() || !excite_act.ok() || !mul_act.ok() ||
        (excite_act->enabled() && mul_act->enabled())) {
      Count("declined_activations");
      return false;
    }
    if (!CanWriteEarlier(*graph, m.at("out"), {m.at("pooled"), m.at("squeezed"),
                                               m.at("excited")})) {
      Count("unsafe_rename");
      return false;
    }
    cpp::OpDesc se("squeeze_excitation");
    se.SetInput("X", {x->arg().name});
    se.SetInput("SqueezeFilter", squeeze->stmt().desc.Input("Filter"));
    se.SetInput("ExciteFilter", excite->stmt().desc.Input("Filter"));
    if (squeeze->stmt().desc.HasInput("Bias")) {
      se.SetInput("SqueezeBias", squeeze->stmt().desc.Input("Bias"));
    }
    if (excite->stmt().desc.HasInput("Bias")) {
      se.SetInput("ExciteBias", excite->stmt().desc.Input("Bias"));
    }
    se.SetOutput("Out", {m.at("out")->arg().name});
    act->ToOpDesc(&se);
    operators::YActivationToOpDesc(excite_act->enabled() ? *excite_act : *mul_act, &se);
    Node* filters[2] = {InputNode(squeeze, "Filter"), InputNode(excite, "Filter")};
    if (IsInt8Conv(squeeze)) {
      TakeInt8Conv(graph, squeeze, "SqueezeFilter", "Squeeze", &se, &filters[0]);
    }
    if (IsInt8Conv(excite)) {
      TakeInt8Conv(graph, excite, "ExciteFilter", "Excite", &se, &filters[1]);
    }
    if (IsInt8Conv(squeeze) || IsInt8Conv(excite)) Count("fused_int8");
    Node* op = graph->NewStmtNode(se, m.at("pool")->stmt().order);
    for (Node* w : filters) SSAGraph::Link(w, op);
    for (Node* conv : {squeeze, excite}) {
      if (Node* b = InputNode(conv, "Bias")) SSAGraph::Link(b, op);
    }
    SSAGraph::Link(x, op);
    Node* out = m.at("out");
    SSAGraph::Unlink(mul, out);
    SSAGraph::Link(op, out);
    for (const char* name : {"mul", "excite", "squeeze", "pool"}) RemoveOp(graph, m.at(name));
    return true;
  }
};

}  // namespace fusion
}  // namespace mir
}  // namespace lite

REGISTER_MIR_PASS(se_block_fuse_pass, lite::mir::fusion::SeBlockFusePass);
