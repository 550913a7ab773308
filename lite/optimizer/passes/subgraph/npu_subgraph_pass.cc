// npu_subgraph_pass: cuts the ops an NPU driver can run into `subgraph` ops.
//
// Bound to the npu target. An op is marked when no partition rule keeps it
// on host and the device-support checker the NPU library registers for the
// selected driver accepts it from its description, declared dims and
// constant weights (lite/core/device_support.h; the library itself is not
// included here). Marked ops are clustered (subgraph_detector.h), clusters
// below the minimum size are dropped, and each kept cluster becomes a
// `subgraph` op whose new block holds the original ops (see
// lite/operators/subgraph_op.h). Ops left on host carry their reason in
// kHostReasonAttr. Settings (NpuOptions) are handed to the pass when the
// optimizer creates it.
#include <set>

#include "lite/core/device_support.h"
#include "lite/optimizer/pass.h"
#include "lite/optimizer/passes/subgraph/partition.h"
#include "lite/optimizer/passes/subgraph/subgraph_detector.h"
#include "lite/backends/npu/npu_options.h"
#include "lite/backends/npu/placement.h"
#include "lite/operators/subgraph_op.h"

namespace lite {
namespace mir {

namespace {

bool IsIo(const Node* stmt) {
  const auto& t = stmt->stmt().desc.Type();
  return t == "feed" || t == "fetch";
}

}  // namespace

class NpuSubgraphPass : public Pass {
 public:
  explicit NpuSubgraphPass(NpuOptions options) : options_(std::move(options)) {}
  std::vector<TargetType> bound_targets() const override { return {TargetType::kNPU}; }

  StatusOr<bool> Run(SSAGraph* graph) override {
    const NpuOptions& options = options_;
    ASSIGN_OR_RETURN(auto support,
                     DeviceSupportRegistry::Global().Create(TargetType::kNPU, options.driver));
    ASSIGN_OR_RETURN(auto rules, ParsePartitionRules(options.partition_text));
    if (options.min_subgraph_size < 1) {
      return InvalidArgument("minimum subgraph size must be >= 1, got " +
                             std::to_string(options.min_subgraph_size));
    }

    std::set<int> marked;
    for (Node* stmt : graph->StmtNodes()) {
      if (IsIo(stmt)) continue;
      std::string reason;
      for (const auto& r : rules) {
        if (r.Matches(stmt->stmt().desc)) {
          reason = "kept on host by partition line " + std::to_string(r.line) + " '" + r.text + "'";
          break;
        }
      }
      if (reason.empty()) {
        Status s = support->Check(
            {stmt->stmt().desc, [graph](const std::string& n) { return graph->FindVarDesc(n); },
             graph->scope()});
        if (s.ok()) {
          marked.insert(stmt->id());
          stmt->stmt().desc.RemoveAttr(kHostReasonAttr);
          continue;
        }
        reason = s.message();
        // Reasons name the op; the attribute sits on the op already.
        const std::string prefix = stmt->stmt().desc.DebugName() + ": ";
        if (reason.compare(0, prefix.size(), prefix) == 0) reason = reason.substr(prefix.size());
      }
      stmt->stmt().desc.SetAttr(kHostReasonAttr, reason);
      Count("rejected");
    }

    std::vector<std::vector<Node*>> dropped;
    ASSIGN_OR_RETURN(auto clusters,
                     DetectClusters(*graph, [&](const Node* n) { return marked.count(n->id()) > 0; },
                                    options.min_subgraph_size, &dropped));
    for (const auto& small : dropped) {
      for (Node* stmt : small) {
        stmt->stmt().desc.SetAttr(
            kHostReasonAttr, "its subgraph of " + std::to_string(small.size()) +
                                 " op(s) is below the minimum size " +
                                 std::to_string(options.min_subgraph_size));
      }
      Count("dropped_small", static_cast<int64_t>(small.size()));
    }
    for (size_t k = 0; k < clusters.size(); ++k) {
      Replace(graph, clusters[k], static_cast<int>(k), options.driver);
      Count("subgraphs");
      Count("ops_in_subgraphs", static_cast<int64_t>(clusters[k].size()));
    }
    return !clusters.empty() || Counted("rejected") > 0;
  }

