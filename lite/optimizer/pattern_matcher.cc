#include "lite/optimizer/pattern_matcher.h"

#include <glog/logging.h>

#include <algorithm>
#include <set>
#include <tuple>

namespace lite {
namespace mir {

namespace {
template <typename T>
bool Contains(const std::vector<T>& v, const T& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

bool Consumes(const Node* op, const std::string& param, const Node* var) {
  return Contains(op->stmt().desc.Input(param), var->arg().name) &&
         Contains(op->inlinks, const_cast<Node*>(var));
}
bool Produces(const Node* op, const std::string& param, const Node* var) {
  return Contains(op->stmt().desc.Output(param), var->arg().name) &&
         Contains(op->outlinks, const_cast<Node*>(var));
}
}  // namespace

// ---- PNode -------------------------------------------------------------

PNode* PNode::If(OpPred pred) {
  op_preds_.push_back(std::move(pred));
  return this;
}
PNode* PNode::Weight() {
  return Where([](const Node& n, const SSAGraph&) { return n.arg().is_weight; });
}
PNode* PNode::SingleConsumer() {
  return Where([](const Node& n, const SSAGraph&) { return n.outlinks.size() == 1; });
}
PNode* PNode::DimsIf(DimsPred pred) {
  return Where([pred](const Node& n, const SSAGraph& g) { return pred(VarDims(g, n)); });
}
PNode* PNode::DTypeIs(DataType type) {
  return Where([type](const Node& n, const SSAGraph& g) {
    const Variable* v = g.scope() && n.arg().is_weight ? g.scope()->FindVar(n.arg().name)
                                                       : nullptr;
    if (v) return v->GetTensor().dtype() == type;
    const cpp::VarDesc* d = g.FindVarDesc(n.arg().name);
    return d && d->dtype == type;
  });
}
PNode* PNode::Where(VarPred pred) {
  var_preds_.push_back(std::move(pred));
  return this;
}

// ---- Pattern -----------------------------------------------------------

PNode* Pattern::Op(const std::string& name, std::vector<std::string> types) {
  nodes_.push_back(std::make_unique<PNode>());
  PNode* n = nodes_.back().get();
  n->is_op_ = true;
  n->name_ = name;
  n->index_ = static_cast<int>(nodes_.size()) - 1;
  n->types_ = std::move(types);
  return n;
}

PNode* Pattern::Var(const std::string& name, VarRole role) {
  nodes_.push_back(std::make_unique<PNode>());
  PNode* n = nodes_.back().get();
  n->name_ = name;
  n->index_ = static_cast<int>(nodes_.size()) - 1;
  n->role_ = role;
  return n;
}

Pattern& Pattern::Reads(PNode* op, const std::string& param, PNode* var) {
  edges_.push_back({op->index_, var->index_, param, true});
  return *this;
}
Pattern& Pattern::Writes(PNode* op, const std::string& param, PNode* var) {
  edges_.push_back({op->index_, var->index_, param, false});
  return *this;
}

Status Pattern::Validate(const std::string& what) const {
  auto fail = [&](const std::string& m) { return Internal(what + ": bad pattern: " + m); };
  if (nodes_.empty() || !nodes_[0]->is_op()) return fail("the first node must be an op");
  std::set<std::string> names;
  for (const auto& n : nodes_) {
    if (!names.insert(n->name()).second) return fail("duplicate node name " + n->name());
  }
  for (const auto& e : edges_) {
    if (!nodes_[e.op]->is_op() || nodes_[e.var]->is_op()) {
      return fail("edge '" + e.param + "' must join an op and a var");
    }
  }
  for (const auto& n : nodes_) {
    if (n->is_op()) continue;
    int reads = 0, writes = 0;
    for (const auto& e : edges_) {
      if (e.var == n->index_) (e.is_input ? reads : writes)++;
    }
    if (reads + writes == 0) return fail("var " + n->name() + " has no edge");
    if (n->role() == VarRole::kInput && writes) return fail("input " + n->name() + " is written");
    if (n->role() != VarRole::kInput && writes != 1) {
      return fail("var " + n->name() + " needs exactly one producer in the pattern");
    }
    if (n->role() == VarRole::kIntermediate && !reads) {
      return fail("intermediate " + n->name() + " is never read");
    }
  }
  std::vector<bool> seen(nodes_.size(), false);
  seen[0] = true;
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& e : edges_) {
      if (seen[e.op] != seen[e.var]) seen[e.op] = seen[e.var] = grew = true;
    }
  }
  for (const auto& n : nodes_) {
    if (!seen[n->index_]) return fail(n->name() + " is not connected to the anchor");
  }
  return Status::OK();
}

// ---- Match -------------------------------------------------------------

Node* Match::at(const std::string& name) const {
  for (size_t i = 0; i < names_.size(); ++i) {
    if (names_[i] == name) return nodes_[i];
  }
  // Asking for a name the pattern does not have is a bug in the pass.
  LOG(FATAL) << "Match::at: the pattern has no node named '" << name << "'";
}

std::vector<Node*> Match::ops() const {
  std::vector<Node*> out;
  for (Node* n : nodes_) {
    if (n->IsStmt()) out.push_back(n);
  }
  return out;
}

std::vector<int> Match::claimed_ids() const {
  std::vector<int> out;
  for (size_t i = 0; i < nodes_.size(); ++i) {
    if (claims_[i]) out.push_back(nodes_[i]->id());
  }
  return out;
}

// ---- PatternMatcher ----------------------------------------------------

PatternMatcher::PatternMatcher(const Pattern* pattern) : pattern_(pattern) {
  const auto& edges = pattern->edges();
  std::vector<bool> seen(pattern->nodes().size(), false);
  if (seen.empty()) return;
  order_.push_back(0);
  via_edge_.push_back(-1);
  seen[0] = true;
  // Breadth-first over edges in declaration order: deterministic.
  for (bool grew = true; grew;) {
    grew = false;
    for (size_t i = 0; i < edges.size() && !grew; ++i) {
      const PEdge& e = edges[i];
      if (seen[e.op] == seen[e.var]) continue;
      int next = seen[e.op] ? e.var : e.op;
      seen[next] = true;
      order_.push_back(next);
      via_edge_.push_back(static_cast<int>(i));
      grew = true;
    }
  }
}

bool EdgeHolds(const PEdge& e, const Node* op, const Node* var) {
  return e.is_input ? Consumes(op, e.param, var) : Produces(op, e.param, var);
}

DDim VarDims(const SSAGraph& graph, const Node& var) {
  if (var.arg().is_weight && graph.scope()) {
    if (const Variable* v = graph.scope()->FindVar(var.arg().name)) {
      return v->GetTensor().dims();
    }
  }
  const cpp::VarDesc* d = graph.FindVarDesc(var.arg().name);
  return d ? DDim(d->dims.begin(), d->dims.end()) : DDim();
}

std::vector<Node*> PatternMatcher::Candidates(const PEdge& e,
                                              const std::vector<Node*>& bound) const {
  std::vector<Node*> out;
  if (Node* op = bound[e.op]) {
    for (Node* v : e.is_input ? op->inlinks : op->outlinks) {
      if (EdgeHolds(e, op, v) && !Contains(out, v)) out.push_back(v);
    }
    std::sort(out.begin(), out.end(), [](Node* a, Node* b) { return a->id() < b->id(); });
  } else {
    Node* var = bound[e.var];
    for (Node* o : e.is_input ? var->outlinks : var->inlinks) {
      if (EdgeHolds(e, o, var) && !Contains(out, o)) out.push_back(o);
    }
    std::sort(out.begin(), out.end(), [](Node* a, Node* b) {
      return std::make_tuple(a->stmt().order, a->id()) <
             std::make_tuple(b->stmt().order, b->id());
    });
  }
  return out;
}

bool PatternMatcher::LocalOk(const SSAGraph& g, const PNode& p, Node* n,
                             const std::vector<Node*>& bound,
                             const std::vector<bool>& claimed) const {
  if (p.is_op() != n->IsStmt()) return false;
  if (Contains(bound, n)) return false;  // injective
  const bool claims = p.is_op() || p.role() == VarRole::kIntermediate;
  if (claims && n->id() < static_cast<int>(claimed.size()) && claimed[n->id()]) return false;
  if (p.is_op()) {
    if (!Contains(p.types_, n->stmt().desc.Type())) return false;
    for (const auto& pred : p.op_preds_) {
      if (!pred(n->stmt().desc)) return false;
    }
  } else {
    if (p.role() == VarRole::kIntermediate) {
      const cpp::VarDesc* d = g.FindVarDesc(n->arg().name);
      if (n->arg().is_weight || (d && d->persistable)) return false;
    }
    for (const auto& pred : p.var_preds_) {
      if (!pred(*n, g)) return false;
    }
  }
  for (const PEdge& e : pattern_->edges()) {  // edges to already bound nodes
    int other = p.is_op() ? e.var : e.op;
    if ((p.is_op() ? e.op : e.var) != p.index_ || !bound[other]) continue;
    if (!(p.is_op() ? EdgeHolds(e, n, bound[other]) : EdgeHolds(e, bound[other], n))) {
      return false;
    }
  }
  return true;
}

bool PatternMatcher::ReadOnlyViaEdges(const Node* op, const Node* var, int var_index,
                                      const std::vector<Node*>& bound) const {
  for (const auto& kv : op->stmt().desc.inputs()) {
    if (!Contains(kv.second, var->arg().name)) continue;
    bool declared = false;
    for (const PEdge& e : pattern_->edges()) {
      declared = declared || (e.is_input && e.var == var_index && bound[e.op] == op &&
                              e.param == kv.first);
    }
    if (!declared) return false;
  }
  return true;
}

bool PatternMatcher::GlobalOk(const std::vector<Node*>& bound) const {
  std::vector<const Node*> ops;
  for (Node* n : bound) {
    if (n->IsStmt()) ops.push_back(n);
  }
  auto in_match = [&](const Node* op) { return Contains(ops, op); };
  for (const auto& p : pattern_->nodes()) {
    const Node* n = bound[p->index_];
    if (p->is_op()) {
      for (const Node* out : n->outlinks) {  // undeclared outputs must be unused
        if (!Contains(bound, const_cast<Node*>(out)) && !out->outlinks.empty()) return false;
      }
    } else if (p->role() == VarRole::kIntermediate) {
      for (const Node* c : n->outlinks) {
        if (!in_match(c)) return false;  // used outside (or fetched)
        if (!ReadOnlyViaEdges(c, n, p->index_, bound)) return false;
      }
    } else if (p->role() == VarRole::kInput) {
      for (const Node* w : n->inlinks) {
        if (in_match(w)) return false;
      }
    }
  }
  return true;
}

bool PatternMatcher::Search(const SSAGraph& g, size_t step, const std::vector<bool>& claimed,
                            std::vector<Node*>* bound) const {
  if (step == order_.size()) return GlobalOk(*bound);
  const PNode& p = *pattern_->nodes()[order_[step]];
  const PEdge& e = pattern_->edges()[via_edge_[step]];
  for (Node* c : Candidates(e, *bound)) {
    if (!LocalOk(g, p, c, *bound, claimed)) continue;
    (*bound)[p.index_] = c;
    if (Search(g, step + 1, claimed, bound)) return true;
    (*bound)[p.index_] = nullptr;
  }
  return false;
}

std::optional<Match> PatternMatcher::MatchAt(const SSAGraph& graph, Node* anchor,
                                             const std::vector<bool>& claimed) const {
  const auto& pnodes = pattern_->nodes();
  if (pnodes.empty() || order_.size() != pnodes.size()) return std::nullopt;
  std::vector<Node*> bound(pnodes.size(), nullptr);
  if (!LocalOk(graph, *pnodes[0], anchor, bound, claimed)) return std::nullopt;
  bound[0] = anchor;
  if (!Search(graph, 1, claimed, &bound)) return std::nullopt;
  Match m;
  m.nodes_ = bound;
  for (const auto& p : pnodes) {
    m.names_.push_back(p->name());
    m.claims_.push_back(p->is_op() || p->role() == VarRole::kIntermediate);
  }
  return m;
}

}  // namespace mir
}  // namespace lite
