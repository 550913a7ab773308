// Clustering: cycle prevention, min-size pruning, determinism, partition
// rule parsing and matching.
#include "lite/optimizer/passes/subgraph/subgraph_detector.h"

#include <gtest/gtest.h>

#include "lite/optimizer/passes/subgraph/partition.h"
#include "lite/optimizer/test_helpers.h"

namespace lite {
namespace mir {
namespace {

using testing::AddOp;

// Ops of type "dev" are marked; "cpu" ops are not.
bool Marked(const Node* n) { return n->stmt().desc.Type() == "dev"; }

std::vector<std::vector<std::string>> ClusterOutputs(const SSAGraph& g, int min_size,
                                                     int* dropped_count = nullptr) {
  std::vector<std::vector<Node*>> dropped;
  auto clusters = DetectClusters(g, Marked, min_size, &dropped);
  EXPECT_TRUE(clusters.ok()) << clusters.status().ToString();
  std::vector<std::vector<std::string>> out;
  for (const auto& c : *clusters) {
    out.emplace_back();
    for (const Node* n : c) out.back().push_back(n->stmt().desc.Output("Out").front());
  }
  if (dropped_count) *dropped_count = static_cast<int>(dropped.size());
  return out;
}

TEST(SubgraphDetector, MergingThroughAnUnmarkedOpWouldMakeACycle) {
  // a(dev) -> b(cpu) -> c(dev), and a -> c directly. Merging a and c would
  // make a cycle {a,c} -> b -> {a,c}.
  cpp::ProgramDesc p;
  AddOp(&p, "dev", {{"X", {"x"}}}, {{"Out", {"a"}}});
  AddOp(&p, "cpu", {{"X", {"a"}}}, {{"Out", {"b"}}});
  AddOp(&p, "dev", {{"X", {"a"}}, {"Y", {"b"}}}, {{"Out", {"c"}}});
  SSAGraph g;
  ASSERT_TRUE(g.Build(p, 0, nullptr, {Place(TargetType::kHost)}).ok());
  auto clusters = ClusterOutputs(g, 1);
  ASSERT_EQ(clusters.size(), 2u);
  EXPECT_EQ(clusters[0], std::vector<std::string>{"a"});
  EXPECT_EQ(clusters[1], std::vector<std::string>{"c"});
}

TEST(SubgraphDetector, ChainsMergeAndSideBranchesJoin) {
  // a -> b -> c all dev, d(dev) reads a and c: one cluster of 4.
  cpp::ProgramDesc p;
  AddOp(&p, "dev", {{"X", {"x"}}}, {{"Out", {"a"}}});
  AddOp(&p, "dev", {{"X", {"a"}}}, {{"Out", {"b"}}});
  AddOp(&p, "dev", {{"X", {"b"}}}, {{"Out", {"c"}}});
  AddOp(&p, "dev", {{"X", {"a"}}, {"Y", {"c"}}}, {{"Out", {"d"}}});
  SSAGraph g;
  ASSERT_TRUE(g.Build(p, 0, nullptr, {Place(TargetType::kHost)}).ok());
  auto clusters = ClusterOutputs(g, 1);
  ASSERT_EQ(clusters.size(), 1u);
  EXPECT_EQ(clusters[0], (std::vector<std::string>{"a", "b", "c", "d"}));
}

TEST(SubgraphDetector, PathThroughAnotherContractedClusterIsACycleToo) {
  // p(dev) -> q(cpu) -> r(dev) and s(dev) -> t(cpu) -> u(dev);
  // r and s form cluster Z? Build: a(dev)->m1(dev) ; a->k(cpu)->m2(dev);
  // m1 and m2 in one cluster would need a: {a, m1} then m2 reads k(cpu)
  // reading a: merging {a,m1} with m2 would cycle through k.
  cpp::ProgramDesc p;
  AddOp(&p, "dev", {{"X", {"x"}}}, {{"Out", {"a"}}});
  AddOp(&p, "dev", {{"X", {"a"}}}, {{"Out", {"m1"}}});
  AddOp(&p, "cpu", {{"X", {"a"}}}, {{"Out", {"k"}}});
  AddOp(&p, "dev", {{"X", {"m1"}}, {"Y", {"k"}}}, {{"Out", {"m2"}}});
  SSAGraph g;
  ASSERT_TRUE(g.Build(p, 0, nullptr, {Place(TargetType::kHost)}).ok());
  auto clusters = ClusterOutputs(g, 1);
  ASSERT_EQ(clusters.size(), 2u);
  EXPECT_EQ(clusters[0], (std::vector<std::string>{"a", "m1"}));
  EXPECT_EQ(clusters[1], std::vector<std::string>{"m2"});
}

TEST(SubgraphDetector, ClustersBelowTheMinimumSizeAreDropped) {
  // dev dev cpu dev : clusters {a,b} (2) and {d} (1).
  cpp::ProgramDesc p;
  AddOp(&p, "dev", {{"X", {"x"}}}, {{"Out", {"a"}}});
  AddOp(&p, "dev", {{"X", {"a"}}}, {{"Out", {"b"}}});
  AddOp(&p, "cpu", {{"X", {"b"}}}, {{"Out", {"c"}}});
  AddOp(&p, "dev", {{"X", {"c"}}}, {{"Out", {"d"}}});
  SSAGraph g;
  ASSERT_TRUE(g.Build(p, 0, nullptr, {Place(TargetType::kHost)}).ok());
  int dropped = 0;
  EXPECT_EQ(ClusterOutputs(g, 1, &dropped).size(), 2u);
  EXPECT_EQ(dropped, 0);
  auto kept = ClusterOutputs(g, 2, &dropped);
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_EQ(kept[0], (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(dropped, 1);
  EXPECT_TRUE(ClusterOutputs(g, 3, &dropped).empty());
  EXPECT_EQ(dropped, 2);
}

TEST(SubgraphDetector, SameGraphGivesTheSameClustersEveryTime) {
  auto build = [](SSAGraph* g) {
    static cpp::ProgramDesc p;
    if (p.blocks.empty()) {
      for (int i = 0; i < 30; ++i) {
        std::string in = i == 0 ? "x" : "v" + std::to_string(i - 1);
        AddOp(&p, i % 4 == 3 ? "cpu" : "dev", {{"X", {in}}}, {{"Out", {"v" + std::to_string(i)}}});
      }
    }
    ASSERT_TRUE(g->Build(p, 0, nullptr, {Place(TargetType::kHost)}).ok());
  };
  SSAGraph g1, g2;
  build(&g1);
  build(&g2);
  auto c1 = ClusterOutputs(g1, 1), c2 = ClusterOutputs(g2, 1);
  EXPECT_EQ(c1, c2);
  EXPECT_EQ(c1.size(), 8u);  // runs of 3 dev ops between cpu ops (and 2 at the end)
}

TEST(PartitionRules, ParseAndMatchEveryLine) {
  auto rules = ParsePartitionRules(
      "# keep these on host\n"
      "softmax\n"
      "\n"
      "conv2d:x\n"
      "elementwise_add::out1,out2\n");
  ASSERT_TRUE(rules.ok()) << rules.status().ToString();
  ASSERT_EQ(rules->size(), 3u);
  cpp::OpDesc softmax("softmax"), conv_x("conv2d"), conv_y("conv2d"), add("elementwise_add");
  conv_x.SetInput("Input", {"x"});
  conv_y.SetInput("Input", {"y"});
  add.SetOutput("Out", {"out1"});
  EXPECT_TRUE((*rules)[0].Matches(softmax));
  EXPECT_TRUE((*rules)[1].Matches(conv_x));
  EXPECT_FALSE((*rules)[1].Matches(conv_y));
  EXPECT_FALSE((*rules)[2].Matches(add));  // needs both outputs
  add.SetOutput("Out", {"out1", "out2"});
  EXPECT_TRUE((*rules)[2].Matches(add));
  EXPECT_EQ((*rules)[1].line, 4);
}

TEST(PartitionRules, BadLinesAreErrorsNamingTheLine) {
  auto a = ParsePartitionRules("relu\n:x\n");
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.status().message().find("partition line 2"), std::string::npos);
  EXPECT_NE(a.status().message().find("empty op type"), std::string::npos);
  auto b = ParsePartitionRules("relu:a:b:c\n");
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.status().message().find("more than 3"), std::string::npos);
  auto c = ParsePartitionRules("relu:a,,b\n");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("empty var name"), std::string::npos);
}

}  // namespace
}  // namespace mir
}  // namespace lite
