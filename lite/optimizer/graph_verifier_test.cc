#include "lite/optimizer/graph_verifier.h"

#include <gtest/gtest.h>

#include "lite/optimizer/pass_manager.h"
#include "lite/optimizer/test_helpers.h"

namespace lite {
namespace mir {
namespace {

using testing::AddOp;

class VerifierTest : public ::testing::Test {
 protected:
  void SetUp() override {
    cpp::ProgramDesc prog;
    AddOp(&prog, "relu", {{"X", {"x"}}}, {{"Out", {"y"}}});
    AddOp(&prog, "tanh", {{"X", {"y"}}}, {{"Out", {"z"}}});
    ASSERT_TRUE(g_.Build(prog, 0, &scope_, {Place(TargetType::kHost)}).ok());
    ASSERT_TRUE(VerifyGraph(g_).ok());
  }
  Node* Find(const std::string& label) {
    for (Node* n : g_.nodes()) {
      if (n->label() == label) return n;
    }
    return nullptr;
  }
  Scope scope_;
  SSAGraph g_;
};

TEST_F(VerifierTest, OneSidedEdgeIsReported) {
  Find("relu")->outlinks.push_back(Find("z"));
  auto s = VerifyGraph(g_);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("one-sided"), std::string::npos) << s.message();
}

TEST_F(VerifierTest, TwoProducersAreReported) {
  SSAGraph::Link(Find("tanh"), Find("y"));
  Find("tanh")->stmt().desc.SetOutput("Extra", {"y"});
  auto s = VerifyGraph(g_);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("producers"), std::string::npos) << s.message();
}

TEST_F(VerifierTest, DescAndEdgesDisagreeIsReported) {
  Find("tanh")->stmt().desc.SetInput("X", {"renamed"});
  auto s = VerifyGraph(g_);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("tanh"), std::string::npos) << s.message();
}

TEST_F(VerifierTest, CycleIsReported) {
  // z feeds relu: relu -> y -> tanh -> z -> relu.
  SSAGraph::Link(Find("z"), Find("relu"));
  Find("relu")->stmt().desc.SetInput("Y", {"z"});
  auto s = VerifyGraph(g_);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("cycle"), std::string::npos) << s.message();
}

// A pass that corrupts the graph but says it changed it: the manager must
// name it.
class CorruptingPass : public Pass {
 public:
  std::string name() const override { return "corrupting_test_pass"; }
  StatusOr<bool> Run(SSAGraph* g) override {
    for (Node* n : g->nodes()) {
      if (n->IsStmt()) n->outlinks.clear();  // leaves one-sided edges
    }
    return true;
  }
};
REGISTER_MIR_PASS(corrupting_test_pass, CorruptingPass);

TEST_F(VerifierTest, PassManagerNamesThePassThatBrokeTheGraph) {
  PassManager pm;
  auto r = pm.Run(&g_, {"corrupting_test_pass"});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("failed after corrupting_test_pass"), std::string::npos)
      << r.status().message();
}

}  // namespace
}  // namespace mir
}  // namespace lite
