// Graphviz DOT rendering of an SSAGraph.
//
// Ops are filled boxes labelled with the op type, any activation a fusion
// folded into them, and the picked kernel's place once
// static_kernel_pick_pass ran, vars are ellipses (weights
// dashed), edges carry the argument name. Output depends only on the graph's
// contents and node ids, so two builds of one model give identical bytes.
#pragma once

#include <string>

#include "lite/optimizer/ssa_graph.h"

namespace lite {
namespace mir {

std::string GraphToDot(const SSAGraph& graph, const std::string& title);

}  // namespace mir
}  // namespace lite
