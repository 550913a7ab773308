#include "tests/passes/fusion_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "lite/api/optimizer.h"
#include "lite/api/predictor_runtime.h"
#include "lite/optimizer/pass.h"

namespace lite {
namespace mir {
namespace fusion {
namespace testing {

namespace {
float NextUniform(uint32_t* state, float lo, float hi) {
  *state = 1103515245u * *state + 12345u;
  return lo + (hi - lo) * static_cast<float>(*state >> 8) / static_cast<float>(1u << 24);
}
}  // namespace

const std::vector<std::string>& AllFusionPasses() {
  // The default pipeline's graph rewrites: all but kernel selection,
  // placement and device partitioning (derived, so a new fusion pass is
  // never left enabled in a test's "without fusions" run).
  static const auto* names = [] {
    const std::vector<std::string> not_fusions = {
        "npu_subgraph_pass", "static_kernel_pick_pass", "variable_place_inference_pass",
        "type_target_cast_pass", "layout_cast_pass"};
    auto* out = new std::vector<std::string>;
    for (const std::string& p : DefaultPipeline()) {
      if (std::find(not_fusions.begin(), not_fusions.end(), p) == not_fusions.end()) {
        out->push_back(p);
      }
    }
    return out;
  }();
  return *names;
}

cpp::VarDesc* TestModel::Var(const std::string& name) {
  if (program.blocks.empty()) program.blocks.emplace_back();
  cpp::BlockDesc& b = program.blocks[0];
  if (cpp::VarDesc* v = b.FindVar(name)) return v;
  cpp::VarDesc v;
  v.name = name;
  b.vars.push_back(v);
  return &b.vars.back();
}

void TestModel::Input(const std::string& name, const DDim& dims) {
  Var("feed")->kind = cpp::VarKind::kFeedList;
  Op("feed", {{"X", {"feed"}}}, {{"Out", {name}}}).SetAttr("col", feeds_++);
  Var(name)->dims = dims;
  input_dims.push_back(dims);
}

void TestModel::Output(const std::string& name) {
  Var("fetch")->kind = cpp::VarKind::kFetchList;
  Op("fetch", {{"X", {name}}}, {{"Out", {"fetch"}}}).SetAttr("col", fetches_++);
}

void TestModel::Weight(const std::string& name, const DDim& dims, std::vector<float> values) {
  cpp::VarDesc* v = Var(name);
  v->dims = dims;
  v->persistable = true;
  Tensor& t = weights[name];
  t.Resize(dims);
  float* d = t.mutable_data<float>();
  for (int64_t i = 0; i < t.numel(); ++i) d[i] = values.at(i);
  t.set_persistable(true);
}

void TestModel::Int8Weight(const std::string& name, const DDim& dims,
                           const std::vector<int8_t>& values) {
  cpp::VarDesc* v = Var(name);
  v->dims = dims;
  v->persistable = true;
  v->dtype = DataType::kInt8;
  Tensor& t = weights[name];
  t.Resize(dims);
  std::copy(values.begin(), values.begin() + t.numel(), t.mutable_data<int8_t>());
  t.set_persistable(true);
}

void TestModel::RandomWeight(const std::string& name, const DDim& dims, float lo, float hi) {
  std::vector<float> v(Product(dims));
  for (auto& x : v) x = NextUniform(&state_, lo, hi);
  Weight(name, dims, v);
}

cpp::OpDesc& TestModel::Op(const std::string& type,
                           const std::map<std::string, std::vector<std::string>>& in,
                           const std::map<std::string, std::vector<std::string>>& out) {
  cpp::OpDesc op(type);
  for (const auto& kv : in) op.SetInput(kv.first, kv.second);
  for (const auto& kv : out) op.SetOutput(kv.first, kv.second);
  for (const auto& n : op.InputArgumentNames()) Var(n);
  for (const auto& n : op.OutputArgumentNames()) Var(n);
  program.blocks[0].ops.push_back(op);
  return program.blocks[0].ops.back();
}

std::vector<Tensor> TestModel::RandomInputs(uint32_t seed) const {
  std::vector<Tensor> out(input_dims.size());
  for (size_t i = 0; i < out.size(); ++i) {
    out[i].Resize(input_dims[i]);
    float* d = out[i].mutable_data<float>();
    for (int64_t k = 0; k < out[i].numel(); ++k) d[k] = NextUniform(&seed, -1.f, 1.f);
  }
  return out;
}

std::shared_ptr<Scope> ScopeWithWeights(const TestModel& model) {
  auto root = std::make_shared<Scope>();
  for (const auto& kv : model.weights) {
    Tensor* t = root->Var(kv.first)->GetMutableTensor();
    t->CopyDataFrom(kv.second);
    t->set_persistable(true);
  }
  return root;
}

void ExpectCreationFailsNaming(const TestModel& model, const std::vector<Place>& places,
                               const std::string& op, const std::string& what) {
  auto run = RunWith(model, AllFusionPasses(), model.RandomInputs(), places);
  ASSERT_FALSE(run.ok()) << what;
  EXPECT_NE(run.status().message().find(op), std::string::npos) << run.status().message();
  EXPECT_NE(run.status().message().find(what), std::string::npos) << run.status().message();
}

void AddBatchNorm(TestModel* m, const std::string& in, const std::string& out, int64_t channels) {
  m->RandomWeight("gamma", {channels}, -1.5f, 1.5f);
  m->RandomWeight("beta", {channels});
  m->RandomWeight("mean", {channels});
  m->RandomWeight("var", {channels}, 0.5f, 2.f);
  m->Op("batch_norm",
        {{"X", {in}}, {"Scale", {"gamma"}}, {"Bias", {"beta"}}, {"Mean", {"mean"}},
         {"Variance", {"var"}}},
        {{"Y", {out}}, {"MeanOut", {"mean"}}, {"VarianceOut", {"var"}},
         {"SavedMean", {"sm"}}, {"SavedVariance", {"sv"}}});
}

StatusOr<FusionRun> RunWith(const TestModel& model, const std::vector<std::string>& fusions,
                            const std::vector<Tensor>& inputs, const std::vector<Place>& places) {
  auto root = ScopeWithWeights(model);
  OptimizeOptions options;
  options.valid_places = places;
  for (const auto& p : AllFusionPasses()) {
    bool on = false;
    for (const auto& f : fusions) on = on || f == p;
    if (!on) options.disabled_passes.push_back(p);
  }
  ASSIGN_OR_RETURN(OptimizeResult opt, OptimizeProgram(model.program, root.get(), options));
  FusionRun run;
  run.program = opt.program;
  run.pass_log = opt.report.ToString();
  for (const auto& op : opt.program.blocks[0].ops) run.op_types.push_back(op.Type());
  for (const auto& rec : opt.report.passes) {
    for (const auto& f : fusions) {
      if (rec.name != f) continue;
      for (const auto& kv : rec.counters) run.counters[kv.first] += kv.second;
    }
  }
  if (inputs.empty()) return run;
  ASSIGN_OR_RETURN(auto rt, PredictorRuntime::Create(opt.program, root, 1));
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto in = rt->GetInput(static_cast<int>(i));
    if (!in) return InvalidArgument("model has no input column " + std::to_string(i));
    in->Resize(inputs[i].dims());
    in->CopyFromCpu(inputs[i].data<float>());
  }
  RETURN_IF_ERROR(rt->Run());
  for (size_t i = 0; i < rt->GetOutputNames().size(); ++i) {
    auto out = rt->GetOutput(static_cast<int>(i));
    const float* d = out->data<float>();
    if (!d) return Internal("output " + std::to_string(i) + " is not float32");
    run.outputs.emplace_back(d, d + out->numel());
    run.output_dims.push_back(out->shape());
  }
  return run;
}

StatusOr<FusionRun> RunAndCompare(const TestModel& model,
                                  const std::vector<std::string>& fusions, double* max_diff,
                                  const std::vector<Place>& places) {
  const std::vector<Tensor> inputs = model.RandomInputs();
  ASSIGN_OR_RETURN(FusionRun plain, RunWith(model, {}, inputs));
  ASSIGN_OR_RETURN(FusionRun fused, RunWith(model, fusions, inputs, places));
  if (plain.output_dims != fused.output_dims) {
    return Internal("output dims differ after " + fusions.front());
  }
  *max_diff = MaxAbsDiff(plain.outputs, fused.outputs);
  return fused;
}

FusionRun ExpectFusedMatches(const TestModel& model, const std::string& pass, double tol,
                             const std::vector<Place>& places) {
  double diff = 0;
  auto run = RunAndCompare(model, {pass}, &diff, places);
  EXPECT_TRUE(run.ok()) << pass << ": " << run.status().ToString();
  if (!run.ok()) return FusionRun();
  EXPECT_LT(diff, tol) << pass;
  return *run;
}

FusionRun RunOrFail(const TestModel& model, const std::vector<std::string>& fusions,
                    const std::vector<Place>& places) {
  auto run = RunWith(model, fusions, model.RandomInputs(), places);
  EXPECT_TRUE(run.ok()) << run.status().ToString();
  return run.ok() ? *run : FusionRun();
}

void ExpectNearSimulation(const FusionRun& sim, const FusionRun& int8) {
  ASSERT_EQ(sim.outputs.size(), int8.outputs.size());
  for (size_t o = 0; o < sim.outputs.size(); ++o) {
    ASSERT_EQ(sim.outputs[o].size(), int8.outputs[o].size());
    double worst = 0, largest = 0;
    for (size_t i = 0; i < sim.outputs[o].size(); ++i) {
      worst = std::max(worst, std::fabs(double(sim.outputs[o][i]) - int8.outputs[o][i]));
      largest = std::max(largest, std::fabs(double(sim.outputs[o][i])));
    }
    EXPECT_LT(worst, 1e-5 * largest + 1e-6) << "output " << o << ": " << worst << " of "
                                            << largest;
    EXPECT_GT(largest, 0.1);
  }
}

void AddQuantConv(TestModel* m, const std::string& in, float s, const std::string& type, int k,
                  const std::string& out, int64_t in_channels, int64_t out_channels,
                  int groups) {
  m->Weight(in + ".scale", {1}, {s});
  m->Op("fake_quantize_dequantize_moving_average_abs_max",
        {{"X", {in}}, {"InScale", {in + ".scale"}}},
        {{"Out", {in + ".qdq"}}, {"OutScale", {in + ".scale"}}})
      .SetAttr("bit_length", 8);
  m->RandomWeight(out + ".w", {out_channels, in_channels / groups, k, k}, -0.4f, 0.4f);
  auto& wq = m->Op("fake_channel_wise_quantize_dequantize_abs_max", {{"X", {out + ".w"}}},
                   {{"Out", {out + ".wq"}}, {"OutScale", {out + ".ws"}}});
  wq.SetAttr("bit_length", 8);
  wq.SetAttr("quant_axis", 0);
  auto& conv = m->Op(type, {{"Input", {in + ".qdq"}}, {"Filter", {out + ".wq"}}},
                     {{"Output", {out}}});
  conv.SetAttr("strides", std::vector<int32_t>{1, 1});
  conv.SetAttr("paddings", std::vector<int32_t>{k / 2, k / 2});
  conv.SetAttr("dilations", std::vector<int32_t>{1, 1});
  conv.SetAttr("groups", groups);
}

const cpp::OpDesc* FindOp(const FusionRun& r, const std::string& type) {
  for (const cpp::OpDesc& op : r.program.blocks[0].ops) {
    if (op.Type() == type) return &op;
  }
  return nullptr;
}

std::string VarType(const FusionRun& r, const std::string& name) {
  const cpp::VarDesc* v = r.program.blocks[0].FindVar(name);
  return v ? DataTypeName(v->dtype) : "missing";
}

int CountOps(const std::vector<std::string>& types, const std::string& type) {
  int n = 0;
  for (const auto& t : types) n += t == type;
  return n;
}

double MaxAbsDiff(const std::vector<std::vector<float>>& a,
                  const std::vector<std::vector<float>>& b) {
  const double inf = std::numeric_limits<double>::infinity();
  if (a.size() != b.size()) return inf;
  double m = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].size() != b[i].size()) return inf;
    for (size_t k = 0; k < a[i].size(); ++k) {
      double d = std::fabs(static_cast<double>(a[i][k]) - b[i][k]);
      if (std::isnan(d)) return inf;
      m = std::max(m, d);
    }
  }
  return m;
}

}  // namespace testing
}  // namespace fusion
}  // namespace mir
}  // namespace lite
