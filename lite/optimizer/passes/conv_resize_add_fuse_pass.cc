// conv_resize_add_fuse_pass: the lateral branch of a feature pyramid's
// top-down add, resize(a) + conv(x) * s (interp_residual_fuse_pass's
// nearest resize with ResidualData = the output C of a 1x1 conv and
// ResidualScale = s, one value per channel), becomes one
// conv2d_resize_add (conv_resize_add_op.h) writing the sum: C, a full-size
// map (PP-OCRv3 det's RSE-FPN: 96 x 160 x 160 floats, 9.8 MB), is never
// written and read back.
//
// C may also be read by global average pools (the SE block that computes s
// from C). The mean of a 1x1 conv without activation over the pixels is the
// conv of the mean of its input, so each such pool is rewritten to pool
// the conv's input instead, followed by a 1x1 float conv of the pooled
// [N, C_in, 1, 1] map writing the pool's old output. The int8 conv's input x
// is quantized once, by a quantize_linear writing x's levels as int8 (its
// x86 kInt8 kernel; the conv's Input_scale and rule): the fused op reads them
// (Input_dtype int8), the pool averages them (x86 kInt8 pool2d: exact int32
// sums) and the small conv's filter is the dequantized one times the level
// step Input_scale / 127: the same sums as the simulation's pool of C in
// another order, so the mean differs only by float rounding. Other int8
// convs reading x with the same scale and rule read the levels too
// ("levels_shared"): one quantization of x instead of one per conv.
//
// Conditions, each decline counted: the conv is an int8 conv2d with a 1x1
// filter, no fused activation, ResidualData or post map, float32 Input and
// Output ("declined_conv"); C is read only by the resize and by such pools,
// is not fetched and has one version ("declined_readers"); the resize is
// nearest (v1 or v2), NCHW, align_corners false, without size / scale
// inputs, with declared dims that upscale a by integer factors and the
// index rule int(ratio * o) == o / factor, or, where the sizes are unknown
// (-1: a dynamic input), a scale attribute of a power of two
// ("declined_resize"); renaming the
// resize's output to the conv is safe ("unsafe_rename"); a non-host kernel
// takes conv2d_resize_add, the int8 quantize_linear and the int8 pool
// ("declined_no_kernel"); x has one version ("declined_readers"). "fused",
// "pools_moved" and "levels_shared" count the rewrites. Runs after
// interp_residual_fuse_pass and before int8_requantize_pass (which may then
// let the fused op write levels).
#include <cmath>
#include <string>
#include <vector>

#include "lite/optimizer/passes/fusion_pass.h"
#include "lite/optimizer/passes/graph_rewrite.h"
#include "lite/optimizer/passes/int8_kernel_query.h"
#include "lite/optimizer/pass.h"
#include "lite/optimizer/pattern_matcher.h"
#include "lite/operators/interpolate_op.h"
#include "lite/operators/pool_op.h"

