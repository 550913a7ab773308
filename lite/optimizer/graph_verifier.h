// Structural checks of an SSAGraph, run by the PassManager after every pass
// that reports a change: edges are symmetric and point at live nodes, args
// and stmts alternate, every arg has at most one producer, each statement's
// OpDesc names exactly the args it is linked to, and the graph is acyclic.
#pragma once

#include "lite/optimizer/ssa_graph.h"
#include "lite/utils/status.h"

namespace lite {
namespace mir {

// OK, or an Internal error describing the first violation found (in node
// id order, so the message is deterministic).
Status VerifyGraph(const SSAGraph& graph);

}  // namespace mir
}  // namespace lite
