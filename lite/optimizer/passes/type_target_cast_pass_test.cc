#include <gtest/gtest.h>

#include "lite/optimizer/pass_manager.h"
#include "lite/optimizer/test_helpers.h"

namespace lite {
namespace mir {
namespace {

using testing::AddOp;
using testing::RegisterToyKernel;

const Place kHostF(TargetType::kHost);
const Place kNpuF(TargetType::kNPU);

// An npu op feeds two host consumers and one npu consumer: exactly one
// io_copy is inserted, shared by both host consumers.
TEST(TypeTargetCast, OneCopyPerSourceVarSharedByConsumers) {
  RegisterToyKernel("toy_npu_producer", kNpuF);
  RegisterToyKernel("toy_host_consumer", kHostF);
  RegisterToyKernel("toy_npu_consumer", kNpuF);
  cpp::ProgramDesc prog;
  AddOp(&prog, "toy_npu_producer", {{"X", {"x"}}}, {{"Out", {"a"}}});
  AddOp(&prog, "toy_host_consumer", {{"X", {"a"}}}, {{"Out", {"b"}}});
  AddOp(&prog, "toy_host_consumer", {{"X", {"a"}}}, {{"Out", {"c"}}});
  AddOp(&prog, "toy_npu_consumer", {{"X", {"a"}}}, {{"Out", {"d"}}});
  SSAGraph g;
  Scope scope;
  ASSERT_TRUE(g.Build(prog, 0, &scope, {kNpuF, kHostF}).ok());
  // The graph input x lives on host; the npu producer reads it through a
  // copy as well.
  auto r = PassManager().Run(&g, {"static_kernel_pick_pass", "variable_place_inference_pass",
                                  "type_target_cast_pass"});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  int copies = 0;
  for (Node* n : g.StmtNodes()) {
    if (n->label() == "io_copy") ++copies;
  }
  EXPECT_EQ(copies, 2);  // x -> npu, a -> host
  EXPECT_EQ(r->passes.back().counters.at("inserted"), 2);
  for (Node* n : g.StmtNodes()) {
    if (n->label() != "toy_host_consumer") continue;
    ASSERT_EQ(n->inlinks.size(), 1u);
    EXPECT_EQ(n->inlinks[0]->arg().name, "a/to_host");
    EXPECT_EQ(n->stmt().desc.Input("X"), std::vector<std::string>{"a/to_host"});
  }
  for (Node* n : g.StmtNodes()) {
    if (n->label() == "toy_npu_consumer") {
      EXPECT_EQ(n->inlinks[0]->arg().name, "a");
    }
  }
}

TEST(TypeTargetCast, CompatibleTargetsNeedNoCopy) {
  RegisterToyKernel("toy_host_a", kHostF);
  RegisterToyKernel("toy_x86_b", Place(TargetType::kX86));
  cpp::ProgramDesc prog;
  AddOp(&prog, "toy_host_a", {{"X", {"x"}}}, {{"Out", {"a"}}});
  AddOp(&prog, "toy_x86_b", {{"X", {"a"}}}, {{"Out", {"b"}}});
  SSAGraph g;
  Scope scope;
  ASSERT_TRUE(g.Build(prog, 0, &scope, {Place(TargetType::kX86), kHostF}).ok());
  auto r = PassManager().Run(&g, {"static_kernel_pick_pass", "variable_place_inference_pass",
                                  "type_target_cast_pass"});
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->passes.back().changed);
  EXPECT_EQ(g.StmtNodes().size(), 2u);
}

}  // namespace
}  // namespace mir
}  // namespace lite
