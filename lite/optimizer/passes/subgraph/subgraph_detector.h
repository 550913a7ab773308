// Subgraph detection: groups marked statements of an SSA graph into
// clusters that can each be replaced by one op without creating a cycle.
//
// Marked statements are visited in the graph's deterministic topological
// order; each one starts a cluster and is merged with the clusters of its
// marked producers (smallest topological position first) when the merge
// keeps the graph acyclic: a reverse DFS from every producer outside the
// merged set, stepping through whole clusters, must not reach the merged
// set. Clusters smaller than `min_size` are dropped. Pure graph algorithm:
// it reads the graph and owns nothing.
#pragma once

#include <functional>
#include <vector>

#include "lite/optimizer/ssa_graph.h"

namespace lite {
namespace mir {

// Clusters in order of their first statement's topological position, each
// listing its statements in topological order.
StatusOr<std::vector<std::vector<Node*>>> DetectClusters(
    const SSAGraph& graph, const std::function<bool(const Node*)>& marked, int min_size,
    std::vector<std::vector<Node*>>* dropped = nullptr);

}  // namespace mir
}  // namespace lite
