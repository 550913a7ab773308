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
// conv of the mean of its input, so each such pool is rewritten to pool x
// instead, followed by a 1x1 float conv of the pooled [N, C_in, 1, 1] map
// with the conv's own weights and bias, writing the pool's old output. For
// an int8 conv (the only form the x86 kernel of conv2d_resize_add runs) the
// pool reads x quant-dequantized with the conv's Input_scale and rule (a
// fake_quantize_dequantize op, as the simulation feeds the conv) and the
// small conv uses the dequantized filter (level * Filter_scales[c] / 127):
// the same sums in another order, so the mean differs from the pool of C
// only by float rounding.
//
// Conditions, each decline counted: the conv is an int8 conv2d with a 1x1
// filter, no fused activation, ResidualData or post map, float32 Input and
// Output ("declined_conv"); C is read only by the resize and by such pools,
// is not fetched and has one version ("declined_readers"); the resize is
// nearest (v1 or v2), NCHW, align_corners false, without size / scale
// inputs, with declared dims that upscale a by integer factors and the
// index rule int(ratio * o) == o / factor ("declined_resize"); renaming the
// resize's output to the conv is safe ("unsafe_rename"); a non-host kernel
// takes conv2d_resize_add ("declined_no_kernel"). "fused" and
// "pools_moved" count the rewrites. Runs after interp_residual_fuse_pass
// and before int8_requantize_pass (which may then let the fused op write
// levels).
#include <cmath>
#include <string>
#include <vector>

#include "lite/core/mir/fusion/fusion_pass.h"
#include "lite/core/mir/fusion/graph_rewrite.h"
#include "lite/core/mir/pass.h"
#include "lite/core/mir/pattern_matcher.h"
#include "lite/operators/interpolate_op.h"

namespace lite {
namespace mir {
namespace fusion {

namespace {

bool IsGlobalAveragePool(const cpp::OpDesc& d) {
  if (d.Type() != "pool2d" || d.GetAttr<std::string>("pooling_type", "max") != "avg" ||
      !IsNchw(d)) {
    return false;
  }
  if (d.GetAttr<bool>("global_pooling", false)) return true;
  const auto k = d.GetAttr<std::vector<int>>("ksize", {});
  return d.GetAttr<bool>("adaptive", false) && k.size() == 2 && k[0] == 1 && k[1] == 1;
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
    const float ratio =
        s > 0.f ? static_cast<float>(1. / s) : static_cast<float>(a[2 + i]) / out[2 + i];
    if (out[2 + i] > 1 && !operators::NearestIsIntegerUpscale(a[2 + i], out[2 + i], ratio)) {
      return false;
    }
  }
  return true;
}

}  // namespace

class ConvResizeAddFusePass : public Pass {
 public:
  std::string name() const override { return "conv_resize_add_fuse_pass"; }

  StatusOr<bool> Run(SSAGraph* graph) override {
    bool changed = false;
    for (Node* resize : graph->StmtNodes()) {
      if (!resize->IsStmt() || !resize->stmt().desc.HasInput("ResidualData")) continue;
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
    cpp::OpDesc fused = conv->stmt().desc;
    fused.SetType("conv2d_resize_add");
    fused.SetInput("Addend", {a->arg().name});
    Node* s = InputNode(resize, "ResidualScale");
    if (s) fused.SetInput("ConvScale", {s->arg().name});
    fused.SetOutput("Output", {out->arg().name});
    if (!DeviceKernelTakes(*graph, fused)) {
      Count("declined_no_kernel");
      return false;
    }
    for (Node* pool : pools) MovePoolBeforeConv(graph, conv, pool);
    // The conv takes the resize's inputs and output; C and the resize go.
    SSAGraph::Link(a, conv);
    if (s) SSAGraph::Link(s, conv);
    SSAGraph::Unlink(resize, out);
    ReplaceOutput(conv, c, out);
    conv->stmt().desc = fused;
    conv->stmt().desc.SetOutput("Output", {out->arg().name});
    RemoveOp(graph, resize);  // and C, now unlinked
    Count("fused");
    return true;
  }

  // pool(C) -> small_conv(pool(qd(x))): see the top of the file.
  void MovePoolBeforeConv(SSAGraph* graph, Node* conv, Node* pool) {
    const cpp::OpDesc& cd = conv->stmt().desc;
    Node* x = InputNode(conv, "Input");
    Node* filter = InputNode(conv, "Filter");
    Node* bias = InputNode(conv, "Bias");
    Node* m = OutputNode(pool, "Out");
    const DDim xd = VarDims(*graph, *x);
    const int64_t order = pool->stmt().order;

    // x quant-dequantized as the int8 conv sees it.
    Tensor in_scale;
    in_scale.Resize({1});
    in_scale.mutable_data<float>()[0] = cd.GetAttr<float>("Input_scale", 0.f);
    Node* scale_var = AddWeight(graph, x->arg().name + "_mean_scale", in_scale);
    Node* xq = NewVar(graph, x->arg().name + "_qd", xd);
    cpp::OpDesc qd;
    qd.SetType("fake_quantize_dequantize_moving_average_abs_max");
    qd.SetInput("X", {x->arg().name});
    qd.SetInput("InScale", {scale_var->arg().name});
    qd.SetOutput("Out", {xq->arg().name});
    qd.SetAttr("bit_length", 8);
    qd.SetAttr("round_type", cd.GetAttr<int32_t>("quant_round_type", 1));
    Node* qd_op = graph->NewStmtNode(qd, order);
    SSAGraph::Link(x, qd_op);
    SSAGraph::Link(scale_var, qd_op);
    SSAGraph::Link(qd_op, xq);

    // The pool reads it and writes the input channels' means.
    const DDim md = {xd.empty() ? -1 : xd[0], xd.size() == 4 ? xd[1] : -1, 1, 1};
    Node* pooled = NewVar(graph, m->arg().name + "_in", md);
    ReplaceInput(pool, InputNode(pool, "X"), xq);
    SSAGraph::Unlink(pool, m);
    pool->stmt().desc.SetOutput("Out", {pooled->arg().name});
    SSAGraph::Link(pool, pooled);

    // The float 1x1 conv of the means writes the pool's old output.
    const Tensor* levels = WeightTensor(*graph, filter);
    const auto scales = cd.GetAttr<std::vector<float>>("Filter_scales", {});
    Tensor w;
    w.Resize(levels->dims());
    const int64_t oc = levels->dims()[0], per = levels->numel() / oc;
    for (int64_t i = 0; i < levels->numel(); ++i) {
      w.mutable_data<float>()[i] =
          static_cast<float>(levels->data<int8_t>()[i]) * scales[i / per] / 127.f;
    }
    Node* w_var = AddWeight(graph, filter->arg().name + "_dequantized", w);
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

  static Node* NewVar(SSAGraph* graph, const std::string& base, const DDim& dims) {
    cpp::VarDesc vd;
    vd.name = graph->UniqueVarName(base);
    vd.dtype = DataType::kFloat32;
    vd.dims = dims;
    graph->SetVarDesc(vd);
    return graph->NewArgNode(vd.name);
  }
};

}  // namespace fusion
}  // namespace mir
}  // namespace lite

REGISTER_MIR_PASS(conv_resize_add_fuse_pass, lite::mir::fusion::ConvResizeAddFusePass);
