// Pattern matcher: declarative subgraph patterns over an SSAGraph.
//
// A Pattern is a small graph of op nodes (matched by type and attribute
// predicates) and var nodes (matched by role and properties), joined by edges
// that name the op argument: `p.Reads(bn, "X", conv_out)` says conv_out is
// listed under "X" among batch_norm's inputs. Var roles:
//   Input         enters the pattern from outside (its producer, if any, is
//                 not part of the match);
//   Output        produced inside and may be used anywhere;
//   Intermediate  produced and consumed only inside the match (and only
//                 through declared edges), never fetched, never a weight;
//                 the rewrite removes it.
// Outputs of matched ops that the pattern does not declare must be unused
// (e.g. batch_norm's MeanOut): the rewrite may drop them.
//
// MatchAt() tries one anchor (a graph op for the pattern's first op node) and
// returns the first match in a deterministic search order (candidates sorted
// by program order and node id, never by pointer). The Pattern owns its
// nodes; a Match borrows graph nodes and is valid until the graph changes.
// Owned by the fusion passes (this directory).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lite/optimizer/ssa_graph.h"

namespace lite {
namespace mir {

enum class VarRole { kInput, kOutput, kIntermediate };

class PNode {
 public:
  using OpPred = std::function<bool(const cpp::OpDesc&)>;
  using VarPred = std::function<bool(const Node&, const SSAGraph&)>;
  using DimsPred = std::function<bool(const DDim&)>;

  bool is_op() const { return is_op_; }
  const std::string& name() const { return name_; }
  VarRole role() const { return role_; }

  // Op nodes: an attribute predicate (all given predicates must hold).
  PNode* If(OpPred pred);
  // Var nodes: a weight (persistable, with data in the graph's scope).
  PNode* Weight();
  // Var nodes: exactly one consumer op.
  PNode* SingleConsumer();
  // Var nodes: dims (the scope tensor's for weights, else the VarDesc's).
  PNode* DimsIf(DimsPred pred);
  PNode* DTypeIs(DataType type);
  // Var nodes: any property of the graph node.
  PNode* Where(VarPred pred);

 private:
  friend class Pattern;
  friend class PatternMatcher;
  bool is_op_ = false;
  std::string name_;
  int index_ = 0;
  std::vector<std::string> types_;  // ops: accepted types
  VarRole role_ = VarRole::kInput;
  std::vector<OpPred> op_preds_;
  std::vector<VarPred> var_preds_;
};

struct PEdge {
  int op = 0;      // PNode index of the op
  int var = 0;     // PNode index of the var
  std::string param;
  bool is_input = true;  // var is an input of op (else an output)
};

class Pattern {
 public:
  Pattern() = default;
  Pattern(Pattern&&) = default;
  Pattern& operator=(Pattern&&) = default;

  // The first op declared is the anchor.
  PNode* Op(const std::string& name, std::vector<std::string> types);
  PNode* Input(const std::string& name) { return Var(name, VarRole::kInput); }
  PNode* Output(const std::string& name) { return Var(name, VarRole::kOutput); }
  PNode* Intermediate(const std::string& name) {
    return Var(name, VarRole::kIntermediate);
  }
  // `var` is listed under `param` among the inputs (outputs) of `op`.
  Pattern& Reads(PNode* op, const std::string& param, PNode* var);
  Pattern& Writes(PNode* op, const std::string& param, PNode* var);

  // Checks the declaration (unique names, an op first, every var connected,
  // inputs not written and outputs/intermediates written inside, one
  // producer per var). `what` names the pass in errors.
  Status Validate(const std::string& what) const;

  const std::vector<std::unique_ptr<PNode>>& nodes() const { return nodes_; }
  const std::vector<PEdge>& edges() const { return edges_; }

 private:
  PNode* Var(const std::string& name, VarRole role);
  std::vector<std::unique_ptr<PNode>> nodes_;
  std::vector<PEdge> edges_;
};

class Match {
 public:
  // The graph node bound to the pattern node `name`. An unknown name is a
  // bug in the pass: a fatal glog error (LOG(FATAL)), like a failed CHECK.
  Node* at(const std::string& name) const;
  // Ops of the match (in pattern order) and all bound nodes.
  const std::vector<Node*>& nodes() const { return nodes_; }
  std::vector<Node*> ops() const;
  // Ids of the ops and intermediates (what a match claims).
  std::vector<int> claimed_ids() const;

 private:
  friend class PatternMatcher;
  std::vector<Node*> nodes_;  // by PNode index
  std::vector<std::string> names_;
  std::vector<bool> claims_;  // op or intermediate
};

class PatternMatcher {
 public:
  explicit PatternMatcher(const Pattern* pattern);
  // The first match whose anchor is `anchor`, or nullopt. Nodes with
  // claimed[id] set may not be an op or intermediate of the match.
  std::optional<Match> MatchAt(const SSAGraph& graph, Node* anchor,
                               const std::vector<bool>& claimed) const;

 private:
  bool Search(const SSAGraph& g, size_t step, const std::vector<bool>& claimed,
              std::vector<Node*>* bound) const;
  std::vector<Node*> Candidates(const PEdge& e, const std::vector<Node*>& bound) const;
  bool LocalOk(const SSAGraph& g, const PNode& p, Node* n,
               const std::vector<Node*>& bound, const std::vector<bool>& claimed) const;
  bool GlobalOk(const std::vector<Node*>& bound) const;
  // Every param of `op` listing intermediate `var` is a declared edge.
  bool ReadOnlyViaEdges(const Node* op, const Node* var, int var_index,
                        const std::vector<Node*>& bound) const;

  const Pattern* pattern_;
  std::vector<int> order_;        // PNode indices in search order (anchor first)
  std::vector<int> via_edge_;     // per step: edge reaching order_[step] (-1 anchor)
};

// True when edge `e` holds between graph nodes op and var (linked, and the
// var's name listed under the param).
bool EdgeHolds(const PEdge& e, const Node* op, const Node* var);
// Dims of a var node: the scope tensor's for weights, else its VarDesc's
// (empty when unknown).
DDim VarDims(const SSAGraph& graph, const Node& var);

}  // namespace mir
}  // namespace lite