 private:
  NpuOptions options_;

  // Replaces `members` (topological order) by one subgraph op.
  static void Replace(SSAGraph* graph, const std::vector<Node*>& members, int id,
                      const std::string& driver) {
    std::set<const Node*> inside(members.begin(), members.end());
    std::vector<Node*> inputs, outputs, internal;
    std::set<const Node*> seen;
    cpp::BlockDesc block;
    std::set<std::string> block_vars;
    auto add_var = [&](const std::string& name) {
      if (!block_vars.insert(name).second) return;
      cpp::VarDesc vd;
      if (const cpp::VarDesc* d = graph->FindVarDesc(name)) vd = *d;
      vd.name = name;
      block.vars.push_back(vd);
    };
    int64_t order = members.front()->stmt().order;
    for (Node* stmt : members) {
      order = std::min(order, stmt->stmt().order);
      cpp::OpDesc desc = stmt->stmt().desc;
      desc.RemoveAttr(kHostReasonAttr);
      block.ops.push_back(desc);
      for (const auto& v : desc.InputArgumentNames()) add_var(v);
      for (const auto& v : desc.OutputArgumentNames()) add_var(v);
      for (Node* arg : stmt->inlinks) {
        bool produced_inside = !arg->inlinks.empty() && inside.count(arg->inlinks.front());
        if (produced_inside || arg->arg().is_weight || !seen.insert(arg).second) continue;
        inputs.push_back(arg);
      }
      for (Node* arg : stmt->outlinks) {
        bool read_outside = false;
        for (const Node* c : arg->outlinks) read_outside |= !inside.count(c);
        (read_outside ? outputs : internal).push_back(arg);
      }
    }
    const int block_idx = graph->AddBlock(std::move(block));

    cpp::OpDesc desc("subgraph");
    std::vector<std::string> in_names, out_names;
    for (Node* a : inputs) in_names.push_back(a->arg().name);
    for (Node* a : outputs) out_names.push_back(a->arg().name);
    desc.SetInput("Inputs", in_names);
    desc.SetOutput("Outputs", out_names);
    desc.SetRawAttr(operators::kSubBlockAttr, {cpp::AttrType::BLOCK, int32_t(block_idx)});
    desc.SetAttr(operators::kInputDataNamesAttr, in_names);
    desc.SetAttr(operators::kOutputDataNamesAttr, out_names);
    desc.SetAttr(operators::kNpuDriverAttr, driver);
    desc.SetAttr(operators::kSubgraphIdAttr, int32_t(id));
    Node* sub = graph->NewStmtNode(desc, order);
    for (Node* a : inputs) SSAGraph::Link(a, sub);
    for (Node* a : outputs) SSAGraph::Link(sub, a);
    std::vector<Node*> weights;
    for (Node* stmt : members) {
      for (Node* a : stmt->inlinks) {
        if (a->arg().is_weight) weights.push_back(a);
      }
    }
    for (Node* stmt : members) graph->RemoveNode(stmt);
    for (Node* a : internal) graph->RemoveNode(a);
    // Weights now read only inside the block leave the main graph (their
    // descs stay in block 0: GenerateProgram keeps persistable vars
    // the added blocks use).
    std::set<Node*> gone;
    for (Node* a : weights) {
      if (a->outlinks.empty() && a->inlinks.empty() && gone.insert(a).second) graph->RemoveNode(a);
    }
  }
};

}  // namespace mir
}  // namespace lite

REGISTER_MIR_PASS_WITH_OPTIONS(npu_subgraph_pass, [](const lite::mir::PassOptions& options) {
  return std::unique_ptr<lite::mir::Pass>(
      new lite::mir::NpuSubgraphPass(options.Get<lite::NpuOptions>()));
});
