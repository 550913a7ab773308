// nhwc_to_nchw_pass inside a while body: h = relu(batch_norm(conv(h))) n
// times with conv2d and batch_norm in NHWC form (h loop-carried, written in
// place) gives the NCHW loop's results on the transposed input, on host and
// x86,host, through the full predictor; the body holds the transposes and
// the NCHW ops, and conv + bn still fold there.
#include <cmath>

#include "lite/api/optimizer.h"
#include "tests/control_flow_programs.h"

namespace control_flow_test {
namespace {

constexpr int64_t kC = 2, kH = 4, kW = 3;

std::vector<int64_t> Dims(bool nhwc) {
  return nhwc ? std::vector<int64_t>{1, kH, kW, kC} : std::vector<int64_t>{1, kC, kH, kW};
}

ProgramDesc Loop(bool nhwc) {
  const std::string layout = nhwc ? "NHWC" : "NCHW";
  ProgramDesc p;
  p.blocks.resize(2);
  auto& main = p.blocks[0];
  main.vars = {lite::cpp::FeedFetchListVar("feed", VarKind::kFeedList),
               lite::cpp::FeedFetchListVar("fetch", VarKind::kFetchList),
               Activation("h", DataType::kFloat32, Dims(nhwc)),
               Activation("n", DataType::kInt64, {1}),
               Activation("i", DataType::kInt64, {1}),
               Activation("cond", DataType::kBool, {1})};
  for (const auto& [name, dims] : std::vector<std::pair<std::string, std::vector<int64_t>>>{
           {"filter", {kC, kC, 3, 3}}, {"gamma", {kC}}, {"beta", {kC}}, {"mean", {kC}},
           {"var", {kC}}}) {
    main.vars.push_back(TensorVarDesc(name, DataType::kFloat32, dims, /*persistable=*/true));
  }
  main.ops.push_back(Feed("h", 0));
  main.ops.push_back(Feed("n", 1));
  main.ops.push_back(FillConstant("i", kPaddleInt64, {1}, 0));
  main.ops.push_back(Op("less_than", {{"X", {"i"}}, {"Y", {"n"}}}, {{"Out", {"cond"}}}));
  OpDesc loop = Op("while",
                   {{"X", {"h", "i", "n", "filter", "gamma", "beta", "mean", "var"}},
                    {"Condition", {"cond"}}},
                   {{"Out", {"h", "i", "cond"}}});
  SetSubBlock(&loop, 1);
  main.ops.push_back(loop);
  main.ops.push_back(Fetch("h", 0));

  auto& body = p.blocks[1];
  body.idx = 1;
  body.parent_idx = 0;
  body.vars = {Activation("c", DataType::kFloat32, Dims(nhwc)),
               Activation("bn", DataType::kFloat32, Dims(nhwc)),
               Activation("saved_mean", DataType::kFloat32, {kC}),
               Activation("saved_var", DataType::kFloat32, {kC})};
  OpDesc conv = Op("conv2d", {{"Input", {"h"}}, {"Filter", {"filter"}}}, {{"Output", {"c"}}});
  conv.SetAttr("strides", std::vector<int32_t>{1, 1});
  conv.SetAttr("paddings", std::vector<int32_t>{1, 1});
  conv.SetAttr("dilations", std::vector<int32_t>{1, 1});
  conv.SetAttr("groups", 1);
  conv.SetAttr("data_format", layout);
  body.ops.push_back(conv);
  OpDesc bn = Op("batch_norm",
                 {{"X", {"c"}}, {"Scale", {"gamma"}}, {"Bias", {"beta"}}, {"Mean", {"mean"}},
                  {"Variance", {"var"}}},
                 {{"Y", {"bn"}}, {"MeanOut", {"mean"}}, {"VarianceOut", {"var"}},
                  {"SavedMean", {"saved_mean"}}, {"SavedVariance", {"saved_var"}}});
  bn.SetAttr("epsilon", 1e-3f);
  bn.SetAttr("data_layout", layout);
  body.ops.push_back(bn);
  body.ops.push_back(Op("relu", {{"X", {"bn"}}}, {{"Out", {"h"}}}));
  OpDesc inc = Op("increment", {{"X", {"i"}}}, {{"Out", {"i"}}});
  inc.SetAttr("step", 1.0f);
  body.ops.push_back(inc);
  body.ops.push_back(Op("less_than", {{"X", {"i"}}, {"Y", {"n"}}}, {{"Out", {"cond"}}}));
  return p;
}

void FillWeights(lite::Scope* s) {
  int k = 0;
  for (const auto& [name, dims] : std::vector<std::pair<std::string, std::vector<int64_t>>>{
           {"filter", {kC, kC, 3, 3}}, {"gamma", {kC}}, {"beta", {kC}}, {"mean", {kC}},
           {"var", {kC}}}) {
    lite::Tensor* t = s->Var(name)->GetMutableTensor();
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

// h fed in NCHW order, transposed to NHWC for the NHWC loop; the NHWC
// loop's output transposed back.
std::vector<float> RunLoop(PaddlePredictor* p, bool nhwc, int64_t n) {
  const int64_t hw = kH * kW;
  std::vector<float> nchw(kC * hw), fed(kC * hw);
  for (size_t k = 0; k < nchw.size(); ++k) nchw[k] = std::cos(0.7f * k);
  for (int64_t c = 0; c < kC; ++c) {
    for (int64_t s = 0; s < hw; ++s) fed[nhwc ? s * kC + c : c * hw + s] = nchw[c * hw + s];
  }
  auto ht = p->GetInput(0);
  ht->Resize(Dims(nhwc));
  EXPECT_TRUE(ht->CopyFromCpu(fed.data(), static_cast<int64_t>(fed.size())).ok());
  auto nt = p->GetInput(1);
  nt->Resize({1});
  EXPECT_TRUE(nt->CopyFromCpu(&n, 1).ok());
  auto s = p->Run();
  EXPECT_TRUE(s.ok()) << s.ToString();
  const std::vector<float> out = Output(p, 0);
  if (!nhwc) return out;
  std::vector<float> back(out.size());
  for (int64_t c = 0; c < kC; ++c) {
    for (int64_t k = 0; k < hw; ++k) back[c * hw + k] = out[k * kC + c];
  }
  return back;
}

TEST(NhwcInSubBlocks, TheLoopBodyRunsItsNhwcOpsAsNchw) {
  auto ref = CreateFull(Loop(false), kHost, Weights());
  ASSERT_TRUE(ref.ok()) << ref.status().ToString();
  for (const auto& places : {kHost, kX86}) {
    auto got = CreateFull(Loop(true), places, Weights());
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    for (int64_t n : {0, 1, 3}) {
      const std::vector<float> want = RunLoop(ref->get(), false, n);
      const std::vector<float> have = RunLoop(got->get(), true, n);
      ASSERT_EQ(have.size(), want.size());
      for (size_t k = 0; k < want.size(); ++k) EXPECT_NEAR(have[k], want[k], 1e-5) << n;
    }
  }
  // The body after optimization: transposes around the conv with bn and
  // relu folded into it.
  lite::OptimizeOptions options;
  lite::Scope scope;
  FillWeights(&scope);
  auto opt = lite::OptimizeProgram(Loop(true), &scope, options);
  ASSERT_TRUE(opt.ok()) << opt.status().ToString();
  std::vector<std::string> types;
  for (const auto& op : opt->program.blocks[1].ops) types.push_back(op.Type());
  EXPECT_EQ(types, (std::vector<std::string>{"transpose2", "conv2d", "transpose2", "increment",
                                             "less_than"}));
}

}  // namespace
}  // namespace control_flow_test
