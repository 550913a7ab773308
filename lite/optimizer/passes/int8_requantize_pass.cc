// int8_requantize_pass: keeps activations as int8 levels between int8 convs.
//
// An int8 conv P (enable_int8, made by quant_dequant_fuse_pass) whose output
// y is read only by int8 convs, all as their Input and all with the same
// Input_scale s and quant_round_type, writes y as the levels those readers
// would compute from it: P gets Output_dtype (uint8 after a non-negative
// fused activation - relu, relu6, sigmoid, hard_sigmoid - else int8),
// Output_scale s and Output_round_type; each reader gets Input_dtype and
// skips its own quantization; y's VarDesc takes the levels' dtype, so no
// float kernel can be picked for it (static_kernel_pick_pass rejects integer
// vars on float inputs). The quantize of every reader and the float32 write
// and read of y go. oneDNN rounds the requantized levels to nearest even: the
// same levels as the readers' quantization except at exact halves under
// round_type 1 (see conv_int8_compute.cc).
//
// Float producers: a concat, squeeze_excitation, elementwise_add (Out;
// an add only of X and Y declared with the same dims: a residual add) or a
// nearest_interp_v2 with ResidualData (a pyramid's top-down add) read
// only by such convs writes the levels
// too (operators/levels_output.h): it gets enable_int8 (so only a kInt8
// kernel, one that quantizes as it writes, is picked), Output_dtype "int8",
// Output_scale and Output_round_type; it quantizes by the readers' own rule,
// so their levels are exactly the same. A big concat before a 3x3 conv
// (PP-OCR det's head) or an SE block before a 1x1 conv (the classifier's
// nine) then does not write and read back float32; neither does a residual
// add before the next block's conv.
//
// Runs after the conv fusions (the activation and batch norm are folded into
// P first) and before static_kernel_pick_pass. Declined, counted by reason:
// "declined_float_reader" (some reader is not an int8 conv's Input, or y is
// fetched), "declined_scales" (readers disagree on the scale or rounding),
// "declined_versions" (y's name has other versions, which share the
// VarDesc), "declined_no_kernel" (no int8 kernel takes the new form).
// "requantized" counts the vars kept as levels.
#include <vector>

#include "lite/base/fused_activation.h"
#include "lite/optimizer/passes/graph_rewrite.h"
#include "lite/optimizer/passes/int8_kernel_query.h"
#include "lite/optimizer/pass.h"

namespace lite {
namespace mir {
namespace fusion {

namespace {

bool IsInt8Conv(const Node* op) {
  const cpp::OpDesc& d = op->stmt().desc;
  return (d.Type() == "conv2d" || d.Type() == "depthwise_conv2d" ||
          d.Type() == "conv2d_resize_add") &&
         d.GetAttr<bool>("enable_int8", false);
}

// X and Y of the elementwise op `op` are declared with the same dims.
bool SameShapedOperands(const SSAGraph& graph, Node* op) {
  const Node* x = InputNode(op, "X");
  const Node* y = InputNode(op, "Y");
  if (!x || !y) return false;
  const cpp::VarDesc* xd = graph.FindVarDesc(x->arg().name);
  const cpp::VarDesc* yd = graph.FindVarDesc(y->arg().name);
  return xd && yd && !xd->dims.empty() && xd->dims == yd->dims;
}

// A float op that can write its output as levels: the output's parameter.
const char* LevelsWriterOutput(const SSAGraph& graph, Node* op) {
  const cpp::OpDesc& d = op->stmt().desc;
  if (d.GetAttr<bool>("enable_int8", false)) return nullptr;
  if (d.Type() == "concat" || d.Type() == "squeeze_excitation") return "Out";
  if (d.Type() == "elementwise_add" && SameShapedOperands(graph, op)) return "Out";
  if (d.Type() == "nearest_interp_v2" && d.HasInput("ResidualData")) return "Out";
  return nullptr;
}

// The activation fused into `desc` (and a post-activation affine map
// a * x + b after it, conv_scale_fuse_pass) never gives negative values.
bool NonNegativeActivation(const cpp::OpDesc& desc) {
  using Act = operators::FusedActivation;
  auto act = Act::FromOpDesc(desc);
  if (!act.ok()) return false;
  if (desc.GetAttr<float>("fuse_post_scale", 1.f) < 0.f ||
      desc.GetAttr<float>("fuse_post_bias", 0.f) < 0.f) {
    return false;
  }
  return act->kind == Act::kRelu || act->kind == Act::kRelu6 || act->kind == Act::kSigmoid ||
         act->kind == Act::kHardSigmoid;
}

}  // namespace

class Int8RequantizePass : public Pass {
 public:

