// Graph edits shared by the fusion passes: relinking an op's inputs and
// outputs (OpDesc and edges together, so the verifier stays happy), removing
// ops with their dead outputs and orphaned inputs, folding an op into its
// producer, adding new weights, and removing identity ops (X -> Y) while
// keeping fetched names stable.
//
// Var names are storage at run time and the SSA graph only orders writes
// after reads of the same version, so moving a write of a name earlier, or a
// read of a name later, is only safe when no other version of that name can
// be clobbered in between: CanWriteEarlier / CanReadLater check that.
// Everything here edits the graph it is given; new weights go into
// graph->scope() as new variables (existing tensors are never modified,
// since a weight may be shared). Owned by the fusion passes.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "lite/optimizer/ssa_graph.h"
#include "lite/base/tensor.h"

namespace lite {
namespace mir {
namespace fusion {

// The arg node `op` reads as its single input `param`; nullptr when the
// param is absent or lists several vars.
Node* InputNode(Node* op, const std::string& param);
// The arg node named `var` among `op`'s inputs, or nullptr.
Node* InputVar(Node* op, const std::string& var);
// The arg node `op` writes as its single output `param` (nullptr likewise).
Node* OutputNode(Node* op, const std::string& param);
// Makes `op` read `to` wherever it read `from` (desc and edges).
void ReplaceInput(Node* op, Node* from, Node* to);
// Makes `op` write `to` instead of `from`. `to` must have no producer.
void ReplaceOutput(Node* op, Node* from, Node* to);
// Sets input `param` of `op` to exactly `var` (unlinking what it listed).
void SetInput(SSAGraph* graph, Node* op, const std::string& param, Node* var);

// Removes `op`, its outputs that nobody reads, and its inputs left with
// neither producer nor consumer (e.g. weights only it used).
void RemoveOp(SSAGraph* graph, Node* op);
// Removes `var` when it has no links left.
void RemoveIfOrphan(SSAGraph* graph, Node* var);

// A new weight var named after `base` holding a copy of `value`: VarDesc
// (persistable), tensor in graph->scope(), and an arg node (is_weight).
Node* AddWeight(SSAGraph* graph, const std::string& base, const Tensor& value);
// The tensor of a weight arg (nullptr when it is not a weight).
const Tensor* WeightTensor(const SSAGraph& graph, const Node* var);

// True when `var` is read by a fetch op or a control-flow op (whose
// sub-block reads it by name): its name must survive.
bool IsFetched(const Node* var);
// Number of live arg nodes (versions) named like `var`.
int Versions(const SSAGraph& graph, const std::string& name);
// Writing `var`'s name at an earlier op is safe: every other version of the
// name (ignoring nodes in `going`, which the rewrite removes) comes after it.
bool CanWriteEarlier(const SSAGraph& graph, const Node* var,
                     const std::vector<const Node*>& going = {});
// Reading `var` at a later op is safe: every other version of the name comes
// before it.
bool CanReadLater(const SSAGraph& graph, const Node* var);

// `op` reads `mid` (written by `producer`) and writes `out`: makes
// `producer` write `out` instead of `mid` and removes `op` (and `mid` with
// it). The caller has folded op's effect into `producer` and checked the
// rename with CanWriteEarlier(*graph, out, {mid}).
void AbsorbIntoProducer(SSAGraph* graph, Node* producer, Node* mid, Node* op, Node* out);

// Removes identity op `op` (one data input, one output), keeping the program
// equivalent. If its input X is read only by `op` and produced by another op,
// that producer writes Y directly (Y's name survives: it may be fetched);
// otherwise every consumer of Y reads X instead, unless Y is fetched. Returns
// false (graph untouched) when neither is safe.
bool RemoveIdentityOp(SSAGraph* graph, Node* op, Node* x, Node* y);

// Folds activation op `act` (reading `mid`, written only by `producer`, and
// writing `out`) into `producer` as fuse_* attributes: producer then writes
// `out`. False (graph untouched) when the activation cannot be expressed or
// the rename is unsafe.
bool FoldActivation(SSAGraph* graph, Node* producer, Node* mid, Node* act, Node* out);

// Folds a per-output-channel affine map applied to `conv`'s output
// (out_c = s[c] * conv_c + ..., conv2d / depthwise_conv2d /
// conv2d_transpose, NCHW filter) into the conv: a float32 filter is scaled
// per channel into a new weight "<filter><filter_suffix>" (a filter may be
// shared), an int8 conv (IsInt8Op) keeps its levels and its Filter_scales
// take s[c] instead (s[c] may be negative); Bias becomes new_bias(c, old
// bias or 0) in a new weight "<old bias or filter><bias_suffix>". false
// (graph untouched) when the filter or an existing Bias is not a constant of
// the conv's output channel count, or s does not have that many values.
bool FoldChannelAffine(SSAGraph* graph, Node* conv, const std::vector<float>& s,
                       const std::function<float(int64_t c, float bias)>& new_bias,
                       const std::string& filter_suffix, const std::string& bias_suffix);

// When `a` (dims `dims`, rank 4) is elementwise_mul(X = x, Y = s) with s
// one value per channel ([1, C, 1, 1], [C] at axis 1) or per sample and
// channel ([N, C, 1, 1]; -1 batches match), no activations, read only by one
// op and not fetched, and x and s have one version each (the caller reads
// them at that op instead): that mul, with *x and *s set. Else nullptr.
Node* ChannelScaleMul(const SSAGraph& graph, Node* a, const DDim& dims, Node** x, Node** s);

}  // namespace fusion
}  // namespace mir
}  // namespace lite
