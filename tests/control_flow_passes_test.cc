// Passes and control-flow blocks: the fusions run inside a while body (conv
// + batch_norm folded, mul + bias add made an fc) with results unchanged on
// every path, and with npu among the places no device subgraph spans the
// body's boundary (the body's NPU-supported ops stay on host) while the
// results match host.
#include <algorithm>
#include <cmath>

#include "lite/api/optimizer.h"
#include "lite/core/program.h"
#include "lite/optimizer/sub_block_passes.h"
#include "tests/control_flow_programs.h"

namespace control_flow_test {
namespace {

VarDesc Weight(const std::string& name, std::vector<int64_t> dims) {
  return TensorVarDesc(name, DataType::kFloat32, std::move(dims), /*persistable=*/true);
}

OpDesc Scale(const std::string& x, const std::string& out, float factor) {
  OpDesc op = Op("scale", {{"X", {x}}}, {{"Out", {out}}});
  op.SetAttr("scale", factor);
  op.SetAttr("bias", 0.f);
  return op;
}

// h [1, 2, 4, 4], v [2, 3] and n fed; n times: h = relu(batch_norm(conv(h)));
// v = tanh(v x W + b). Fetches h and v.
ProgramDesc FusableLoopProgram() {
  ProgramDesc p;
  p.blocks.resize(2);
  auto& main = p.blocks[0];
  main.vars = {lite::cpp::FeedFetchListVar("feed", VarKind::kFeedList),
               lite::cpp::FeedFetchListVar("fetch", VarKind::kFetchList),
               Activation("h", DataType::kFloat32, {1, 2, 4, 4}),
               Activation("v", DataType::kFloat32, {2, 3}),
               Activation("n", DataType::kInt64, {1}),
               Activation("i", DataType::kInt64, {1}),
               Activation("cond", DataType::kBool, {1}),
               Weight("filter", {2, 2, 3, 3}),
               Weight("gamma", {2}),
               Weight("beta", {2}),
               Weight("mean", {2}),
               Weight("var", {2}),
               Weight("w", {3, 3}),
               Weight("b", {3})};
  main.ops.push_back(Feed("h", 0));
  main.ops.push_back(Feed("v", 1));
  main.ops.push_back(Feed("n", 2));
  main.ops.push_back(FillConstant("i", kPaddleInt64, {1}, 0));
  main.ops.push_back(Op("less_than", {{"X", {"i"}}, {"Y", {"n"}}}, {{"Out", {"cond"}}}));
  OpDesc loop = Op("while",
                   {{"X", {"h", "v", "i", "n", "filter", "gamma", "beta", "mean", "var", "w", "b"}},
                    {"Condition", {"cond"}}},
                   {{"Out", {"h", "v", "i", "cond"}}});
  SetSubBlock(&loop, 1);
  main.ops.push_back(loop);
  main.ops.push_back(Fetch("h", 0));
  main.ops.push_back(Fetch("v", 1));

  auto& body = p.blocks[1];
  body.idx = 1;
  body.parent_idx = 0;
  body.vars = {Activation("c", DataType::kFloat32, {1, 2, 4, 4}),
               Activation("bn", DataType::kFloat32, {1, 2, 4, 4}),
               Activation("saved_mean", DataType::kFloat32, {2}),
               Activation("saved_var", DataType::kFloat32, {2}),
               Activation("m", DataType::kFloat32, {2, 3}),
               Activation("a", DataType::kFloat32, {2, 3})};
  OpDesc conv = Op("conv2d", {{"Input", {"h"}}, {"Filter", {"filter"}}}, {{"Output", {"c"}}});
  conv.SetAttr("strides", std::vector<int32_t>{1, 1});
  conv.SetAttr("paddings", std::vector<int32_t>{1, 1});
  conv.SetAttr("dilations", std::vector<int32_t>{1, 1});
  conv.SetAttr("groups", 1);
  body.ops.push_back(conv);
  OpDesc bn = Op("batch_norm",
                 {{"X", {"c"}}, {"Scale", {"gamma"}}, {"Bias", {"beta"}}, {"Mean", {"mean"}},
                  {"Variance", {"var"}}},
                 {{"Y", {"bn"}}, {"MeanOut", {"mean"}}, {"VarianceOut", {"var"}},
                  {"SavedMean", {"saved_mean"}}, {"SavedVariance", {"saved_var"}}});
  bn.SetAttr("epsilon", 1e-3f);
  body.ops.push_back(bn);
  body.ops.push_back(Op("relu", {{"X", {"bn"}}}, {{"Out", {"h"}}}));
  OpDesc mul = Op("mul", {{"X", {"v"}}, {"Y", {"w"}}}, {{"Out", {"m"}}});
  mul.SetAttr("x_num_col_dims", 1);
  mul.SetAttr("y_num_col_dims", 1);
  body.ops.push_back(mul);
  OpDesc add = Op("elementwise_add", {{"X", {"m"}}, {"Y", {"b"}}}, {{"Out", {"a"}}});
  add.SetAttr("axis", 1);
  body.ops.push_back(add);
  body.ops.push_back(Op("tanh", {{"X", {"a"}}}, {{"Out", {"v"}}}));
  OpDesc inc = Op("increment", {{"X", {"i"}}}, {{"Out", {"i"}}});
  inc.SetAttr("step", 1.0f);
  body.ops.push_back(inc);
  body.ops.push_back(Op("less_than", {{"X", {"i"}}, {"Y", {"n"}}}, {{"Out", {"cond"}}}));
  return p;
}

void FillWeights(lite::Scope* scope) {
  const std::vector<std::pair<std::string, std::vector<int64_t>>> weights = {
      {"filter", {2, 2, 3, 3}}, {"gamma", {2}}, {"beta", {2}}, {"mean", {2}},
      {"var", {2}},             {"w", {3, 3}},  {"b", {3}}};
  int k = 0;
  for (const auto& [name, dims] : weights) {
    lite::Tensor* t = scope->Var(name)->GetMutableTensor();
    t->Resize(dims);
    float* d = t->mutable_data<float>();
    for (int64_t j = 0; j < t->numel(); ++j, ++k) {
      d[j] = 0.4f * std::sin(0.9f * k + 0.2f);
      if (name == "gamma" || name == "var") d[j] = 1.f + 0.5f * d[j];  // positive
    }
    t->set_persistable(true);
  }
}

const lite::Scope* Weights() {
  static lite::Scope* scope = [] {
    auto* s = new lite::Scope;
    FillWeights(s);
    return s;
  }();
  return scope;
}

struct Outputs {
  std::vector<float> h, v;
};

Outputs RunLoop(PaddlePredictor* p, int64_t n) {
  std::vector<float> h(32), v(6);
  for (size_t k = 0; k < h.size(); ++k) h[k] = std::cos(0.7f * k);
  for (size_t k = 0; k < v.size(); ++k) v[k] = std::sin(1.3f * k);
  auto ht = p->GetInput(0);
  ht->Resize({1, 2, 4, 4});
  EXPECT_TRUE(ht->CopyFromCpu(h.data(), 32).ok());
  auto vt = p->GetInput(1);
  vt->Resize({2, 3});
  EXPECT_TRUE(vt->CopyFromCpu(v.data(), 6).ok());
  auto nt = p->GetInput(2);
  nt->Resize({1});
  EXPECT_TRUE(nt->CopyFromCpu(&n, 1).ok());
  auto s = p->Run();
  EXPECT_TRUE(s.ok()) << s.ToString();
  return {Output(p, 0), Output(p, 1)};
}

// The pipeline's rewrites that run on sub-blocks (all but the kernel pick).
std::vector<std::string> SubBlockRewrites() {
  std::vector<std::string> out;
  for (const std::string& name : lite::mir::SubBlockPasses(lite::mir::DefaultPipeline())) {
    if (name != "static_kernel_pick_pass") out.push_back(name);
  }
  return out;
}

// The loop run with every sub-block rewrite disabled: the unfused results.
Outputs Unfused(int64_t n) {
  std::string model, params;
  EXPECT_TRUE(lite::SaveCombinedModelToBuffers(FusableLoopProgram(), *Weights(), &model, &params)
                  .ok());
  CxxConfig config;
  config.set_model_buffer(model.data(), model.size(), params.data(), params.size());
  config.set_valid_places(HostPlaces());
  config.set_disabled_passes(SubBlockRewrites());
  auto p = CreatePaddlePredictor<CxxConfig>(config);
  EXPECT_TRUE(p.ok()) << p.status().ToString();
  return RunLoop(p->get(), n);
}

void ExpectNear(const std::vector<float>& got, const std::vector<float>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t k = 0; k < got.size(); ++k) EXPECT_NEAR(got[k], want[k], 1e-5) << k;
}

std::vector<std::string> OpTypes(const lite::cpp::BlockDesc& block) {
  std::vector<std::string> types;
  for (const auto& op : block.ops) types.push_back(op.Type());
  return types;
}

// One pipeline serves every block: the passes a sub-block runs are the main
// pipeline's passes that declare runs_on_sub_blocks, in its order, and the
// body's ops get their host kernels from the kernel pick run on the body.
TEST(SubBlockPasses, TheOnePipelineRunsOnSubBlocks) {
  const std::vector<std::string>& pipeline = lite::mir::DefaultPipeline();
  const std::vector<std::string> sub = lite::mir::SubBlockPasses(pipeline);
  std::vector<std::string> declared;
  for (const std::string& name : pipeline) {
    auto pass = lite::mir::PassRegistry::Global().Create(name, lite::mir::PassOptions());
    ASSERT_NE(pass, nullptr) << name;
    if (pass->runs_on_sub_blocks()) declared.push_back(name);
  }
  EXPECT_EQ(sub, declared);
  EXPECT_NE(std::find(sub.begin(), sub.end(), "static_kernel_pick_pass"), sub.end());
  EXPECT_NE(std::find(sub.begin(), sub.end(), "conv_bn_fuse_pass"), sub.end());
  EXPECT_EQ(std::find(sub.begin(), sub.end(), "npu_subgraph_pass"), sub.end());
  EXPECT_EQ(std::find(sub.begin(), sub.end(), "quant_dequant_fuse_pass"), sub.end());

  lite::Scope scope;
  FillWeights(&scope);
  auto opt = lite::OptimizeProgram(FusableLoopProgram(), &scope, lite::OptimizeOptions());
  ASSERT_TRUE(opt.ok()) << opt.status().ToString();
  bool picked_in_body = false;
  for (const auto& rec : opt->report.passes) {
    picked_in_body = picked_in_body || (rec.changed && rec.name == "static_kernel_pick_pass (block 1)");
  }
  EXPECT_TRUE(picked_in_body) << opt->report.ToString();
  for (const auto& op : opt->program.blocks[1].ops) {
    const std::string key = op.GetAttr<std::string>(lite::kKernelKeyAttr, "");
    EXPECT_NE(key.find("host"), std::string::npos) << op.Type() << ": '" << key << "'";
  }
}

// A pass's name is written once, in its registration: every registered pass
// reports the name it was registered under.
TEST(SubBlockPasses, EveryPassReportsItsRegisteredName) {
  for (const std::string& name : lite::mir::PassRegistry::Global().Names()) {
    auto pass = lite::mir::PassRegistry::Global().Create(name, lite::mir::PassOptions());
    auto step = lite::mir::PassRegistry::Global().CreateProgramStep(name, lite::mir::PassOptions());
    ASSERT_TRUE(pass || step) << name;
    EXPECT_EQ(pass ? pass->name() : step->name(), name);
  }
}

TEST(SubBlockPasses, FusionsRunInsideAWhileBody) {
  lite::Scope scope;
  FillWeights(&scope);
  lite::OptimizeOptions options;
  auto opt = lite::OptimizeProgram(FusableLoopProgram(), &scope, options);
  ASSERT_TRUE(opt.ok()) << opt.status().ToString();
  const auto body = OpTypes(opt->program.blocks[1]);
  EXPECT_EQ(std::count(body.begin(), body.end(), "batch_norm"), 0) << opt->report.ToString();
  EXPECT_EQ(std::count(body.begin(), body.end(), "mul"), 0) << opt->report.ToString();
  EXPECT_EQ(std::count(body.begin(), body.end(), "fc"), 1) << opt->report.ToString();
  EXPECT_EQ(std::count(body.begin(), body.end(), "conv2d"), 1);
  int fused_in_body = 0;
  for (const auto& rec : opt->report.passes) {
    fused_in_body += rec.changed && (rec.name == "conv_bn_fuse_pass (block 1)" ||
                                     rec.name == "fc_fuse_pass (block 1)");
  }
  EXPECT_EQ(fused_in_body, 2) << opt->report.ToString();
  // The loop's outer writes keep their names: h, v, i and cond are still
  // written in the body.
  for (const char* name : {"h", "v", "i", "cond"}) {
    bool written = false;
    for (const auto& op : opt->program.blocks[1].ops) {
      for (const auto& out : op.OutputArgumentNames()) written = written || out == name;
    }
    EXPECT_TRUE(written) << name;
  }
  // The folded filter and bias are weights of block 0 (saved with the model).
  for (const auto& op : opt->program.blocks[1].ops) {
    if (op.Type() != "conv2d") continue;
    for (const char* param : {"Filter", "Bias"}) {
      ASSERT_EQ(op.Input(param).size(), 1u) << param;
      const auto* vd = opt->program.blocks[0].FindVar(op.Input(param)[0]);
      ASSERT_NE(vd, nullptr) << param;
      EXPECT_TRUE(vd->persistable);
    }
  }
}

TEST(SubBlockPasses, FusedLoopMatchesTheUnfusedOneOnEveryPath) {
  for (int64_t n : {1, 3}) {
    const Outputs want = Unfused(n);
    EveryPath(FusableLoopProgram(), HostPlaces(), "fused_loop", [&](PaddlePredictor* p) {
      const Outputs got = RunLoop(p, n);
      ExpectNear(got.h, want.h);
      ExpectNear(got.v, want.v);
    }, Weights());
    auto light = ThroughOpt(FusableLoopProgram(), "fused_loop_opt", Weights());
    ASSERT_TRUE(light.ok()) << light.status().ToString();
    const Outputs got = RunLoop(light->get(), n);
    ExpectNear(got.h, want.h);
    ExpectNear(got.v, want.v);
  }
}


// A body-local var read at the top of the body before the body writes it
// carries the last iteration's value: the write at the end through an
// identity scale stays (nothing in the block reads that last version, so
// without the carried-var rule identity_scale_eliminate_pass would drop it).
TEST(SubBlockPasses, CarriedBodyVarKeepsItsLastWrite) {
  ProgramDesc program = FusableLoopProgram();
  auto& body = program.blocks[1];
  for (const char* name : {"prev", "use", "doubled"}) {
    body.vars.push_back(Activation(name, DataType::kFloat32, {2, 3}));
  }
  body.ops.insert(body.ops.begin(), Scale("prev", "use", 3.f));
  body.ops.push_back(Scale("v", "doubled", 2.f));
  body.ops.push_back(Scale("doubled", "prev", 1.f));
  lite::Scope scope;
  FillWeights(&scope);
  auto opt = lite::OptimizeProgram(program, &scope, lite::OptimizeOptions());
  ASSERT_TRUE(opt.ok()) << opt.status().ToString();
  bool prev_written = false;
  for (const auto& op : opt->program.blocks[1].ops) {
    for (const auto& out : op.OutputArgumentNames()) prev_written = prev_written || out == "prev";
  }
  EXPECT_TRUE(prev_written) << opt->report.ToString();
}

// x [2, 3] and n fed: a = relu(scale(x)); sum = 0; n times { sum = sum + a;
// sum = relu(sum) }; out = relu(2 sum). Every op but the loop's
// bookkeeping has an NPU bridge.
ProgramDesc NpuAroundAndInsideLoop() {
  ProgramDesc p;
  p.blocks.resize(2);
  auto& main = p.blocks[0];
  main.vars = {lite::cpp::FeedFetchListVar("feed", VarKind::kFeedList),
               lite::cpp::FeedFetchListVar("fetch", VarKind::kFetchList),
               Activation("n", DataType::kInt64, {1}),
               Activation("i", DataType::kInt64, {1}),
               Activation("cond", DataType::kBool, {1})};
  for (const char* name : {"x", "xs", "a", "sum", "ss", "out"}) {
    main.vars.push_back(Activation(name, DataType::kFloat32, {2, 3}));
  }
  main.ops.push_back(Feed("x", 0));
  main.ops.push_back(Feed("n", 1));
  main.ops.push_back(Scale("x", "xs", 0.5f));
  main.ops.push_back(Op("relu", {{"X", {"xs"}}}, {{"Out", {"a"}}}));
  main.ops.push_back(FillConstant("i", kPaddleInt64, {1}, 0));
  main.ops.push_back(FillConstant("sum", kPaddleFloat, {2, 3}, 0));
  main.ops.push_back(Op("less_than", {{"X", {"i"}}, {"Y", {"n"}}}, {{"Out", {"cond"}}}));
  OpDesc loop = Op("while", {{"X", {"a", "sum", "i", "n"}}, {"Condition", {"cond"}}},
                   {{"Out", {"sum", "i", "cond"}}});
  SetSubBlock(&loop, 1);
  main.ops.push_back(loop);
  main.ops.push_back(Scale("sum", "ss", 2.f));
  main.ops.push_back(Op("relu", {{"X", {"ss"}}}, {{"Out", {"out"}}}));
  main.ops.push_back(Fetch("out", 0));
  auto& body = p.blocks[1];
  body.idx = 1;
  body.parent_idx = 0;
  body.vars = {Activation("t", DataType::kFloat32, {2, 3})};
  OpDesc add = Op("elementwise_add", {{"X", {"sum"}}, {"Y", {"a"}}}, {{"Out", {"t"}}});
  add.SetAttr("axis", -1);
  body.ops.push_back(add);
  body.ops.push_back(Op("relu", {{"X", {"t"}}}, {{"Out", {"sum"}}}));
  OpDesc inc = Op("increment", {{"X", {"i"}}}, {{"Out", {"i"}}});
  inc.SetAttr("step", 1.0f);
  body.ops.push_back(inc);
  body.ops.push_back(Op("less_than", {{"X", {"i"}}, {"Y", {"n"}}}, {{"Out", {"cond"}}}));
  return p;
}

std::vector<float> RunNpuLoop(PaddlePredictor* p, int64_t n) {
  const std::vector<float> x = {1, -2, 3, -0.5f, 0.25f, 4};
  auto xt = p->GetInput(0);
  xt->Resize({2, 3});
  EXPECT_TRUE(xt->CopyFromCpu(x.data(), 6).ok());
  auto nt = p->GetInput(1);
  nt->Resize({1});
  EXPECT_TRUE(nt->CopyFromCpu(&n, 1).ok());
  auto s = p->Run();
  EXPECT_TRUE(s.ok()) << s.ToString();
  return Output(p, 0);
}

// The subgraph pass cuts the main block only: the ops before and after the
// loop become two subgraphs (the loop on host between them), the body's
// ops (bridged ones included) stay on host inside the loop's block, and the
// results equal host's.
TEST(SubBlockPasses, NoDeviceSubgraphCrossesALoopBoundary) {
  auto host = CreateFull(NpuAroundAndInsideLoop(), HostPlaces());
  ASSERT_TRUE(host.ok()) << host.status().ToString();
  std::string model, params;
  ASSERT_TRUE(lite::SaveCombinedModelToBuffers(NpuAroundAndInsideLoop(), lite::Scope(), &model,
                                               &params)
                  .ok());
  CxxConfig config;
  config.set_model_buffer(model.data(), model.size(), params.data(), params.size());
  config.set_valid_places(
      {lite::Place(lite::TargetType::kNPU), lite::Place(lite::TargetType::kHost)});
  config.set_npu_driver("reference");
  auto npu = CreatePaddlePredictor<CxxConfig>(config);
  ASSERT_TRUE(npu.ok()) << npu.status().ToString();
  for (int64_t n : {0, 1, 3}) {
    const std::vector<float> want = RunNpuLoop(host->get(), n);
    const std::vector<float> got = RunNpuLoop(npu->get(), n);
    ExpectNear(got, want);
    if (n > 0) EXPECT_NE(want, std::vector<float>(6, 0.f)) << "n = " << n;
  }
  const auto report = (*npu)->GetPlacementReport();
  ASSERT_EQ(report.subgraphs.size(), 2u) << report.ToString();
  for (const auto& sg : report.subgraphs) {
    EXPECT_EQ(sg.state, "device") << report.ToString();
    ASSERT_EQ(sg.ops.size(), 2u) << report.ToString();  // scale and relu
    for (const auto& op : sg.ops) {
      EXPECT_EQ(op.find("elementwise_add"), std::string::npos) << report.ToString();
      EXPECT_EQ(op.find("while"), std::string::npos) << report.ToString();
    }
  }
  for (const auto& op : report.ops) {
    if (op.op.find("while") == 0 || op.op.find("elementwise_add") == 0) {
      EXPECT_FALSE(op.on_device) << report.ToString();
    }
  }
  // The body in the optimized program: its own ops, on host kernels.
  lite::OptimizeOptions options;
  options.valid_places = {lite::Place(lite::TargetType::kNPU),
                          lite::Place(lite::TargetType::kHost)};
  options.npu.driver = "reference";
  lite::Scope scope;
  auto opt = lite::OptimizeProgram(NpuAroundAndInsideLoop(), &scope, options);
  ASSERT_TRUE(opt.ok()) << opt.status().ToString();
  EXPECT_EQ(OpTypes(opt->program.blocks[1]),
            (std::vector<std::string>{"elementwise_add", "relu", "increment", "less_than"}));
  for (const auto& op : opt->program.blocks[1].ops) {
    EXPECT_NE(op.GetAttr<std::string>(lite::kKernelKeyAttr, "").find("/host/"), std::string::npos)
        << op.GetAttr<std::string>(lite::kKernelKeyAttr, "");
  }
}

}  // namespace
}  // namespace control_flow_test
