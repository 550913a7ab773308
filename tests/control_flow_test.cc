// Control flow end to end: a `while` loop model (counter i < n accumulating
// x, each step's sum written to a tensor array) and a `conditional_block`
// model (two branches by a scalar condition, joined by select_input), both
// built here, run in the full predictor (host, and x86 with host fallback
// where the build has the x86 target: not on aarch64),
// saved as .nb and as protobuf and run again from there (light predictor
// and full predictor); outputs checked against straightforward
// expectations. Malformed control flow fails creation with a Status.
#include <gtest/gtest.h>

#include "lite/api/build_targets.h"
#include "tests/control_flow_programs.h"

namespace control_flow_test {
namespace {

// x [2, 3] and n [1] fed; sum = 0; i = 0; while (i < n) { sum = sum + x;
// arr[i] = sum; ++i; }. Fetches sum (n * x), lod_array_length(arr) (n) and
// arr[1] (2 * x).
ProgramDesc WhileLoopProgram() {
  ProgramDesc p;
  p.blocks.resize(2);
  auto& main = p.blocks[0];
  main.vars = {lite::cpp::FeedFetchListVar("feed", VarKind::kFeedList),
               lite::cpp::FeedFetchListVar("fetch", VarKind::kFetchList),
               Activation("x", DataType::kFloat32, {2, 3}),
               Activation("n", DataType::kInt64, {1}),
               Activation("i", DataType::kInt64, {1}),
               Activation("one", DataType::kInt64, {1}),
               Activation("sum", DataType::kFloat32, {2, 3}),
               Activation("cond", DataType::kBool, {1}),
               Activation("len", DataType::kInt64, {1}),
               Activation("second", DataType::kFloat32, {2, 3})};
  VarDesc arr = Activation("arr", DataType::kFloat32, {2, 3});
  arr.kind = VarKind::kTensorArray;
  VarDesc step_scopes;
  step_scopes.name = "step_scopes";
  step_scopes.kind = VarKind::kOther;
  step_scopes.raw_type = 11;  // STEP_SCOPES
  main.vars.push_back(arr);
  main.vars.push_back(step_scopes);
  main.ops.push_back(Feed("x", 0));
  main.ops.push_back(Feed("n", 1));
  main.ops.push_back(FillConstant("i", kPaddleInt64, {1}, 0));
  main.ops.push_back(FillConstant("sum", kPaddleFloat, {2, 3}, 0));
  main.ops.push_back(Op("less_than", {{"X", {"i"}}, {"Y", {"n"}}}, {{"Out", {"cond"}}}));
  OpDesc loop = Op("while", {{"X", {"x", "i", "n", "sum"}}, {"Condition", {"cond"}}},
                   {{"Out", {"i", "sum", "cond", "arr"}}, {"StepScopes", {"step_scopes"}}});
  SetSubBlock(&loop, 1);
  loop.SetAttr("is_test", true);
  main.ops.push_back(loop);
  main.ops.push_back(Op("lod_array_length", {{"X", {"arr"}}}, {{"Out", {"len"}}}));
  main.ops.push_back(FillConstant("one", kPaddleInt64, {1}, 1));
  main.ops.push_back(
      Op("read_from_array", {{"X", {"arr"}}, {"I", {"one"}}}, {{"Out", {"second"}}}));
  main.ops.push_back(Fetch("sum", 0));
  main.ops.push_back(Fetch("len", 1));
  main.ops.push_back(Fetch("second", 2));

  auto& body = p.blocks[1];
  body.idx = 1;
  body.parent_idx = 0;
  body.vars = {Activation("tmp", DataType::kFloat32, {2, 3})};
  OpDesc add = Op("elementwise_add", {{"X", {"sum"}}, {"Y", {"x"}}}, {{"Out", {"tmp"}}});
  add.SetAttr("axis", -1);
  body.ops.push_back(add);
  body.ops.push_back(Op("assign", {{"X", {"tmp"}}}, {{"Out", {"sum"}}}));
  body.ops.push_back(
      Op("write_to_array", {{"X", {"sum"}}, {"I", {"i"}}}, {{"Out", {"arr"}}}));
  OpDesc inc = Op("increment", {{"X", {"i"}}}, {{"Out", {"i"}}});
  inc.SetAttr("step", 1.0f);
  body.ops.push_back(inc);
  body.ops.push_back(Op("less_than", {{"X", {"i"}}, {"Y", {"n"}}}, {{"Out", {"cond"}}}));
  return p;
}

// x [2, 2] and s [1] fed; cond = s > 0; conditional_block(cond) { a = 2x };
// conditional_block(!cond) { b = -x }; out = select_input([b, a], int(cond)).
ProgramDesc BranchProgram() {
  ProgramDesc p;
  p.blocks.resize(3);
  auto& main = p.blocks[0];
  main.vars = {lite::cpp::FeedFetchListVar("feed", VarKind::kFeedList),
               lite::cpp::FeedFetchListVar("fetch", VarKind::kFetchList),
               Activation("x", DataType::kFloat32, {2, 2}),
               Activation("s", DataType::kFloat32, {1}),
               Activation("zero", DataType::kFloat32, {1}),
               Activation("cond", DataType::kBool, {1}),
               Activation("not_cond", DataType::kBool, {1}),
               Activation("mask", DataType::kInt32, {1}),
               Activation("a", DataType::kFloat32, {2, 2}),
               Activation("b", DataType::kFloat32, {2, 2}),
               Activation("out", DataType::kFloat32, {2, 2})};
  main.ops.push_back(Feed("x", 0));
  main.ops.push_back(Feed("s", 1));
  main.ops.push_back(FillConstant("zero", kPaddleFloat, {1}, 0));
  main.ops.push_back(Op("greater_than", {{"X", {"s"}}, {"Y", {"zero"}}}, {{"Out", {"cond"}}}));
  main.ops.push_back(Op("logical_not", {{"X", {"cond"}}}, {{"Out", {"not_cond"}}}));
  const char* conds[] = {"cond", "not_cond"};
  const char* outs[] = {"a", "b"};
  for (int k = 0; k < 2; ++k) {
    OpDesc branch = Op("conditional_block", {{"Cond", {conds[k]}}, {"Input", {"x"}}},
                       {{"Out", {outs[k]}}});
    SetSubBlock(&branch, k + 1);
    branch.SetAttr("is_scalar_condition", true);
    main.ops.push_back(branch);
  }
  OpDesc cast = Op("cast", {{"X", {"cond"}}}, {{"Out", {"mask"}}});
  cast.SetAttr("in_dtype", kPaddleBool);
  cast.SetAttr("out_dtype", kPaddleInt32);
  main.ops.push_back(cast);
  main.ops.push_back(
      Op("select_input", {{"X", {"b", "a"}}, {"Mask", {"mask"}}}, {{"Out", {"out"}}}));
  main.ops.push_back(Fetch("out", 0));
  const float scales[] = {2.f, -1.f};
  for (int k = 0; k < 2; ++k) {
    auto& body = p.blocks[k + 1];
    body.idx = k + 1;
    body.parent_idx = 0;
    OpDesc scale = Op("scale", {{"X", {"x"}}}, {{"Out", {outs[k]}}});
    scale.SetAttr("scale", scales[k]);
    scale.SetAttr("bias", 0.f);
    body.ops.push_back(scale);
  }
  return p;
}

const std::vector<float> kX = {1, 2, 3, -4, 5.5f, 0.25f};

void RunLoop(PaddlePredictor* p, int64_t n) {
  SCOPED_TRACE("n = " + std::to_string(n));
  auto x = p->GetInput(0);
  x->Resize({2, 3});
  ASSERT_TRUE(x->CopyFromCpu(kX.data(), 6).ok());
  auto nt = p->GetInput(1);
  nt->Resize({1});
  ASSERT_TRUE(nt->CopyFromCpu(&n, 1).ok());
  auto s = p->Run();
  ASSERT_TRUE(s.ok()) << s.ToString();
  std::vector<float> sum = Output(p, 0);
  ASSERT_EQ(sum.size(), 6u);
  for (int k = 0; k < 6; ++k) EXPECT_FLOAT_EQ(sum[k], n * kX[k]) << k;
  auto len = p->GetOutput(1);
  ASSERT_EQ(len->numel(), 1);
  EXPECT_EQ(len->data<int64_t>()[0], n);
  std::vector<float> second = Output(p, 2);
  ASSERT_EQ(second.size(), 6u);
  for (int k = 0; k < 6; ++k) EXPECT_FLOAT_EQ(second[k], 2 * kX[k]) << k;
}

void RunBranch(PaddlePredictor* p, float s_value) {
  SCOPED_TRACE("s = " + std::to_string(s_value));
  const std::vector<float> x = {1, -2, 3.5f, 0};
  auto xt = p->GetInput(0);
  xt->Resize({2, 2});
  ASSERT_TRUE(xt->CopyFromCpu(x.data(), 4).ok());
  auto st = p->GetInput(1);
  st->Resize({1});
  ASSERT_TRUE(st->CopyFromCpu(&s_value, 1).ok());
  auto s = p->Run();
  ASSERT_TRUE(s.ok()) << s.ToString();
  std::vector<float> out = Output(p, 0);
  ASSERT_EQ(out.size(), 4u);
  for (int k = 0; k < 4; ++k) EXPECT_FLOAT_EQ(out[k], s_value > 0 ? 2 * x[k] : -x[k]) << k;
}

TEST(ControlFlow, WhileLoopAccumulatesOnEveryPath) {
  for (const auto& places : {kHost, kX86}) {
    if (!lite::CheckPlacesInBuild(places).ok()) continue;  // x86 on the aarch64 build
    EveryPath(WhileLoopProgram(), places, "while_loop", [](PaddlePredictor* p) {
      RunLoop(p, 3);
      RunLoop(p, 3);  // a second run starts from the fed values again
    });
  }
}

// A clone builds its own sub-block instructions in its own scope: runs of
// the clone and the original do not disturb each other.
TEST(ControlFlow, ClonedPredictorRunsItsOwnLoop) {
  auto p = CreateFull(WhileLoopProgram(), kHost);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  auto clone = (*p)->Clone();
  ASSERT_TRUE(clone.ok()) << clone.status().ToString();
  RunLoop(p->get(), 4);
  RunLoop(clone->get(), 2);
  RunLoop(p->get(), 4);
}

// The opt tool (the same optimizer and writer as SaveOptimizedModel) turns
// the loop model's files into a .nb the light predictor runs.
TEST(ControlFlow, OptWritesALoopModelTheLightPredictorRuns) {
  auto light = ThroughOpt(WhileLoopProgram(), "opt_loop");
  ASSERT_TRUE(light.ok()) << light.status().ToString();
  RunLoop(light->get(), 5);
}

// A conditional_block nested in the loop's body (its block's parent is the
// body) does the body's assignment: its kernel builds its own sub-block
// inside the body's scope, on every path and through opt (while,
// conditional_block and a tensor array in one program, saved and loaded
// as .nb and as protobuf).
TEST(ControlFlow, ConditionalBlockNestedInALoop) {
  ProgramDesc program = WhileLoopProgram();
  auto& body = program.blocks[1];
  body.vars.push_back(Activation("inner_cond", DataType::kBool, {1}));
  ASSERT_EQ(body.ops[1].Type(), "assign");
  OpDesc branch = Op("conditional_block", {{"Cond", {"inner_cond"}}, {"Input", {"tmp"}}},
                     {{"Out", {"sum"}}});
  SetSubBlock(&branch, 2);
  branch.SetAttr("is_scalar_condition", true);
  lite::cpp::BlockDesc inner;
  inner.idx = 2;
  inner.parent_idx = 1;
  inner.ops.push_back(body.ops[1]);  // sum = tmp, now only when i < n
  body.ops[1] = branch;
  body.ops.insert(body.ops.begin() + 1,
                  Op("less_than", {{"X", {"i"}}, {"Y", {"n"}}}, {{"Out", {"inner_cond"}}}));
  program.blocks.push_back(inner);
  EveryPath(program, kHost, "nested", [](PaddlePredictor* p) { RunLoop(p, 3); });
  auto light = ThroughOpt(program, "nested_opt");
  ASSERT_TRUE(light.ok()) << light.status().ToString();
  RunLoop(light->get(), 4);
}

TEST(ControlFlow, WhileLoopWithZeroIterationsKeepsInitialValues) {
  ProgramDesc program = WhileLoopProgram();
  auto& ops = program.blocks[0].ops;
  ASSERT_EQ(ops[8].Type(), "read_from_array");
  ops.erase(ops.begin() + 8);  // no arr[1] to read
  ops.pop_back();              // nor its fetch
  auto p = CreateFull(program, kHost);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  auto x = (*p)->GetInput(0);
  x->Resize({2, 3});
  ASSERT_TRUE(x->CopyFromCpu(kX.data(), 6).ok());
  int64_t n = 0;
  auto nt = (*p)->GetInput(1);
  nt->Resize({1});
  ASSERT_TRUE(nt->CopyFromCpu(&n, 1).ok());
  auto s = (*p)->Run();
  ASSERT_TRUE(s.ok()) << s.ToString();
  for (float v : Output(p->get(), 0)) EXPECT_EQ(v, 0.f);
  EXPECT_EQ((*p)->GetOutput(1)->data<int64_t>()[0], 0);  // nothing written to the array
}

TEST(ControlFlow, ConditionalBlockTakesTheBranchTheConditionPicks) {
  for (const auto& places : {kHost, kX86}) {
    if (!lite::CheckPlacesInBuild(places).ok()) continue;  // x86 on the aarch64 build
    EveryPath(BranchProgram(), places, "branch", [](PaddlePredictor* p) {
      RunBranch(p, 1.5f);
      RunBranch(p, -2.f);
      RunBranch(p, 0.5f);
    });
  }
}

// Identity ops around a loop (a scale by 1 feeding it, a dropout after it):
// the fusion passes would remove them by renaming a var the loop's body
// reads or writes by name, so they leave them; the results stay those of
// the plain loop.
TEST(ControlFlow, IdentityOpsAroundALoopKeepTheNamesItsBodyUses) {
  ProgramDesc program = WhileLoopProgram();
  auto& main = program.blocks[0];
  main.vars.push_back(Activation("xs", DataType::kFloat32, {2, 3}));
  main.vars.push_back(Activation("sum_out", DataType::kFloat32, {2, 3}));
  OpDesc scale = Op("scale", {{"X", {"x"}}}, {{"Out", {"xs"}}});
  scale.SetAttr("scale", 1.f);
  scale.SetAttr("bias", 0.f);
  main.ops.insert(main.ops.begin() + 2, scale);
  OpDesc& loop = main.ops[6];
  ASSERT_EQ(loop.Type(), "while");
  loop.SetInput("X", {"xs", "i", "n", "sum"});
  program.blocks[1].ops[0].SetInput("Y", {"xs"});
  OpDesc dropout = Op("dropout", {{"X", {"sum"}}}, {{"Out", {"sum_out"}}});
  dropout.SetAttr("dropout_implementation", std::string("upscale_in_train"));
  dropout.SetAttr("dropout_prob", 0.5f);
  dropout.SetAttr("is_test", true);
  main.ops.insert(main.ops.begin() + 7, dropout);
  for (auto& op : main.ops) {
    if (op.Type() == "fetch" && op.Input("X")[0] == "sum") op.SetInput("X", {"sum_out"});
  }
  auto p = CreateFull(program, kHost);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  // Removing either would rename a var of the loop (the scale's reader
  // would read x, the loop would write sum_out): both stay.
  int kept = 0;
  for (const auto& op : (*p)->GetPlacementReport().ops) {
    kept += op.op.find("dropout") == 0 || op.op.find("scale") == 0;
  }
  EXPECT_EQ(kept, 2);
  RunLoop(p->get(), 3);
}

// With NPU places, ops feeding the loop go into a device subgraph, while the
// loop and its body stay on host, reading the subgraph's output by name.
TEST(ControlFlow, LoopStaysOnHostNextToAnNpuSubgraph) {
  ProgramDesc program = WhileLoopProgram();
  auto& main = program.blocks[0];
  main.vars.push_back(Activation("x2", DataType::kFloat32, {2, 3}));
  main.vars.push_back(Activation("xs", DataType::kFloat32, {2, 3}));
  // xs = (x * 2) * 0.5 = x, in two scales (a subgraph of two ops).
  const float factors[] = {2.f, 0.5f};
  const char* ins[] = {"x", "x2"};
  const char* outs[] = {"x2", "xs"};
  for (int k = 0; k < 2; ++k) {
    OpDesc scale = Op("scale", {{"X", {ins[k]}}}, {{"Out", {outs[k]}}});
    scale.SetAttr("scale", factors[k]);
    scale.SetAttr("bias", 0.f);
    main.ops.insert(main.ops.begin() + 2 + k, scale);
  }
  OpDesc& loop = main.ops[7];
  ASSERT_EQ(loop.Type(), "while");
  loop.SetInput("X", {"xs", "i", "n", "sum"});
  program.blocks[1].ops[0].SetInput("Y", {"xs"});
  std::string model, params;
  lite::Scope scope;
  ASSERT_TRUE(lite::SaveCombinedModelToBuffers(program, scope, &model, &params).ok());
  CxxConfig config;
  config.set_model_buffer(model.data(), model.size(), params.data(), params.size());
  config.set_valid_places(
      {lite::Place(lite::TargetType::kNPU), lite::Place(lite::TargetType::kHost)});
  config.set_npu_driver("reference");
  auto p = CreatePaddlePredictor<CxxConfig>(config);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  RunLoop(p->get(), 3);
  const auto report = (*p)->GetPlacementReport();
  ASSERT_EQ(report.subgraphs.size(), 1u) << report.ToString();
  EXPECT_EQ(report.subgraphs[0].state, "device") << report.ToString();
  for (const auto& op : report.ops) {
    if (op.op.find("while") == 0) {
      EXPECT_FALSE(op.on_device) << report.ToString();
    }
  }
}

TEST(ControlFlow, MissingSubBlockIsAnError) {
  ProgramDesc program = WhileLoopProgram();
  program.blocks[0].ops[5].RemoveAttr("sub_block");
  auto p = CreateFull(program, kHost);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("sub_block"), std::string::npos) << p.status().ToString();
  EXPECT_NE(p.status().message().find("while"), std::string::npos) << p.status().ToString();
}

TEST(ControlFlow, OutOfRangeSubBlockIsAnError) {
  ProgramDesc program = BranchProgram();
  SetSubBlock(&program.blocks[0].ops[5], 9);
  auto p = CreateFull(program, kHost);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("block 9"), std::string::npos) << p.status().ToString();
}

TEST(ControlFlow, MissingConditionIsAnError) {
  ProgramDesc program = WhileLoopProgram();
  program.blocks[0].ops[5].mutable_inputs()->erase("Condition");
  auto p = CreateFull(program, kHost);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("Condition"), std::string::npos) << p.status().ToString();
}

TEST(ControlFlow, SubBlockOpWithoutKernelIsAnError) {
  ProgramDesc program = WhileLoopProgram();
  program.blocks[1].ops[0].SetType("no_such_op_in_a_loop");
  auto p = CreateFull(program, kHost);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("no_such_op_in_a_loop"), std::string::npos)
      << p.status().ToString();
}

}  // namespace
}  // namespace control_flow_test
