#include "lite/optimizer/pattern_matcher.h"

#include <gtest/gtest.h>

#include "lite/optimizer/passes/fusion_pass.h"
#include "lite/optimizer/passes/graph_rewrite.h"
#include "lite/optimizer/graph_verifier.h"
#include "lite/optimizer/test_helpers.h"

namespace lite {
namespace mir {
namespace {

using testing::AddOp;

// feed -> conv(w) -> c -> batch_norm(s, b, m, v) -> y -> fetch
cpp::ProgramDesc ConvBn() {
  cpp::ProgramDesc prog;
  AddOp(&prog, "feed", {{"X", {"feed"}}}, {{"Out", {"x"}}});
  AddOp(&prog, "conv2d", {{"Input", {"x"}}, {"Filter", {"w"}}}, {{"Output", {"c"}}});
  AddOp(&prog, "batch_norm",
        {{"X", {"c"}}, {"Scale", {"s"}}, {"Bias", {"b"}}, {"Mean", {"m"}}, {"Variance", {"v"}}},
        {{"Y", {"y"}}, {"MeanOut", {"m"}}});
  AddOp(&prog, "fetch", {{"X", {"y"}}}, {{"Out", {"fetch"}}});
  for (auto& v : prog.blocks[0].vars) {
    if (v.name.size() == 1 && std::string("wsbmv").find(v.name) != std::string::npos) {
      v.persistable = true;
    }
  }
  return prog;
}

void AddWeights(Scope* scope, const std::string& names) {
  for (char c : names) {
    Tensor* t = scope->Var(std::string(1, c))->GetMutableTensor();
    t->Resize({2});
    t->mutable_data<float>();
  }
}

Pattern ConvBnPattern() {
  Pattern p;
  PNode* conv = p.Op("conv", {"conv2d"});
  PNode* c = p.Intermediate("c");
  PNode* bn = p.Op("bn", {"batch_norm"});
  p.Reads(conv, "Filter", p.Input("w")->Weight());
  p.Writes(conv, "Output", c).Reads(bn, "X", c).Writes(bn, "Y", p.Output("y"));
  return p;
}

Node* FirstOp(const SSAGraph& g, const std::string& type) {
  for (Node* n : g.StmtNodes()) {
    if (n->label() == type) return n;
  }
  return nullptr;
}

struct Built {
  Scope scope;
  SSAGraph graph;
};

std::unique_ptr<Built> Build(const cpp::ProgramDesc& prog, const std::string& weights = "wsbmv") {
  auto b = std::make_unique<Built>();
  AddWeights(&b->scope, weights);
  EXPECT_TRUE(b->graph.Build(prog, 0, &b->scope, {Place(TargetType::kHost)}).ok());
  return b;
}

TEST(PatternMatcher, MatchesAndBindsNodesByName) {
  auto b = Build(ConvBn());
  Pattern p = ConvBnPattern();
  ASSERT_TRUE(p.Validate("test").ok());
  PatternMatcher matcher(&p);
  auto m = matcher.MatchAt(b->graph, FirstOp(b->graph, "conv2d"), {});
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->at("bn")->label(), "batch_norm");
  EXPECT_EQ(m->at("c")->arg().name, "c");
  EXPECT_EQ(m->at("y")->arg().name, "y");
  EXPECT_EQ(m->ops().size(), 2u);
  EXPECT_EQ(m->claimed_ids().size(), 3u);  // two ops and the intermediate
  // Only the anchor type starts a match.
  EXPECT_FALSE(matcher.MatchAt(b->graph, FirstOp(b->graph, "batch_norm"), {}).has_value());
}

TEST(PatternMatcher, RejectsIntermediateWithAnotherConsumer) {
  cpp::ProgramDesc prog = ConvBn();
  AddOp(&prog, "relu", {{"X", {"c"}}}, {{"Out", {"r"}}});
  auto b = Build(prog);
  Pattern p = ConvBnPattern();
  EXPECT_FALSE(PatternMatcher(&p).MatchAt(b->graph, FirstOp(b->graph, "conv2d"), {}));
}

TEST(PatternMatcher, RejectsFetchedIntermediate) {
  cpp::ProgramDesc prog = ConvBn();
  AddOp(&prog, "fetch", {{"X", {"c"}}}, {{"Out", {"fetch"}}});
  auto b = Build(prog);
  Pattern p = ConvBnPattern();
  EXPECT_FALSE(PatternMatcher(&p).MatchAt(b->graph, FirstOp(b->graph, "conv2d"), {}));
}

TEST(PatternMatcher, RejectsUsedUndeclaredOutput) {
  cpp::ProgramDesc prog = ConvBn();  // bn's MeanOut "m" is not in the pattern
  AddOp(&prog, "relu", {{"X", {"m"}}}, {{"Out", {"r"}}});
  auto b = Build(prog);
  Pattern p = ConvBnPattern();
  EXPECT_FALSE(PatternMatcher(&p).MatchAt(b->graph, FirstOp(b->graph, "conv2d"), {}));
}

TEST(PatternMatcher, VarAndOpPredicates) {
  auto b = Build(ConvBn(), "sbmv");  // no data for the filter: not a weight
  Pattern p = ConvBnPattern();
  EXPECT_FALSE(PatternMatcher(&p).MatchAt(b->graph, FirstOp(b->graph, "conv2d"), {}));

  auto b2 = Build(ConvBn());
  Pattern q = ConvBnPattern();
  q.nodes()[0]->If([](const cpp::OpDesc& d) { return d.GetAttr<int32_t>("groups", 1) == 2; });
  EXPECT_FALSE(PatternMatcher(&q).MatchAt(b2->graph, FirstOp(b2->graph, "conv2d"), {}));
  FirstOp(b2->graph, "conv2d")->stmt().desc.SetAttr("groups", 2);
  EXPECT_TRUE(PatternMatcher(&q).MatchAt(b2->graph, FirstOp(b2->graph, "conv2d"), {}));

  Pattern dims = ConvBnPattern();
  dims.nodes()[3]->DimsIf([](const DDim& d) { return d == DDim{3}; });  // "w" is [2]
  EXPECT_FALSE(PatternMatcher(&dims).MatchAt(b2->graph, FirstOp(b2->graph, "conv2d"), {}));
}

TEST(PatternMatcher, EdgesAreMatchedByArgumentName) {
  cpp::ProgramDesc prog;
  AddOp(&prog, "relu", {{"X", {"a"}}}, {{"Out", {"r"}}});
  AddOp(&prog, "elementwise_add", {{"X", {"b"}}, {"Y", {"r"}}}, {{"Out", {"o"}}});
  auto b = Build(prog, "");
  Pattern p;
  PNode* relu = p.Op("relu", {"relu"});
  PNode* mid = p.Intermediate("mid");
  PNode* add = p.Op("add", {"elementwise_add"});
  p.Writes(relu, "Out", mid).Reads(add, "X", mid).Writes(add, "Out", p.Output("o"));
  EXPECT_FALSE(PatternMatcher(&p).MatchAt(b->graph, FirstOp(b->graph, "relu"), {}));
  Pattern q;
  relu = q.Op("relu", {"relu"});
  mid = q.Intermediate("mid");
  add = q.Op("add", {"elementwise_add"});
  q.Writes(relu, "Out", mid).Reads(add, "Y", mid).Writes(add, "Out", q.Output("o"));
  EXPECT_TRUE(PatternMatcher(&q).MatchAt(b->graph, FirstOp(b->graph, "relu"), {}));
}

TEST(PatternMatcher, IntermediateReadThroughUndeclaredParamIsRejected) {
  cpp::ProgramDesc prog;
  AddOp(&prog, "sigmoid", {{"X", {"a"}}}, {{"Out", {"g"}}});
  AddOp(&prog, "elementwise_mul", {{"X", {"g"}}, {"Y", {"g"}}}, {{"Out", {"o"}}});
  auto b = Build(prog, "");
  Pattern p;
  PNode* gate = p.Op("gate", {"sigmoid"});
  PNode* mid = p.Intermediate("mid");
  PNode* mul = p.Op("mul", {"elementwise_mul"});
  p.Writes(gate, "Out", mid).Reads(mul, "Y", mid).Writes(mul, "Out", p.Output("o"));
  EXPECT_FALSE(PatternMatcher(&p).MatchAt(b->graph, FirstOp(b->graph, "sigmoid"), {}));
  p.Reads(mul, "X", mid);
  EXPECT_TRUE(PatternMatcher(&p).MatchAt(b->graph, FirstOp(b->graph, "sigmoid"), {}));
}

TEST(PatternMatcher, ClaimedNodesAreSkipped) {
  auto b = Build(ConvBn());
  Pattern p = ConvBnPattern();
  std::vector<bool> claimed(b->graph.size(), false);
  claimed[FirstOp(b->graph, "batch_norm")->id()] = true;
  EXPECT_FALSE(PatternMatcher(&p).MatchAt(b->graph, FirstOp(b->graph, "conv2d"), claimed));
}

TEST(PatternMatcher, ValidateRejectsBadPatterns) {
  Pattern unconnected;
  unconnected.Op("a", {"relu"});
  unconnected.Input("x");
  EXPECT_FALSE(unconnected.Validate("t").ok());
  Pattern written_input;
  PNode* op = written_input.Op("a", {"relu"});
  written_input.Writes(op, "Out", written_input.Input("x"));
  EXPECT_FALSE(written_input.Validate("t").ok());
  Pattern unread;
  op = unread.Op("a", {"relu"});
  unread.Writes(op, "Out", unread.Intermediate("x"));
  EXPECT_NE(unread.Validate("my_pass").message().find("my_pass"), std::string::npos);
}

// Toy pass: relu(relu(x)) -> relu(x), to check overlap handling.
class DoubleReluPass : public fusion::FusionPass {
 public:
  std::string name() const override { return "double_relu_test_pass"; }

