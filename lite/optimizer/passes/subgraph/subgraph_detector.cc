#include "lite/optimizer/passes/subgraph/subgraph_detector.h"

#include <algorithm>
#include <map>
#include <set>

namespace lite {
namespace mir {

namespace {

// Clusters as member lists with a node -> cluster table; merging moves the
// members of the later cluster into the earlier one.
class Clustering {
 public:
  int Of(const Node* n) const {
    auto it = cluster_of_.find(n->id());
    return it == cluster_of_.end() ? -1 : it->second;
  }
  int Add(Node* n) {
    members_.push_back({n});
    cluster_of_[n->id()] = static_cast<int>(members_.size()) - 1;
    return cluster_of_[n->id()];
  }
  const std::vector<Node*>& Members(int c) const { return members_[c]; }
  void Merge(int into, int from) {
    for (Node* n : members_[from]) {
      cluster_of_[n->id()] = into;
      members_[into].push_back(n);
    }
    members_[from].clear();
  }
  size_t size() const { return members_.size(); }

 private:
  std::map<int, int> cluster_of_;  // stmt id -> cluster
  std::vector<std::vector<Node*>> members_;
};

// Producer statements of `stmt`'s inputs.
std::vector<Node*> Producers(const Node* stmt) {
  std::vector<Node*> out;
  for (const Node* arg : stmt->inlinks) {
    for (Node* p : arg->inlinks) out.push_back(p);
  }
  return out;
}

// Would merging clusters a and b create a cycle? True when a path leaves
// a ∪ b and comes back: a reverse DFS from producers outside a ∪ b, taking
// every member of any cluster it enters, reaches a ∪ b.
bool MergeMakesCycle(const Clustering& c, int a, int b) {
  auto inside = [&](const Node* n) {
    int k = c.Of(n);
    return k == a || k == b;
  };
  std::vector<const Node*> stack;
  std::set<int> seen;
  for (int k : {a, b}) {
    for (const Node* m : c.Members(k)) {
      for (const Node* p : Producers(m)) {
        if (!inside(p) && seen.insert(p->id()).second) stack.push_back(p);
      }
    }
  }
  while (!stack.empty()) {
    const Node* n = stack.back();
    stack.pop_back();
    std::vector<const Node*> group{n};
    int k = c.Of(n);
    if (k >= 0) group.assign(c.Members(k).begin(), c.Members(k).end());
    for (const Node* g : group) {
      if (g != n && !seen.insert(g->id()).second) continue;
      for (const Node* p : Producers(g)) {
        if (inside(p)) return true;
        if (seen.insert(p->id()).second) stack.push_back(p);
      }
    }
  }
  return false;
}

}  // namespace

StatusOr<std::vector<std::vector<Node*>>> DetectClusters(
    const SSAGraph& graph, const std::function<bool(const Node*)>& marked, int min_size,
    std::vector<std::vector<Node*>>* dropped) {
  ASSIGN_OR_RETURN(std::vector<Node*> order, graph.StmtTopologicalOrder());
  std::map<int, size_t> position;  // stmt id -> topological position
  for (size_t i = 0; i < order.size(); ++i) position[order[i]->id()] = i;
  auto by_position = [&](const Node* x, const Node* y) {
    return position.at(x->id()) < position.at(y->id());
  };

  Clustering clusters;
  for (Node* stmt : order) {
    if (!marked(stmt)) continue;
    int mine = clusters.Add(stmt);
    std::vector<Node*> producers = Producers(stmt);
    std::sort(producers.begin(), producers.end(), by_position);
    for (Node* p : producers) {
      int theirs = clusters.Of(p);
      mine = clusters.Of(stmt);
      if (theirs < 0 || theirs == mine) continue;
      if (MergeMakesCycle(clusters, theirs, mine)) continue;
      int into = std::min(theirs, mine), from = std::max(theirs, mine);
      clusters.Merge(into, from);
    }
  }

  std::vector<std::vector<Node*>> kept;
  for (size_t k = 0; k < clusters.size(); ++k) {
    std::vector<Node*> members = clusters.Members(static_cast<int>(k));
    if (members.empty()) continue;
    std::sort(members.begin(), members.end(), by_position);
    if (static_cast<int>(members.size()) < min_size) {
      if (dropped) dropped->push_back(members);
      continue;
    }
    kept.push_back(members);
  }
  auto first_position = [&](const std::vector<Node*>& m) { return position.at(m.front()->id()); };
  std::sort(kept.begin(), kept.end(), [&](const auto& x, const auto& y) {
    return first_position(x) < first_position(y);
  });
  return kept;
}

}  // namespace mir
}  // namespace lite
