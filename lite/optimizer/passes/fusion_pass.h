// FusionPass: the base of every pattern-rewrite pass in this directory.
//
// A pass declares one or more Patterns (tried in order at each anchor) and a
// Rewrite callback. Run() scans anchor ops in program order ((order, id) as
// SSAGraph::StmtNodes() gives them), takes the first pattern that matches at
// the anchor without touching nodes claimed by an earlier match (its ops and
// intermediates), and rewrites it at once, so every match is found on the
// current graph. Rewrite may decline a match (returning false with the graph
// untouched); accepted matches bump the "matched" counter. Also here:
// ActivationFusePass (the shared "producer + activation -> fuse_* attributes"
// pass), and small predicates and pattern pieces the passes share (conv
// types, activation names, fused-activation checks). Owned by the fusion
// passes; each pass lives in its own file.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "lite/optimizer/pattern_matcher.h"
#include "lite/optimizer/pass.h"

namespace lite {
namespace mir {
namespace fusion {

class FusionPass : public Pass {
 public:
  StatusOr<bool> Run(SSAGraph* graph) final;

 protected:
  // The patterns, in priority order (called once per Run).
  virtual std::vector<Pattern> BuildPatterns() const = 0;
  // Rewrites a match of patterns[which]. false: declined, graph untouched.
  // Errors should name the op or var involved.
  virtual StatusOr<bool> Rewrite(SSAGraph* graph, const Match& m, int which) = 0;
};

// The pattern list of a pass with just `p` (Patterns are move-only).
std::vector<Pattern> SinglePattern(Pattern p);
// make("Y", "X") then make("X", "Y"): a pattern around a commutative binary
// op, its matched operand under either input name.
std::vector<Pattern> BothOperandOrders(Pattern (*make)(const char*, const char*));

// Base of conv_activation_fuse_pass and elementwise_activation_fuse_pass: an
// op of `producer_types` with no fused activation whose `out_param` output
// feeds one of FusableActivations() gets that activation folded in as fuse_*
// attributes (FoldActivation in graph_rewrite.h); declined matches count
// "unfusable".
class ActivationFusePass : public FusionPass {
 protected:
  ActivationFusePass(std::vector<std::string> producer_types, std::string out_param)
      : producer_types_(std::move(producer_types)), out_param_(std::move(out_param)) {}
  std::vector<Pattern> BuildPatterns() const override;
  StatusOr<bool> Rewrite(SSAGraph* graph, const Match& m, int which) override;

 private:
  std::vector<std::string> producer_types_;
  std::string out_param_;
};

// conv2d, depthwise_conv2d, conv2d_transpose, depthwise_conv2d_transpose.
const std::vector<std::string>& ConvTypes();
bool IsTransposedConv(const std::string& type);
// Activation ops the fuse_* attributes can express for conv / elementwise.
const std::vector<std::string>& FusableActivations();
// No activation fused into the op yet (fuse_activation empty, and no legacy
// fuse_relu / fuse_brelu flag set).
bool HasNoFusedActivation(const cpp::OpDesc& op);
// An int8 op (enable_int8, set by quant_dequant_fuse_pass): its Filter holds
// int8 levels, so passes that rewrite or regroup float filters skip it.
bool IsInt8Op(const cpp::OpDesc& op);
// No "y_activation" on an elementwise op.
bool HasNoYActivation(const cpp::OpDesc& op);
// Neither of the two (an elementwise op computing its plain formula).
bool HasNoActivations(const cpp::OpDesc& op);
// The op computes in NCHW (data_format / data_layout absent, NCHW or
// AnyLayout).
bool IsNchw(const cpp::OpDesc& op);
// Output channels of a conv op with filter dims `filter` (4-D): dim 0, or
// dim 1 * groups for the transposed convs; -1 when the dims do not fit.
int64_t ConvOutChannels(const cpp::OpDesc& conv, const DDim& filter);
// True when an elementwise op with `axis` adds/multiplies Y (dims `y`) per
// channel of a 4-D NCHW X with `c` channels (Y holds 1 or `c` values placed
// on dim 1), following the ops' broadcast rule.
bool IsPerChannel(const DDim& y, int axis, int64_t c);
// Adds op node "conv" to `p`: a ConvTypes() op with no fused activation,
// computing in NCHW (the conv whose Filter / Bias a folding pass rewrites).
PNode* BiasFoldableConv(Pattern* p);
// A kernel of a valid non-host place takes `desc` (KernelDef::Accepts with
// the graph's declared dims): fusions whose op only pays on a device kernel
// (the host kernel just runs the original ops) ask this first.
bool DeviceKernelTakes(const SSAGraph& graph, const cpp::OpDesc& desc);

}  // namespace fusion
}  // namespace mir
}  // namespace lite
