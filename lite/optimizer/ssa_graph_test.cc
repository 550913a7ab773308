#include "lite/optimizer/ssa_graph.h"

#include <gtest/gtest.h>

#include "lite/optimizer/graph_verifier.h"
#include "lite/optimizer/test_helpers.h"

namespace lite {
namespace mir {
namespace {

using testing::AddOp;

// x -> relu -> y ; y -> scale -> y (rewrite of y) ; y -> tanh -> z
cpp::ProgramDesc RewriteProgram() {
  cpp::ProgramDesc prog;
  AddOp(&prog, "relu", {{"X", {"x"}}}, {{"Out", {"y"}}});
  AddOp(&prog, "scale", {{"X", {"y"}}}, {{"Out", {"y"}}});
  AddOp(&prog, "tanh", {{"X", {"y"}}}, {{"Out", {"z"}}});
  return prog;
}

TEST(SSAGraph, RewrittenVarGetsANewNodePerWrite) {
  SSAGraph g;
  Scope scope;
  ASSERT_TRUE(g.Build(RewriteProgram(), 0, &scope, {Place(TargetType::kHost)}).ok());
  int y_nodes = 0;
  for (Node* n : g.nodes()) {
    if (n->IsArg() && n->arg().name == "y") ++y_nodes;
  }
  EXPECT_EQ(y_nodes, 2);
  auto stmts = g.StmtNodes();
  ASSERT_EQ(stmts.size(), 3u);
  // scale reads the first y (produced by relu) and writes the second y,
  // which tanh reads.
  Node* scale = stmts[1];
  ASSERT_EQ(scale->inlinks.size(), 1u);
  ASSERT_EQ(scale->outlinks.size(), 1u);
  EXPECT_EQ(scale->inlinks[0]->inlinks[0], stmts[0]);
  EXPECT_NE(scale->inlinks[0], scale->outlinks[0]);
  EXPECT_EQ(stmts[2]->inlinks[0], scale->outlinks[0]);
  EXPECT_TRUE(VerifyGraph(g).ok());
}

TEST(SSAGraph, TopologicalOrderFollowsProgramOrderAmongReadyOps) {
  cpp::ProgramDesc prog;
  AddOp(&prog, "relu", {{"X", {"a"}}}, {{"Out", {"b"}}});
  AddOp(&prog, "tanh", {{"X", {"a"}}}, {{"Out", {"c"}}});
  AddOp(&prog, "sigmoid", {{"X", {"a"}}}, {{"Out", {"d"}}});
  SSAGraph g;
  Scope scope;
  ASSERT_TRUE(g.Build(prog, 0, &scope, {Place(TargetType::kHost)}).ok());
  auto order = g.StmtTopologicalOrder();
  ASSERT_TRUE(order.ok());
  ASSERT_EQ(order->size(), 3u);
  EXPECT_EQ((*order)[0]->label(), "relu");
  EXPECT_EQ((*order)[1]->label(), "tanh");
  EXPECT_EQ((*order)[2]->label(), "sigmoid");
}

TEST(SSAGraph, WeightsAreMarkedFromTheScope) {
  cpp::ProgramDesc prog;
  AddOp(&prog, "mul", {{"X", {"x"}}, {"Y", {"w"}}}, {{"Out", {"o"}}});
  prog.blocks[0].FindVar("w")->persistable = true;
  Scope scope;
  Tensor* w = scope.Var("w")->GetMutableTensor();
  w->Resize({2, 2});
  w->mutable_data<float>();
  SSAGraph g;
  ASSERT_TRUE(g.Build(prog, 0, &scope, {Place(TargetType::kHost)}).ok());
  for (Node* n : g.nodes()) {
    if (n->IsArg()) {
      EXPECT_EQ(n->arg().is_weight, n->arg().name == "w") << n->arg().name;
    }
  }
}

TEST(SSAGraph, BadBlockIndexIsAnError) {
  SSAGraph g;
  Scope scope;
  auto s = g.Build(RewriteProgram(), 3, &scope, {Place(TargetType::kHost)});
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace mir
}  // namespace lite
