#include "lite/optimizer/sub_block_passes.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include "lite/core/program.h"

namespace lite {
namespace mir {

namespace {

constexpr const char* kObserverAttr = "sub_block_observer";

bool IsObserver(const Node* stmt) {
  return stmt->stmt().desc.Type() == "fetch" &&
         stmt->stmt().desc.GetAttr<bool>(kObserverAttr, false);
}

// Observer stmts reading the last version of each name the block leaves
// behind: outer activations it writes and vars it reads before writing.
void AddObservers(SSAGraph* graph) {
  std::map<std::string, Node*> first, last;  // by name, over node ids
  std::set<std::string> written;
  int64_t max_order = 0;
  for (Node* n : graph->nodes()) {
    if (n->IsStmt()) {
      max_order = std::max(max_order, n->stmt().order);
      continue;
    }
    const std::string& name = n->arg().name;
    if (!first.count(name)) first[name] = n;
    last[name] = n;
    if (!n->inlinks.empty()) written.insert(name);
  }
  for (const std::string& name : written) {
    // Weights are constants at inference (batch_norm's MeanOut aliasing its
    // Mean is not an effect), as in the main block.
    const cpp::VarDesc* desc = graph->FindVarDesc(name);
    if (desc && desc->persistable) continue;
    const bool outer = graph->outer_names().count(name) > 0;
    const bool carried = first[name]->inlinks.empty() && !first[name]->outlinks.empty();
    if (!outer && !carried) continue;
    cpp::OpDesc observe("fetch");
    observe.SetInput("X", {name});
    observe.SetAttr(kObserverAttr, true);
    Node* stmt = graph->NewStmtNode(observe, max_order + 1);
    SSAGraph::Link(last[name], stmt);
  }
}

// Writes the graph back into block `b` of `program`.
Status WriteBack(const SSAGraph& graph, int b, cpp::ProgramDesc* program) {
  ASSIGN_OR_RETURN(std::vector<Node*> order, graph.StmtTopologicalOrder());
  cpp::BlockDesc& block = program->blocks[b];
  std::set<std::string> used;
  block.ops.clear();
  for (Node* stmt : order) {
    if (IsObserver(stmt)) continue;
    cpp::OpDesc desc = stmt->stmt().desc;
    // The host kernel static_kernel_pick_pass picked, as lowering records it
    // for the main block (the block's kernel runs these ops one by one).
    if (stmt->stmt().picked) desc.SetAttr(kKernelKeyAttr, stmt->stmt().picked->Key());
    for (const auto& v : desc.InputArgumentNames()) used.insert(v);
    for (const auto& v : desc.OutputArgumentNames()) used.insert(v);
    block.ops.push_back(std::move(desc));
  }
  // Vars of ancestor blocks stay there. The block keeps its activations;
  // weights (new ones, and activations constant folding made weights) are
  // declared in block 0.
  const std::set<std::string>& elsewhere = graph.outer_names();
  std::vector<std::string> names;
  for (const cpp::VarDesc& v : block.vars) names.push_back(v.name);
  for (const auto& kv : graph.var_descs()) {
    if (std::find(names.begin(), names.end(), kv.first) == names.end()) names.push_back(kv.first);
  }
  std::vector<cpp::VarDesc> vars;
  for (const std::string& name : names) {
    const cpp::VarDesc* desc = graph.FindVarDesc(name);
    if (!desc || !used.count(name) || elsewhere.count(name)) continue;
    (desc->persistable ? program->blocks[0].vars : vars).push_back(*desc);
  }
  block.vars = std::move(vars);
  return Status::OK();
}

}  // namespace

std::vector<std::string> SubBlockPasses(const std::vector<std::string>& pipeline) {
  std::vector<std::string> out;
  for (const std::string& name : pipeline) {
    std::unique_ptr<Pass> pass = PassRegistry::Global().Create(name, PassOptions());
    if (pass && pass->runs_on_sub_blocks()) out.push_back(name);
  }
  return out;
}

Status RunSubBlockPasses(cpp::ProgramDesc* program, Scope* scope, PassManager* manager,
                         const std::vector<std::string>& passes, PassReport* report) {
  if (passes.empty()) return Status::OK();
  // Only the blocks of while / conditional_block ops: a saved optimized
  // program also holds subgraph bodies, which are the device's.
  std::set<int> blocks;
  for (const cpp::BlockDesc& block : program->blocks) {
    for (const cpp::OpDesc& op : block.ops) {
      const cpp::Attribute* sub = op.FindAttr("sub_block");
      if (IsControlFlowOp(op) && sub && sub->type == cpp::AttrType::BLOCK) {
        const int b = std::get<int32_t>(sub->value);
        if (b > 0 && b < static_cast<int>(program->blocks.size())) blocks.insert(b);
      }
    }
  }
  for (int b : blocks) {
    const std::string where = "in sub-block " + std::to_string(b);
    SSAGraph graph;
    RETURN_IF_ERROR(graph.Build(*program, b, scope, {Place(TargetType::kHost)})
                        .WithContext(where));
    AddObservers(&graph);
    auto records = manager->Run(&graph, passes);
    if (!records.ok()) return records.status().WithContext(where);
    bool changed = false;
    for (PassRecord& rec : records->passes) {
      changed = changed || rec.changed;
      rec.name += " (block " + std::to_string(b) + ")";
      rec.index = static_cast<int>(report->passes.size()) + 1;
      report->passes.push_back(std::move(rec));
    }
    if (changed) RETURN_IF_ERROR(WriteBack(graph, b, program).WithContext(where));
  }
  return Status::OK();
}

}  // namespace mir
}  // namespace lite
