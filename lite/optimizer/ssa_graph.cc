#include "lite/optimizer/ssa_graph.h"

#include <algorithm>
#include <queue>
#include <set>
#include <tuple>

namespace lite {
namespace mir {

namespace {
bool StmtBefore(const Node* a, const Node* b) {
  return std::make_tuple(a->stmt().order, a->id()) <
         std::make_tuple(b->stmt().order, b->id());
}

void EraseOne(std::vector<Node*>* v, Node* n) {
  auto it = std::find(v->begin(), v->end(), n);
  if (it != v->end()) v->erase(it);
}
}  // namespace

Status SSAGraph::Build(const cpp::ProgramDesc& program, int block_idx,
                       Scope* scope, const std::vector<Place>& valid_places) {
  if (block_idx < 0 || block_idx >= static_cast<int>(program.blocks.size())) {
    return InvalidArgument("program has no block " + std::to_string(block_idx));
  }
  source_ = program;
  block_idx_ = block_idx;
  scope_ = scope;
  valid_places_ = valid_places;
  const cpp::BlockDesc& block = program.blocks[block_idx];
  for (const auto& v : block.vars) var_descs_[v.name] = v;
  // A sub-block reads its ancestors' vars (weights among them) by name.
  outer_names_.clear();
  std::set<int> seen = {block_idx};
  for (int b = block.parent_idx; b >= 0 && b < static_cast<int>(program.blocks.size()) &&
                                 seen.insert(b).second;
       b = program.blocks[b].parent_idx) {
    for (const auto& v : program.blocks[b].vars) {
      if (var_descs_.count(v.name)) continue;
      var_descs_[v.name] = v;
      outer_names_.insert(v.name);
    }
  }

  std::map<std::string, Node*> latest;  // var name -> current version
  auto arg_for_read = [&](const std::string& name) {
    auto it = latest.find(name);
    if (it != latest.end()) return it->second;
    Node* n = NewArgNode(name);
    const cpp::VarDesc* vd = FindVarDesc(name);
    Variable* var = scope ? scope->FindVar(name) : nullptr;
    n->arg().is_weight = vd && vd->persistable && var &&
                         var->GetTensor().IsInitialized();
    latest[name] = n;
    return n;
  };
  for (const auto& op : block.ops) {
    Node* stmt = NewStmtNode(op, next_order_);
    for (const auto& name : op.InputArgumentNames()) {
      Node* arg = arg_for_read(name);
      // An op may list one var under two params; link once.
      if (std::find(stmt->inlinks.begin(), stmt->inlinks.end(), arg) ==
          stmt->inlinks.end()) {
        Link(arg, stmt);
      }
    }
    for (const auto& name : op.OutputArgumentNames()) {
      Node* arg = NewArgNode(name);
      Link(stmt, arg);
      latest[name] = arg;
    }
  }
  return Status::OK();
}

int SSAGraph::AddBlock(cpp::BlockDesc block) {
  const int idx = static_cast<int>(source_.blocks.size() + added_blocks_.size());
  block.idx = idx;
  block.parent_idx = block_idx_;
  added_blocks_.push_back(std::move(block));
  return idx;
}

std::vector<Node*> SSAGraph::nodes() const {
  std::vector<Node*> out;
  out.reserve(live_);
  for (const auto& n : nodes_) {
    if (n) out.push_back(n.get());
  }
  return out;
}

std::vector<Node*> SSAGraph::StmtNodes() const {
  std::vector<Node*> out;
  for (const auto& n : nodes_) {
    if (n && n->IsStmt()) out.push_back(n.get());
  }
  std::sort(out.begin(), out.end(), StmtBefore);
  return out;
}

StatusOr<std::vector<Node*>> SSAGraph::StmtTopologicalOrder() const {
  // Kahn's algorithm over statements; an arg is ready once its producer ran.
  std::map<const Node*, int> pending;  // stmt -> unresolved producer stmts
  auto cmp = [](const Node* a, const Node* b) { return StmtBefore(b, a); };
  std::priority_queue<Node*, std::vector<Node*>, decltype(cmp)> ready(cmp);
  for (Node* s : StmtNodes()) {
    int deps = 0;
    for (Node* in : s->inlinks) deps += static_cast<int>(in->inlinks.size());
    pending[s] = deps;
    if (deps == 0) ready.push(s);
  }
  std::vector<Node*> order;
  while (!ready.empty()) {
    Node* s = ready.top();
    ready.pop();
    order.push_back(s);
    for (Node* out : s->outlinks) {
      for (Node* consumer : out->outlinks) {
        if (--pending[consumer] == 0) ready.push(consumer);
      }
    }
  }
  if (order.size() != pending.size()) {
    return Internal("the graph has a cycle: " +
                    std::to_string(pending.size() - order.size()) +
                    " op(s) never became ready");
  }
  return order;
}

Node* SSAGraph::NewStmtNode(const cpp::OpDesc& desc, int64_t order) {
  nodes_.push_back(std::make_unique<Node>(static_cast<int>(nodes_.size()),
                                          Node::Role::kStmt));
  Node* n = nodes_.back().get();
  n->stmt().desc = desc;
  n->stmt().order = order;
  next_order_ = std::max(next_order_, order + 1);
  ++live_;
  return n;
}

Node* SSAGraph::NewArgNode(const std::string& name) {
  nodes_.push_back(std::make_unique<Node>(static_cast<int>(nodes_.size()),
                                          Node::Role::kArg));
  Node* n = nodes_.back().get();
  n->arg().name = name;
  ++live_;
  return n;
}

void SSAGraph::RemoveNode(Node* node) {
  for (Node* in : std::vector<Node*>(node->inlinks)) Unlink(in, node);
  for (Node* out : std::vector<Node*>(node->outlinks)) Unlink(node, out);
  nodes_[node->id()].reset();
  --live_;
}

void SSAGraph::Link(Node* from, Node* to) {
  from->outlinks.push_back(to);
  to->inlinks.push_back(from);
}

void SSAGraph::Unlink(Node* from, Node* to) {
  EraseOne(&from->outlinks, to);
  EraseOne(&to->inlinks, from);
}

const cpp::VarDesc* SSAGraph::FindVarDesc(const std::string& name) const {
  auto it = var_descs_.find(name);
  return it == var_descs_.end() ? nullptr : &it->second;
}

std::string SSAGraph::UniqueVarName(const std::string& base) {
  std::set<std::string> used;
  for (const auto& n : nodes_) {
    if (n && n->IsArg()) used.insert(n->arg().name);
  }
  if (!used.count(base) && !var_descs_.count(base)) return base;
  for (int i = 1;; ++i) {
    std::string name = base + "_" + std::to_string(i);
    if (!used.count(name) && !var_descs_.count(name)) return name;
  }
}

namespace {
std::string ParamOf(const std::map<std::string, std::vector<std::string>>& m,
                    const std::string& var) {
  for (const auto& kv : m) {
    if (std::find(kv.second.begin(), kv.second.end(), var) != kv.second.end()) {
      return kv.first;
    }
  }
  return "";
}
}  // namespace

VarDimsFn DeclaredDims(const SSAGraph& graph) {
  return [&graph](const std::string& var) {
    const cpp::VarDesc* vd = graph.FindVarDesc(var);
    return vd ? vd->dims : std::vector<int64_t>();
  };
}

std::string InputParamOf(const Node* op, const std::string& var) {
  return ParamOf(op->stmt().desc.inputs(), var);
}

std::string OutputParamOf(const Node* op, const std::string& var) {
  return ParamOf(op->stmt().desc.outputs(), var);
}

bool IsControlFlowOp(const cpp::OpDesc& desc) {
  return desc.Type() == "while" || desc.Type() == "conditional_block";
}

}  // namespace mir
}  // namespace lite