namespace lite {
namespace mir {
namespace fusion {

namespace {

bool IsGlobalAveragePool(const cpp::OpDesc& d) {
  return d.Type() == "pool2d" && IsNchw(d) && operators::AveragesWholePlanes(d);
}

bool FusableConv(const SSAGraph& graph, Node* conv) {
  const cpp::OpDesc& d = conv->stmt().desc;
  if (d.Type() != "conv2d" || !IsInt8Op(d) || !HasNoFusedActivation(d) || !IsNchw(d) ||
      d.HasInput("ResidualData") || d.GetAttr<float>("fuse_post_scale", 1.f) != 1.f ||
      d.GetAttr<float>("fuse_post_bias", 0.f) != 0.f ||
      d.GetAttr<std::string>("Input_dtype", "float32") != "float32" ||
      d.GetAttr<std::string>("Output_dtype", "float32") != "float32") {
    return false;
  }
  Node* filter = InputNode(conv, "Filter");
  const DDim f = filter ? VarDims(graph, *filter) : DDim{};
  return f.size() == 4 && f[2] == 1 && f[3] == 1 && WeightTensor(graph, filter);
}

// The resize upscales `a` (dims) to `out` (dims) by integer factors with
// the index rule of the fused kernel.
bool FusableResize(const cpp::OpDesc& d, const DDim& a, const DDim& out) {
  if ((d.Type() != "nearest_interp" && d.Type() != "nearest_interp_v2") || !IsNchw(d) ||
      d.GetAttr<bool>("align_corners", true) || d.HasInput("OutSize") ||
      d.HasInput("SizeTensor") || d.HasInput("Scale")) {
    return false;
  }
  if (a.size() != 4 || out.size() != 4 || a[0] != out[0] || a[1] != out[1]) return false;
  const auto scale = d.GetAttr<std::vector<float>>("scale", {});
  const bool v2 = d.Type() == "nearest_interp_v2";
  for (int i = 0; i < 2; ++i) {
    const float s = v2 && scale.size() == 2 ? scale[i] : 0.f;
    if (a[2 + i] > 0 && out[2 + i] > 0) {
      const float ratio =
          s > 0.f ? static_cast<float>(1. / s) : static_cast<float>(a[2 + i]) / out[2 + i];
      if (out[2 + i] > 1 && !operators::NearestIsIntegerUpscale(a[2 + i], out[2 + i], ratio)) {
        return false;
      }
      continue;
    }
    // Sizes unknown until run time (a dynamic input): only a scale that is a
    // power of two gives the index o / scale at every size (1 / scale and its
    // products with o are exact).
    if (!(s >= 1.f && s <= 64.f && std::exp2(std::round(std::log2(s))) == s)) return false;
  }
  return true;
}

}  // namespace

class ConvResizeAddFusePass : public Pass {
 public:

  StatusOr<bool> Run(SSAGraph* graph) override {
    bool changed = false;
    for (Node* resize : graph->StmtNodes()) {
      if (!resize->stmt().desc.HasInput("ResidualData")) continue;
      changed = TryFuse(graph, resize) || changed;
    }
    return changed;
  }

 private:
  bool TryFuse(SSAGraph* graph, Node* resize) {
    const cpp::OpDesc& rd = resize->stmt().desc;
    Node* c = InputNode(resize, "ResidualData");
    Node* a = InputNode(resize, "X");
    Node* out = OutputNode(resize, "Out");
    if (!c || !a || !out || c->inlinks.size() != 1) return false;
    Node* conv = c->inlinks[0];
    if (!FusableConv(*graph, conv) || OutputNode(conv, "Output") != c) {
      Count("declined_conv");
      return false;
    }
    std::vector<Node*> pools;
    for (Node* reader : c->outlinks) {
      if (reader == resize) continue;
      if (!IsGlobalAveragePool(reader->stmt().desc) || InputNode(reader, "X") != c) {
        Count("declined_readers");
        return false;
      }
      pools.push_back(reader);
    }
    if (IsFetched(c) || Versions(*graph, c->arg().name) != 1 ||
        InputNode(resize, "ResidualScale") == c || a == c) {
      Count("declined_readers");
      return false;
    }
    const DDim out_dims = VarDims(*graph, *out);
    if (VarDims(*graph, *c) != out_dims || !FusableResize(rd, VarDims(*graph, *a), out_dims)) {
      Count("declined_resize");
      return false;
    }
    if (!CanWriteEarlier(*graph, out, {c})) {
      Count("unsafe_rename");
      return false;
    }
    Node* x = InputNode(conv, "Input");
    if (!x || Versions(*graph, x->arg().name) != 1) {
      Count("declined_readers");  // x is read again, by the new ops below
      return false;
    }
    const cpp::OpDesc& cd = conv->stmt().desc;
    const cpp::OpDesc quantize = QuantizeDesc(cd, x->arg().name, "", "");
    cpp::OpDesc fused = cd;
    fused.SetType("conv2d_resize_add");
    fused.SetInput("Addend", {a->arg().name});
    Node* s = InputNode(resize, "ResidualScale");
    if (s) fused.SetInput("ConvScale", {s->arg().name});
    fused.SetOutput("Output", {out->arg().name});
    fused.SetAttr("Input_dtype", std::string("int8"));
    if (!DeviceKernelTakes(*graph, fused) || !DeviceKernelTakes(*graph, quantize) ||
        !DeviceKernelTakes(*graph, LevelsPoolDesc())) {
      Count("declined_no_kernel");
      return false;
    }
    Node* levels = QuantizeOnce(graph, conv, x);
    for (Node* pool : pools) MovePoolBeforeConv(graph, conv, levels, pool);
    ShareLevels(graph, conv, x, levels);
    // The conv takes the levels, the resize's inputs and its output; C and
    // the resize go.
    ReplaceInput(conv, x, levels);
    SSAGraph::Link(a, conv);
    if (s) SSAGraph::Link(s, conv);
    SSAGraph::Unlink(resize, out);
    ReplaceOutput(conv, c, out);
    fused.SetInput("Input", {levels->arg().name});
    conv->stmt().desc = fused;
    RemoveOp(graph, resize);  // and C, now unlinked
    Count("fused");
    return true;
  }