  StatusOr<bool> Run(SSAGraph* graph) override {
    bool changed = false;
    for (Node* op : graph->StmtNodes()) {
      if (IsInt8Conv(op)) {
        changed = TryOutput(graph, op, "Output") || changed;
      } else if (const char* param = LevelsWriterOutput(*graph, op)) {
        changed = TryOutput(graph, op, param) || changed;
      }
    }
    return changed;
  }

 private:
  bool TryOutput(SSAGraph* graph, Node* producer, const char* param) {
    Node* y = nullptr;
    for (Node* out : producer->outlinks) {
      if (OutputParamOf(producer, out->arg().name) == param) y = out;
    }
    if (!y || y->outlinks.empty()) return false;
    if (IsFetched(y)) {
      Count("declined_float_reader");
      return false;
    }
    const cpp::OpDesc* first = nullptr;
    for (Node* reader : y->outlinks) {
      const cpp::OpDesc& d = reader->stmt().desc;
      const auto& in = d.Input("Input");
      if (!IsInt8Conv(reader) || in.size() != 1 || in[0] != y->arg().name ||
          InputNode(reader, "Filter") == y || InputNode(reader, "Bias") == y ||
          InputNode(reader, "Addend") == y || InputNode(reader, "ConvScale") == y) {
        Count("declined_float_reader");
        return false;
      }
      if (!first) first = &d;
      if (d.GetAttr<float>("Input_scale", 0.f) != first->GetAttr<float>("Input_scale", 0.f) ||
          d.GetAttr<int32_t>("quant_round_type", 1) !=
              first->GetAttr<int32_t>("quant_round_type", 1)) {
        Count("declined_scales");
        return false;
      }
    }
    const cpp::VarDesc* vd = graph->FindVarDesc(y->arg().name);
    if (!vd || Versions(*graph, y->arg().name) != 1) {
      Count("declined_versions");
      return false;
    }

    const bool conv = IsInt8Conv(producer);
    const DataType levels = conv && NonNegativeActivation(producer->stmt().desc)
                                ? DataType::kUInt8
                                : DataType::kInt8;
    cpp::OpDesc out_desc = producer->stmt().desc;
    if (!conv) out_desc.SetAttr("enable_int8", true);
    out_desc.SetAttr("Output_dtype", std::string(DataTypeName(levels)));
    out_desc.SetAttr("Output_scale", first->GetAttr<float>("Input_scale", 0.f));
    out_desc.SetAttr("Output_round_type", first->GetAttr<int32_t>("quant_round_type", 1));
    std::vector<cpp::OpDesc> reader_descs;
    bool takes = Int8KernelTakes(*graph, out_desc);
    for (Node* reader : y->outlinks) {
      reader_descs.push_back(reader->stmt().desc);
      reader_descs.back().SetAttr("Input_dtype", std::string(DataTypeName(levels)));
      takes = takes && Int8KernelTakes(*graph, reader_descs.back());
    }
    if (!takes) {
      Count("declined_no_kernel");
      return false;
    }
    producer->stmt().desc = out_desc;
    for (size_t i = 0; i < reader_descs.size(); ++i) {
      y->outlinks[i]->stmt().desc = reader_descs[i];
    }
    cpp::VarDesc typed = *vd;
    typed.dtype = levels;
    graph->SetVarDesc(typed);
    Count(conv ? "requantized" : "quantized_float_output");
    return true;
  }
};

}  // namespace fusion
}  // namespace mir
}  // namespace lite

REGISTER_MIR_PASS(int8_requantize_pass, lite::mir::fusion::Int8RequantizePass);
