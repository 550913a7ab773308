// nhwc_to_nchw_pass inside a while body: h = relu(batch_norm(conv(h))) n
// times with conv2d and batch_norm in NHWC form (h loop-carried, written in
// place) gives the NCHW loop's results on the transposed input, on host and
// x86,host (not on the aarch64 build, which has no x86 target); the body
// holds the transposes and the NCHW ops, and conv + bn + relu still fold
// there.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "lite/api/build_targets.h"
#include "lite/api/optimizer.h"
#include "lite/api/predictor_runtime.h"

namespace lite {
namespace {

using cpp::OpDesc;
using cpp::ProgramDesc;
using cpp::VarKind;

cpp::VarDesc TensorVar(const std::string& name, DataType t, std::vector<int64_t> dims,
                       bool persistable) {
  cpp::VarDesc v;
  v.name = name;
  v.dtype = t;
  v.dims = std::move(dims);
  v.persistable = persistable;
  return v;
}

cpp::VarDesc Activation(const std::string& name, DataType t, std::vector<int64_t> dims) {
  return TensorVar(name, t, std::move(dims), /*persistable=*/false);
}

OpDesc Op(const std::string& type, std::map<std::string, std::vector<std::string>> in,
          std::map<std::string, std::vector<std::string>> out) {
  OpDesc op(type);
  for (auto& kv : in) op.SetInput(kv.first, kv.second);
  for (auto& kv : out) op.SetOutput(kv.first, kv.second);
  return op;
}

OpDesc Feed(const std::string& var, int col) {
  OpDesc op = Op("feed", {{"X", {"feed"}}}, {{"Out", {var}}});
  op.SetAttr("col", col);
  return op;
}

OpDesc Fetch(const std::string& var, int col) {
  OpDesc op = Op("fetch", {{"X", {var}}}, {{"Out", {"fetch"}}});
  op.SetAttr("col", col);
  return op;
}

constexpr int kPaddleInt64 = 3;

OpDesc FillConstant(const std::string& out, std::vector<int64_t> shape, float value) {
  OpDesc op = Op("fill_constant", {}, {{"Out", {out}}});
  op.SetAttr("dtype", kPaddleInt64);
  op.SetAttr("shape", shape);
  op.SetAttr("value", value);
  return op;
}

constexpr int64_t kC = 2, kH = 4, kW = 3;

std::vector<int64_t> Dims(bool nhwc) {
  return nhwc ? std::vector<int64_t>{1, kH, kW, kC} : std::vector<int64_t>{1, kC, kH, kW};
}

ProgramDesc Loop(bool nhwc) {
  const std::string layout = nhwc ? "NHWC" : "NCHW";
  ProgramDesc p;
  p.blocks.resize(2);
  auto& main = p.blocks[0];
  main.vars = {cpp::FeedFetchListVar("feed", VarKind::kFeedList),
               cpp::FeedFetchListVar("fetch", VarKind::kFetchList),
               Activation("h", DataType::kFloat32, Dims(nhwc)),
               Activation("n", DataType::kInt64, {1}),
               Activation("i", DataType::kInt64, {1}),
               Activation("cond", DataType::kBool, {1})};
  for (const auto& [name, dims] : std::vector<std::pair<std::string, std::vector<int64_t>>>{
           {"filter", {kC, kC, 3, 3}}, {"gamma", {kC}}, {"beta", {kC}}, {"mean", {kC}},
           {"var", {kC}}}) {
    main.vars.push_back(TensorVar(name, DataType::kFloat32, dims, /*persistable=*/true));
  }
  main.ops.push_back(Feed("h", 0));
  main.ops.push_back(Feed("n", 1));
  main.ops.push_back(FillConstant("i", {1}, 0));
  main.ops.push_back(Op("less_than", {{"X", {"i"}}, {"Y", {"n"}}}, {{"Out", {"cond"}}}));
  OpDesc loop = Op("while",
                   {{"X", {"h", "i", "n", "filter", "gamma", "beta", "mean", "var"}},
                    {"Condition", {"cond"}}},
                   {{"Out", {"h", "i", "cond"}}});
  loop.SetRawAttr("sub_block", cpp::Attribute{cpp::AttrType::BLOCK, int32_t{1}});
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

void FillWeights(Scope* s) {
  int k = 0;
  for (const auto& [name, dims] : std::vector<std::pair<std::string, std::vector<int64_t>>>{
           {"filter", {kC, kC, 3, 3}}, {"gamma", {kC}}, {"beta", {kC}}, {"mean", {kC}},
           {"var", {kC}}}) {
    Tensor* t = s->Var(name)->GetMutableTensor();
    t->Resize(dims);
    float* d = t->mutable_data<float>();
    for (int64_t j = 0; j < t->numel(); ++j, ++k) {
      d[j] = 0.4f * std::sin(0.9f * k + 0.2f);
      if (name == "gamma" || name == "var") d[j] = 1.f + 0.5f * d[j];  // positive
    }
    t->set_persistable(true);
  }
}

std::shared_ptr<Scope> Root() {
  auto root = std::make_shared<Scope>();
  FillWeights(root.get());
  return root;
}

// The loop optimized for `places` and run n times on h fed in NCHW order
// (transposed to NHWC for the NHWC loop, whose output is transposed back).
std::vector<float> RunLoop(bool nhwc, const std::vector<Place>& places, int64_t n) {
  auto root = Root();
  OptimizeOptions options;
  options.valid_places = places;
  auto opt = OptimizeProgram(Loop(nhwc), root.get(), options);
  EXPECT_TRUE(opt.ok()) << opt.status().ToString();
  if (!opt.ok()) return {};
  auto rt = PredictorRuntime::Create(opt->program, root, 1);
  EXPECT_TRUE(rt.ok()) << rt.status().ToString();
  if (!rt.ok()) return {};
  const int64_t hw = kH * kW;
  std::vector<float> nchw(kC * hw), fed(kC * hw);
  for (size_t k = 0; k < nchw.size(); ++k) nchw[k] = std::cos(0.7f * k);
  for (int64_t c = 0; c < kC; ++c) {
    for (int64_t s = 0; s < hw; ++s) fed[nhwc ? s * kC + c : c * hw + s] = nchw[c * hw + s];
  }
  auto ht = (*rt)->GetInput(0);
  ht->Resize(Dims(nhwc));
  ht->CopyFromCpu(fed.data());
  auto nt = (*rt)->GetInput(1);
  nt->Resize({1});
  nt->CopyFromCpu(&n);
  Status s = (*rt)->Run();
  EXPECT_TRUE(s.ok()) << s.ToString();
  auto o = (*rt)->GetOutput(0);
  const std::vector<float> out(o->data<float>(), o->data<float>() + o->numel());
  if (!nhwc) return out;
  std::vector<float> back(out.size());
  for (int64_t c = 0; c < kC; ++c) {
    for (int64_t k = 0; k < hw; ++k) back[c * hw + k] = out[k * kC + c];
  }
  return back;
}

TEST(NhwcInSubBlocks, TheLoopBodyRunsItsNhwcOpsAsNchw) {
  const std::vector<Place> host = {Place(TargetType::kHost)};
  const std::vector<Place> x86 = {Place(TargetType::kX86), Place(TargetType::kHost)};
  for (const auto& places : {host, x86}) {
    if (!CheckPlacesInBuild(places).ok()) continue;  // x86 on the aarch64 build
    for (int64_t n : {0, 1, 3}) {
      const std::vector<float> want = RunLoop(false, host, n);
      const std::vector<float> have = RunLoop(true, places, n);
      ASSERT_EQ(have.size(), want.size());
      ASSERT_EQ(want.size(), static_cast<size_t>(kC * kH * kW));
      for (size_t k = 0; k < want.size(); ++k) EXPECT_NEAR(have[k], want[k], 1e-5) << n;
    }
  }
  // The body after optimization: transposes around the conv with bn and
  // relu folded into it.
  OptimizeOptions options;
  auto root = Root();
  auto opt = OptimizeProgram(Loop(true), root.get(), options);
  ASSERT_TRUE(opt.ok()) << opt.status().ToString();
  std::vector<std::string> types;
  for (const auto& op : opt->program.blocks[1].ops) types.push_back(op.Type());
  EXPECT_EQ(types, (std::vector<std::string>{"transpose2", "conv2d", "transpose2", "increment",
                                             "less_than"}));
}

}  // namespace
}  // namespace lite