  // The quantize_linear op writing x's levels by the int8 conv `cd`'s rule as
  // int8 (its x86 kInt8 kernel; Output_dtype "int8").
  static cpp::OpDesc QuantizeDesc(const cpp::OpDesc& cd, const std::string& x,
                                  const std::string& scale, const std::string& y) {
    cpp::OpDesc q;
    q.SetType("quantize_linear");
    q.SetInput("X", {x});
    q.SetInput("Scale", {scale});
    q.SetOutput("Y", {y});
    q.SetAttr("quant_axis", -1);
    q.SetAttr("bit_length", 8);
    q.SetAttr("round_type", cd.GetAttr<int32_t>("quant_round_type", 1));
    q.SetAttr("enable_int8", true);
    q.SetAttr("Output_dtype", std::string("int8"));
    return q;
  }

  // A global average pool reading int8 levels (the x86 kInt8 kernel).
  static cpp::OpDesc LevelsPoolDesc() {
    cpp::OpDesc d;
    d.SetType("pool2d");
    d.SetAttr("pooling_type", std::string("avg"));
    d.SetAttr("global_pooling", true);
    d.SetAttr("ksize", std::vector<int>{1, 1});
    d.SetAttr("enable_int8", true);
    return d;
  }

  // x's levels under the conv's Input_scale: a quantize_linear op at the
  // conv's place in the program order (before the conv and the pools it
  // feeds), writing a new int8 var.
  Node* QuantizeOnce(SSAGraph* graph, Node* conv, Node* x) {
    const cpp::OpDesc& cd = conv->stmt().desc;
    Tensor scale;
    scale.Resize({1});
    scale.mutable_data<float>()[0] = cd.GetAttr<float>("Input_scale", 0.f);
    Node* scale_var = AddWeight(graph, x->arg().name + "_scale", scale);
    Node* levels = NewVar(graph, x->arg().name + "_levels", VarDims(*graph, *x), DataType::kInt8);
    Node* q = graph->NewStmtNode(
        QuantizeDesc(cd, x->arg().name, scale_var->arg().name, levels->arg().name),
        conv->stmt().order);
    SSAGraph::Link(x, q);
    SSAGraph::Link(scale_var, q);
    SSAGraph::Link(q, levels);
    return levels;
  }

  // Other int8 convs reading x as their float Input with the same scale and
  // rule read the levels instead (one quantization of x for all of them).
  void ShareLevels(SSAGraph* graph, Node* conv, Node* x, Node* levels) {
    const cpp::OpDesc& cd = conv->stmt().desc;
    const std::vector<Node*> readers = x->outlinks;
    for (Node* reader : readers) {
      if (reader == conv || !reader->IsStmt()) continue;
      const cpp::OpDesc& d = reader->stmt().desc;
      if ((d.Type() != "conv2d" && d.Type() != "depthwise_conv2d") || !IsInt8Op(d) ||
          InputNode(reader, "Input") != x || InputNode(reader, "Filter") == x ||
          InputNode(reader, "Bias") == x || InputNode(reader, "ResidualData") == x ||
          d.GetAttr<std::string>("Input_dtype", "float32") != "float32" ||
          d.GetAttr<float>("Input_scale", 0.f) != cd.GetAttr<float>("Input_scale", 0.f) ||
          d.GetAttr<int32_t>("quant_round_type", 1) != cd.GetAttr<int32_t>("quant_round_type", 1)) {
        continue;
      }
      cpp::OpDesc shared = d;
      shared.SetInput("Input", {levels->arg().name});
      shared.SetAttr("Input_dtype", std::string("int8"));
      if (!Int8KernelTakes(*graph, shared)) continue;
      ReplaceInput(reader, x, levels);
      reader->stmt().desc.SetAttr("Input_dtype", std::string("int8"));
      Count("levels_shared");
    }
  }

