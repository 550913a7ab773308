#include <gtest/gtest.h>

#include "lite/optimizer/pass_manager.h"
#include "lite/optimizer/test_helpers.h"

namespace lite {
namespace mir {
namespace {

using testing::AddOp;
using testing::RegisterToyKernel;

const Place kHostF(TargetType::kHost);
const Place kNhwc(TargetType::kX86, PrecisionType::kFloat, DataLayoutType::kNHWC);
const Place kX86Nchw(TargetType::kX86, PrecisionType::kFloat, DataLayoutType::kNCHW);

int CountOps(SSAGraph* g, const std::string& type) {
  int n = 0;
  for (Node* s : g->StmtNodes()) n += s->stmt().desc.Type() == type;
  return n;
}

// Builds `prog` for x86 and host and runs the passes up to layout_cast_pass.
StatusOr<PassReport> BuildAndCast(const cpp::ProgramDesc& prog, Scope* scope, SSAGraph* g) {
  RETURN_IF_ERROR(g->Build(prog, 0, scope, {Place(TargetType::kX86), kHostF}));
  return PassManager().Run(g, {"static_kernel_pick_pass", "variable_place_inference_pass",
                               "type_target_cast_pass", "layout_cast_pass"});
}

// The toy kernels of a chain of NHWC and host ops with a fetch, and both
// layout kernels.
void RegisterChainKernels() {
  RegisterToyKernel("toy_nhwc", kNhwc);
  RegisterToyKernel("toy_nchw_host", kHostF);
  RegisterToyKernel("fetch", kHostF);
  RegisterToyKernel("layout", kNhwc, "nchw_to_nhwc");
  RegisterToyKernel("layout", kX86Nchw, "nhwc_to_nchw");
}

// x -> nhwc_a -> b -> nhwc_b -> c -> host -> d -> nhwc_c(d, w) -> e -> fetch:
// conversions only where the layout changes (x, c, d), none for the weight
// w or between the two NHWC ops; the fetched e keeps its name.
TEST(LayoutCast, ConvertsOnlyWhereTheLayoutChanges) {
  RegisterChainKernels();
  cpp::ProgramDesc prog;
  AddOp(&prog, "toy_nhwc", {{"X", {"x"}}}, {{"Out", {"b"}}});
  AddOp(&prog, "toy_nhwc", {{"X", {"b"}}}, {{"Out", {"c"}}});
  AddOp(&prog, "toy_nchw_host", {{"X", {"c"}}}, {{"Out", {"d"}}});
  AddOp(&prog, "toy_nhwc", {{"X", {"d"}}, {"Y", {"w"}}}, {{"Out", {"e"}}});
  AddOp(&prog, "fetch", {{"X", {"e"}}}, {{"Out", {"fetch"}}});
  for (auto& v : prog.blocks[0].vars) v.persistable = v.name == "w";
  Scope scope;
  scope.Var("w")->GetMutableTensor()->set_persistable(true);
  SSAGraph g;
  auto r = BuildAndCast(prog, &scope, &g);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const auto& counters = r->passes.back().counters;
  EXPECT_EQ(counters.at("to_nhwc"), 2);          // x, d
  EXPECT_EQ(counters.at("to_nchw"), 1);          // c
  EXPECT_EQ(counters.at("to_nchw_fetched"), 1);  // e
  EXPECT_EQ(CountOps(&g, "layout"), 4);
  for (Node* s : g.StmtNodes()) {
    const cpp::OpDesc& d = s->stmt().desc;
    if (d.Type() == "fetch") EXPECT_EQ(d.Input("X"), std::vector<std::string>{"e"});
    if (d.Type() == "toy_nhwc" && d.HasInput("Y")) {
      EXPECT_EQ(d.Input("X"), std::vector<std::string>{"d/nhwc"});
      EXPECT_EQ(d.Input("Y"), std::vector<std::string>{"w"});  // weights stay NCHW
      EXPECT_EQ(d.Output("Out"), std::vector<std::string>{"e/nhwc"});
    }
    if (d.Type() == "toy_nhwc" && d.Input("X")[0] == "b") {
      EXPECT_EQ(d.Output("Out"), std::vector<std::string>{"c"});  // no cast between NHWC ops
    }
  }
}

// An NHWC kernel that binds its input X to NCHW (as the x86 conv for 1-4
// input channels does): the fed x reaches it with no cast, its NHWC output
// feeds an NHWC op with none either, and an NHWC var reaching its X gets a
// to_nchw cast.
TEST(LayoutCast, AnInputBoundToNchwIsReadInNchw) {
  auto* nchw_in = const_cast<KernelDef*>(RegisterToyKernel("toy_nhwc_nchw_in", kNhwc));
  nchw_in->BindInput("X", kX86Nchw);
  RegisterToyKernel("toy_nhwc", kNhwc);
  RegisterToyKernel("layout", kNhwc, "nchw_to_nhwc");
  RegisterToyKernel("layout", kX86Nchw, "nhwc_to_nchw");
  cpp::ProgramDesc prog;
  AddOp(&prog, "toy_nhwc_nchw_in", {{"X", {"x"}}}, {{"Out", {"b"}}});
  AddOp(&prog, "toy_nhwc", {{"X", {"b"}}}, {{"Out", {"c"}}});
  AddOp(&prog, "toy_nhwc_nchw_in", {{"X", {"c"}}}, {{"Out", {"d"}}});
  SSAGraph g;
  Scope scope;
  auto r = BuildAndCast(prog, &scope, &g);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const auto& counters = r->passes.back().counters;
  EXPECT_EQ(counters.count("to_nhwc"), 0u);
  EXPECT_EQ(counters.at("to_nchw"), 1);  // c, for the second toy_nhwc_nchw_in
  EXPECT_EQ(CountOps(&g, "layout"), 1);
  for (Node* s : g.StmtNodes()) {
    const cpp::OpDesc& d = s->stmt().desc;
    if (d.Type() == "toy_nhwc_nchw_in" && d.Output("Out")[0] == "b") {
      EXPECT_EQ(d.Input("X"), std::vector<std::string>{"x"});
    }
    if (d.Type() == "toy_nhwc") {
      EXPECT_EQ(d.Input("X"), std::vector<std::string>{"b"});
    }
    if (d.Type() == "toy_nhwc_nchw_in" && d.Output("Out")[0] == "d") {
      EXPECT_EQ(d.Input("X"), std::vector<std::string>{"c/nchw"});
    }
  }
}

// An NHWC kernel that binds its output Out to NCHW (as the x86 transpose2
// writes row-major): x -> nhwc -> b -> nhwc_nchw_out -> c -> host -> d, and
// c fetched. c is NCHW already: neither the host op nor the fetch gets a
// cast (before output bindings counted, each did, and the fetch's cast
// permuted c a second time).
TEST(LayoutCast, AnOutputBoundToNchwIsWrittenInNchw) {
  auto* nchw_out = const_cast<KernelDef*>(RegisterToyKernel("toy_nhwc_nchw_out", kNhwc));
  nchw_out->BindOutput("Out", kX86Nchw);
  RegisterToyKernel("toy_nhwc", kNhwc);
  RegisterToyKernel("toy_nchw_host", kHostF);
  RegisterToyKernel("fetch", kHostF);
  RegisterToyKernel("layout", kNhwc, "nchw_to_nhwc");
  RegisterToyKernel("layout", kX86Nchw, "nhwc_to_nchw");
  cpp::ProgramDesc prog;
  AddOp(&prog, "toy_nhwc", {{"X", {"x"}}}, {{"Out", {"b"}}});
  AddOp(&prog, "toy_nhwc_nchw_out", {{"X", {"b"}}}, {{"Out", {"c"}}});
  AddOp(&prog, "toy_nchw_host", {{"X", {"c"}}}, {{"Out", {"d"}}});
  AddOp(&prog, "fetch", {{"X", {"c"}}}, {{"Out", {"fetch"}}});
  SSAGraph g;
  Scope scope;
  auto r = BuildAndCast(prog, &scope, &g);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const auto& counters = r->passes.back().counters;
  EXPECT_EQ(counters.at("to_nhwc"), 1);  // x
  EXPECT_EQ(counters.count("to_nchw"), 0u);
  EXPECT_EQ(counters.count("to_nchw_fetched"), 0u);
  EXPECT_EQ(CountOps(&g, "layout"), 1);
  for (Node* s : g.StmtNodes()) {
    const cpp::OpDesc& d = s->stmt().desc;
    if (d.Type() == "toy_nhwc_nchw_out") {
      EXPECT_EQ(d.Input("X"), std::vector<std::string>{"b"});
      EXPECT_EQ(d.Output("Out"), std::vector<std::string>{"c"});
    }
    if (d.Type() == "toy_nchw_host" || d.Type() == "fetch") {
      EXPECT_EQ(d.Input("X"), std::vector<std::string>{"c"});
    }
  }
}

// Reads that need no cast: x -> nhwc -> b (rank 4) -> shape (dims only),
// b -> prior_box (Input, Image: dims only, the fed x too); b -> nhwc -> c
// declared rank 3 -> host -> d declared rank 3 -> nhwc -> e (rank 3),
// fetched. Rank-3 vars are the same bytes in both layouts.
TEST(LayoutCast, DimsOnlyReadsAndOtherRanksGetNoCast) {
  RegisterToyKernel("toy_nhwc", kNhwc);
  RegisterToyKernel("toy_nchw_host", kHostF);
  RegisterToyKernel("shape", kHostF);
  RegisterToyKernel("prior_box", kHostF);
  RegisterToyKernel("fetch", kHostF);
  RegisterToyKernel("layout", kNhwc, "nchw_to_nhwc");
  RegisterToyKernel("layout", kX86Nchw, "nhwc_to_nchw");
  cpp::ProgramDesc prog;
  AddOp(&prog, "toy_nhwc", {{"X", {"x"}}}, {{"Out", {"b"}}});
  AddOp(&prog, "shape", {{"Input", {"b"}}}, {{"Out", {"bs"}}});
  AddOp(&prog, "prior_box", {{"Input", {"b"}}, {"Image", {"x"}}}, {{"Boxes", {"pb"}}});
  AddOp(&prog, "toy_nhwc", {{"X", {"b"}}}, {{"Out", {"c"}}});
  AddOp(&prog, "toy_nchw_host", {{"X", {"c"}}}, {{"Out", {"d"}}});
  AddOp(&prog, "toy_nhwc", {{"X", {"d"}}}, {{"Out", {"e"}}});
  AddOp(&prog, "fetch", {{"X", {"e"}}}, {{"Out", {"fetch"}}});
  for (auto& v : prog.blocks[0].vars) {
    if (v.name == "x" || v.name == "b") v.dims = {1, 8, -1, -1};
    if (v.name == "c" || v.name == "d" || v.name == "e") v.dims = {1, -1, 4};
  }
  SSAGraph g;
  Scope scope;
  auto r = BuildAndCast(prog, &scope, &g);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const auto& counters = r->passes.back().counters;
  EXPECT_EQ(counters.at("to_nhwc"), 1);  // x, for the first toy_nhwc only
  EXPECT_EQ(counters.count("to_nchw"), 0u);
  EXPECT_EQ(counters.count("to_nchw_fetched"), 0u);
  EXPECT_EQ(CountOps(&g, "layout"), 1);
  for (Node* s : g.StmtNodes()) {
    const cpp::OpDesc& d = s->stmt().desc;
    if (d.Type() == "shape") EXPECT_EQ(d.Input("Input"), std::vector<std::string>{"b"});
    if (d.Type() == "prior_box") {
      EXPECT_EQ(d.Input("Input"), std::vector<std::string>{"b"});
      EXPECT_EQ(d.Input("Image"), std::vector<std::string>{"x"});
    }
    if (d.Type() == "toy_nchw_host") EXPECT_EQ(d.Input("X"), std::vector<std::string>{"c"});
    if (d.Type() == "fetch") EXPECT_EQ(d.Input("X"), std::vector<std::string>{"e"});
  }
}

// x -> nhwc_a -> b -> subgraph -> c, and b -> nhwc_b -> d: an NPU subgraph
// reads its inputs by name (its sub-block, input_data_names and its host
// fallback do), so it keeps reading `b`, now written in NCHW by a layout op;
// the NHWC producer writes b/nhwc, which the NHWC consumer reads uncast.
TEST(LayoutCast, ASubgraphKeepsItsInputNames) {
  RegisterToyKernel("toy_nhwc", kNhwc);
  RegisterToyKernel("subgraph", kHostF);
  RegisterToyKernel("layout", kNhwc, "nchw_to_nhwc");
  RegisterToyKernel("layout", kX86Nchw, "nhwc_to_nchw");
  cpp::ProgramDesc prog;
  AddOp(&prog, "toy_nhwc", {{"X", {"x"}}}, {{"Out", {"b"}}});
  AddOp(&prog, "subgraph", {{"Inputs", {"b"}}}, {{"Outputs", {"c"}}});
  AddOp(&prog, "toy_nhwc", {{"X", {"b"}}}, {{"Out", {"d"}}});
  SSAGraph g;
  Scope scope;
  auto r = BuildAndCast(prog, &scope, &g);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(CountOps(&g, "layout"), 2);  // x to NHWC; b/nhwc to NCHW as b
  bool subgraph_seen = false;
  for (Node* s : g.StmtNodes()) {
    const cpp::OpDesc& d = s->stmt().desc;
    if (d.Type() == "subgraph") {
      subgraph_seen = true;
      EXPECT_EQ(d.Input("Inputs"), std::vector<std::string>{"b"});
    }
    if (d.Type() == "toy_nhwc" && d.Output("Out")[0] == "b/nhwc") {
      EXPECT_EQ(d.Input("X"), std::vector<std::string>{"x/nhwc"});
    }
    if (d.Type() == "toy_nhwc" && d.Output("Out")[0] == "d") {
      EXPECT_EQ(d.Input("X"), std::vector<std::string>{"b/nhwc"});
    }
    if (d.Type() == "layout" && d.Output("Out")[0] == "b") {
      EXPECT_EQ(d.Input("Input"), std::vector<std::string>{"b/nhwc"});
    }
  }
  EXPECT_TRUE(subgraph_seen);
}

// The same chain with declared ranks: a rank-3 var (the logits of a CTC
// head, say) is the same bytes in both layouts and gets no cast, fetched or
// not; a rank-4 var still does, and so does one whose rank is not declared.
TEST(LayoutCast, VarsOfAnotherRankThanFourAreNotCast) {
  RegisterChainKernels();
  cpp::ProgramDesc prog;
  AddOp(&prog, "toy_nhwc", {{"X", {"x"}}}, {{"Out", {"b"}}});
  AddOp(&prog, "toy_nchw_host", {{"X", {"b"}}}, {{"Out", {"c"}}});
  AddOp(&prog, "toy_nhwc", {{"X", {"c"}}}, {{"Out", {"d"}}});
  AddOp(&prog, "toy_nchw_host", {{"X", {"d"}}}, {{"Out", {"e"}}});
  AddOp(&prog, "toy_nhwc", {{"X", {"e"}}}, {{"Out", {"f"}}});
  AddOp(&prog, "fetch", {{"X", {"f"}}}, {{"Out", {"fetch"}}});
  for (auto& v : prog.blocks[0].vars) {
    if (v.name == "x" || v.name == "b" || v.name == "f") v.dims = {1, 76, 120};
    if (v.name == "c") v.dims = {1, 8, 76, 76};  // d and e: rank not declared
  }
  SSAGraph g;
  Scope scope;
  auto r = BuildAndCast(prog, &scope, &g);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const auto& counters = r->passes.back().counters;
  EXPECT_EQ(counters.at("same_bytes"), 3);  // x, b, f (fetched)
  EXPECT_EQ(counters.at("to_nhwc"), 2);     // c, e
  EXPECT_EQ(counters.at("to_nchw"), 1);     // d
  EXPECT_EQ(counters.count("to_nchw_fetched"), 0u);
  EXPECT_EQ(CountOps(&g, "layout"), 3);
  for (Node* s : g.StmtNodes()) {
    const cpp::OpDesc& d = s->stmt().desc;
    if (d.Type() == "fetch") EXPECT_EQ(d.Input("X"), std::vector<std::string>{"f"});
    if (d.Type() == "toy_nchw_host" && d.Output("Out")[0] == "c") {
      EXPECT_EQ(d.Input("X"), std::vector<std::string>{"b"});
    }
    if (d.Type() == "toy_nhwc" && d.Output("Out")[0] == "f") {
      EXPECT_EQ(d.Input("X"), std::vector<std::string>{"e/nhwc"});
    }
  }
}

TEST(LayoutCast, HostOnlyProgramsAreUntouched) {
  RegisterToyKernel("toy_nchw_host", kHostF);
  cpp::ProgramDesc prog;
  AddOp(&prog, "toy_nchw_host", {{"X", {"x"}}}, {{"Out", {"y"}}});
  SSAGraph g;
  Scope scope;
  ASSERT_TRUE(g.Build(prog, 0, &scope, {Place(TargetType::kX86), kHostF}).ok());
  auto r = PassManager().Run(&g, {"static_kernel_pick_pass", "layout_cast_pass"});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_FALSE(r->passes.back().changed);
  EXPECT_EQ(CountOps(&g, "layout"), 0);
}

}  // namespace
}  // namespace mir
}  // namespace lite
