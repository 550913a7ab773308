#include "lite/optimizer/graph_verifier.h"

#include <algorithm>
#include <set>

namespace lite {
namespace mir {

namespace {
std::string Describe(const Node* n) {
  return std::string(n->IsStmt() ? "op '" : "var '") + n->label() + "' (node " +
         std::to_string(n->id()) + ")";
}

bool Contains(const std::vector<Node*>& v, const Node* n) {
  return std::find(v.begin(), v.end(), n) != v.end();
}

Status CheckEdges(const Node* n, const std::set<const Node*>& live) {
  for (const Node* in : n->inlinks) {
    if (!live.count(in)) return Internal(Describe(n) + " has a dangling input edge");
    if (!Contains(in->outlinks, n)) {
      return Internal("edge " + Describe(in) + " -> " + Describe(n) + " is one-sided");
    }
    if (in->IsStmt() == n->IsStmt()) {
      return Internal("edge " + Describe(in) + " -> " + Describe(n) +
                      " links two nodes of the same kind");
    }
  }
  for (const Node* out : n->outlinks) {
    if (!live.count(out)) return Internal(Describe(n) + " has a dangling output edge");
    if (!Contains(out->inlinks, n)) {
      return Internal("edge " + Describe(n) + " -> " + Describe(out) + " is one-sided");
    }
  }
  if (n->IsArg() && n->inlinks.size() > 1) {
    return Internal(Describe(n) + " has " + std::to_string(n->inlinks.size()) +
                    " producers (SSA allows one)");
  }
  return Status::OK();
}

// The op's desc must mention exactly the vars it is linked to.
Status CheckDescMatchesLinks(const Node* n) {
  const auto& desc = n->stmt().desc;
  std::set<std::string> desc_in, desc_out, linked_in, linked_out;
  for (const auto& v : desc.InputArgumentNames()) desc_in.insert(v);
  for (const auto& v : desc.OutputArgumentNames()) desc_out.insert(v);
  for (const Node* a : n->inlinks) linked_in.insert(a->arg().name);
  for (const Node* a : n->outlinks) linked_out.insert(a->arg().name);
  if (desc_in != linked_in) {
    return Internal(Describe(n) + ": inputs in its OpDesc differ from its input edges");
  }
  if (desc_out != linked_out) {
    return Internal(Describe(n) + ": outputs in its OpDesc differ from its output edges");
  }
  return Status::OK();
}
}  // namespace

Status VerifyGraph(const SSAGraph& graph) {
  std::vector<Node*> all = graph.nodes();
  std::set<const Node*> live(all.begin(), all.end());
  for (const Node* n : all) {
    RETURN_IF_ERROR(CheckEdges(n, live));
    if (n->IsStmt()) RETURN_IF_ERROR(CheckDescMatchesLinks(n));
  }
  auto order = graph.StmtTopologicalOrder();
  return order.ok() ? Status::OK() : order.status();
}

}  // namespace mir
}  // namespace lite