  // pool(C) -> small_conv(pool(levels of x)): see the top of the file.
  void MovePoolBeforeConv(SSAGraph* graph, Node* conv, Node* levels, Node* pool) {
    const cpp::OpDesc& cd = conv->stmt().desc;
    Node* filter = InputNode(conv, "Filter");
    Node* bias = InputNode(conv, "Bias");
    Node* m = OutputNode(pool, "Out");
    const DDim xd = VarDims(*graph, *levels);
    const int64_t order = pool->stmt().order;

    // The pool reads the levels and writes the input channels' mean levels.
    const DDim md = {xd.empty() ? -1 : xd[0], xd.size() == 4 ? xd[1] : -1, 1, 1};
    Node* pooled = NewVar(graph, m->arg().name + "_in", md, DataType::kFloat32);
    ReplaceInput(pool, InputNode(pool, "X"), levels);
    SSAGraph::Unlink(pool, m);
    pool->stmt().desc.SetOutput("Out", {pooled->arg().name});
    pool->stmt().desc.SetAttr("enable_int8", true);
    SSAGraph::Link(pool, pooled);

    // The float 1x1 conv of the mean levels writes the pool's old output:
    // the filter dequantized, times the input's level step Input_scale / 127.
    const Tensor* w_levels = WeightTensor(*graph, filter);
    const auto scales = cd.GetAttr<std::vector<float>>("Filter_scales", {});
    const float step = cd.GetAttr<float>("Input_scale", 0.f) / 127.f;
    Tensor w;
    w.Resize(w_levels->dims());
    const int64_t oc = w_levels->dims()[0], per = w_levels->numel() / oc;
    for (int64_t i = 0; i < w_levels->numel(); ++i) {
      w.mutable_data<float>()[i] =
          static_cast<float>(w_levels->data<int8_t>()[i]) * scales[i / per] / 127.f * step;
    }
    Node* w_var = AddWeight(graph, filter->arg().name + "_mean", w);
    cpp::OpDesc mean_conv;
    mean_conv.SetType("conv2d");
    mean_conv.SetInput("Input", {pooled->arg().name});
    mean_conv.SetInput("Filter", {w_var->arg().name});
    if (bias) mean_conv.SetInput("Bias", {bias->arg().name});
    mean_conv.SetOutput("Output", {m->arg().name});
    mean_conv.SetAttr("strides", std::vector<int>{1, 1});
    mean_conv.SetAttr("paddings", std::vector<int>{0, 0});
    mean_conv.SetAttr("dilations", std::vector<int>{1, 1});
    mean_conv.SetAttr("groups", 1);
    Node* mean_op = graph->NewStmtNode(mean_conv, order);
    SSAGraph::Link(pooled, mean_op);
    SSAGraph::Link(w_var, mean_op);
    if (bias) SSAGraph::Link(bias, mean_op);
    SSAGraph::Link(mean_op, m);
    Count("pools_moved");
  }

  static Node* NewVar(SSAGraph* graph, const std::string& base, const DDim& dims,
                      DataType dtype) {
    cpp::VarDesc vd;
    vd.name = graph->UniqueVarName(base);
    vd.dtype = dtype;
    vd.dims = dims;
    graph->SetVarDesc(vd);
    return graph->NewArgNode(vd.name);
  }
};

}  // namespace fusion
}  // namespace mir
}  // namespace lite

REGISTER_MIR_PASS(conv_resize_add_fuse_pass, lite::mir::fusion::ConvResizeAddFusePass);