 protected:
  std::vector<Pattern> BuildPatterns() const override {
    Pattern p;
    PNode* a = p.Op("a", {"relu"});
    PNode* mid = p.Intermediate("mid");
    PNode* b = p.Op("b", {"relu"});
    p.Reads(a, "X", p.Input("x")).Writes(a, "Out", mid).Reads(b, "X", mid);
    p.Writes(b, "Out", p.Output("out"));
    std::vector<Pattern> v;
    v.push_back(std::move(p));
    return v;
  }
  StatusOr<bool> Rewrite(SSAGraph* g, const Match& m, int) override {
    SSAGraph::Unlink(m.at("b"), m.at("out"));
    fusion::ReplaceOutput(m.at("a"), m.at("mid"), m.at("out"));
    fusion::RemoveOp(g, m.at("b"));
    return true;
  }
};

TEST(FusionPass, OverlapsResolvedInProgramOrder) {
  cpp::ProgramDesc prog;
  AddOp(&prog, "feed", {{"X", {"feed"}}}, {{"Out", {"x0"}}});
  for (int i = 0; i < 5; ++i) {
    AddOp(&prog, "relu", {{"X", {"x" + std::to_string(i)}}},
          {{"Out", {"x" + std::to_string(i + 1)}}});
  }
  AddOp(&prog, "fetch", {{"X", {"x5"}}}, {{"Out", {"fetch"}}});
  auto b = Build(prog, "");
  DoubleReluPass pass;
  auto changed = pass.Run(&b->graph);
  ASSERT_TRUE(changed.ok()) << changed.status().ToString();
  EXPECT_TRUE(*changed);
  EXPECT_TRUE(VerifyGraph(b->graph).ok());
  // (r1,r2) and (r3,r4) fuse; r5 then follows the claimed r3 and stays.
  EXPECT_EQ(pass.counters().at("matched"), 2);
  std::vector<std::string> outs;
  for (Node* n : b->graph.StmtNodes()) {
    if (n->label() == "relu") outs.push_back(n->stmt().desc.Output("Out")[0]);
  }
  EXPECT_EQ(outs, (std::vector<std::string>{"x2", "x4", "x5"}));
}

}  // namespace
}  // namespace mir
}  // namespace lite
