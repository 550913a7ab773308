// nhwc_to_nchw_pass: every op Paddle defines in NHWC form, built as a small
// program in that form and run on host, x86,host and npu,host (xnnpack and
// reference drivers) with the default pipeline, against the NCHW op run by
// the host kernels (no passes) on the transposed input, its output
// transposed back. A chain conv -> bias add -> bn -> relu -> pool, all NHWC,
// fuses as its NCHW form does and keeps one transpose at each end; with the
// pass disabled every op refuses NHWC with the one clear error. x86,host is
// left out on the aarch64 build, which has no x86 target.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "lite/api/build_targets.h"
#include "lite/api/optimizer.h"
#include "lite/api/predictor_runtime.h"
#include "tests/passes/fusion_test_util.h"

namespace lite {
namespace mir {
namespace fusion {
namespace testing {
namespace {

constexpr char kPass[] = "nhwc_to_nchw_pass";

struct Target {
  std::string name;
  std::vector<Place> places;
  std::string driver;
};

// The ones this build has (no x86 on aarch64).
const std::vector<Target>& Targets() {
  static const auto* t = [] {
    auto* all = new std::vector<Target>{
        {"host", {Place(TargetType::kHost)}, ""},
        {"x86,host", {Place(TargetType::kX86), Place(TargetType::kHost)}, ""},
        {"npu,host (xnnpack)", {Place(TargetType::kNPU), Place(TargetType::kHost)}, "xnnpack"},
        {"npu,host (reference)", {Place(TargetType::kNPU), Place(TargetType::kHost)},
         "reference"},
    };
    all->erase(std::remove_if(all->begin(), all->end(),
                              [](const Target& x) { return !CheckPlacesInBuild(x.places).ok(); }),
               all->end());
    return all;
  }();
  return *t;
}

// `x` with dims `dims` permuted (out dim i is in dim perm[i]).
std::vector<float> Permute(const std::vector<float>& x, const DDim& dims,
                           const std::vector<int>& perm, DDim* out_dims) {
  const size_t rank = dims.size();
  std::vector<int64_t> in_strides(rank, 1);
  for (int i = static_cast<int>(rank) - 2; i >= 0; --i) {
    in_strides[i] = in_strides[i + 1] * dims[i + 1];
  }
  DDim od(rank);
  for (size_t i = 0; i < rank; ++i) od[i] = dims[perm[i]];
  std::vector<float> out(x.size());
  std::vector<int64_t> idx(rank, 0);
  for (size_t o = 0; o < out.size(); ++o) {
    int64_t src = 0;
    for (size_t i = 0; i < rank; ++i) src += idx[i] * in_strides[perm[i]];
    out[o] = x[src];
    for (int i = static_cast<int>(rank) - 1; i >= 0; --i) {
      if (++idx[i] < od[i]) break;
      idx[i] = 0;
    }
  }
  if (out_dims) *out_dims = od;
  return out;
}

std::vector<int> ToFirst(size_t rank) {
  std::vector<int> p = {0, static_cast<int>(rank) - 1};
  for (size_t i = 1; i + 1 < rank; ++i) p.push_back(static_cast<int>(i));
  return p;
}
std::vector<int> ToLast(size_t rank) {
  std::vector<int> p = {0};
  for (size_t i = 2; i < rank; ++i) p.push_back(static_cast<int>(i));
  p.push_back(1);
  return p;
}

struct Run {
  std::vector<float> out;
  DDim dims;
  cpp::ProgramDesc program;
};

// Optimizes `m` with the default pipeline for `t` and runs it on `inputs`.
StatusOr<Run> RunOn(const TestModel& m, const Target& t, const std::vector<Tensor>& inputs,
                    const std::vector<std::string>& disabled = {}) {
  auto root = ScopeWithWeights(m);
  OptimizeOptions options;
  options.valid_places = t.places;
  options.disabled_passes = disabled;
  if (!t.driver.empty()) options.npu.driver = t.driver;
  ASSIGN_OR_RETURN(OptimizeResult opt, OptimizeProgram(m.program, root.get(), options));
  ASSIGN_OR_RETURN(auto rt, PredictorRuntime::Create(opt.program, root, 1, options.npu));
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto in = rt->GetInput(static_cast<int>(i));
    in->Resize(inputs[i].dims());
    in->CopyFromCpu(inputs[i].data<float>());
  }
  RETURN_IF_ERROR(rt->Run());
  auto out = rt->GetOutput(0);
  Run r;
  r.out.assign(out->data<float>(), out->data<float>() + out->numel());
  r.dims = out->shape();
  r.program = opt.program;
  return r;
}

// A model builder: the op in NHWC form (true) or NCHW form (false); `dims`
// is the input's NCHW dims. Weights are drawn in the same order either way.
using Builder = std::function<TestModel(bool nhwc, const DDim& nchw_dims)>;

DDim Layout(const DDim& nchw, bool nhwc) {
  if (!nhwc) return nchw;
  DDim d;
  Permute(std::vector<float>(Product(nchw)), nchw, ToLast(nchw.size()), &d);
  return d;
}

// Runs the NHWC form on every target and compares it with the host NCHW op
// on the transposed input (its output transposed back).
void ExpectMatchesNchw(const std::string& what, const Builder& build, const DDim& nchw,
                       double tol = 2e-4) {
  SCOPED_TRACE(what);
  const TestModel nhwc_model = build(true, nchw);
  const TestModel nchw_model = build(false, nchw);
  const std::vector<Tensor> in = nhwc_model.RandomInputs();
  const size_t rank = nchw.size();
  std::vector<float> x(in[0].data<float>(), in[0].data<float>() + in[0].numel());
  Tensor ref_in;
  DDim ref_dims;
  std::vector<float> xt = Permute(x, in[0].dims(), ToFirst(rank), &ref_dims);
  ref_in.Resize(ref_dims);
  std::copy(xt.begin(), xt.end(), ref_in.mutable_data<float>());
  auto ref = RunWith(nchw_model, {}, {ref_in});
  ASSERT_TRUE(ref.ok()) << ref.status().ToString();
  DDim want_dims;
  const std::vector<float> want =
      Permute(ref->outputs[0], ref->output_dims[0], ToLast(rank), &want_dims);
  double largest = 0;
  for (float v : want) largest = std::max(largest, std::fabs(static_cast<double>(v)));
  EXPECT_GT(largest, 0.05) << "a real signal";
  for (const Target& t : Targets()) {
    auto got = RunOn(nhwc_model, t, in);
    ASSERT_TRUE(got.ok()) << t.name << ": " << got.status().ToString();
    EXPECT_EQ(got->dims, want_dims) << t.name;
    EXPECT_LT(MaxAbsDiff({got->out}, {want}), tol) << t.name;
  }
}

void SetConvAttrs(cpp::OpDesc* op, std::vector<int32_t> strides, std::vector<int32_t> pads,
                  int groups, bool nhwc) {
  op->SetAttr("strides", strides);
  op->SetAttr("paddings", pads);
  op->SetAttr("dilations", std::vector<int32_t>{1, 1});
  op->SetAttr("groups", groups);
  op->SetAttr("data_format", std::string(nhwc ? "NHWC" : "NCHW"));
}

TestModel Conv(const std::string& type, bool nhwc, const DDim& nchw, int64_t out_c, int groups) {
  TestModel m;
  m.Input("x", Layout(nchw, nhwc));
  m.RandomWeight("w", {out_c, nchw[1] / groups, 3, 3}, -0.5f, 0.5f);
  auto& op = m.Op(type, {{"Input", {"x"}}, {"Filter", {"w"}}}, {{"Output", {"y"}}});
  SetConvAttrs(&op, {2, 1}, {1, 0}, groups, nhwc);
  m.Output("y");
  return m;
}

TEST(NhwcToNchwPass, Conv2dAndDepthwise) {
  ExpectMatchesNchw("conv2d", [](bool n, const DDim& d) { return Conv("conv2d", n, d, 4, 1); },
                    {2, 3, 7, 6});
  ExpectMatchesNchw("conv2d groups 2",
                    [](bool n, const DDim& d) { return Conv("conv2d", n, d, 4, 2); },
                    {1, 4, 6, 5});
  ExpectMatchesNchw("depthwise_conv2d",
                    [](bool n, const DDim& d) { return Conv("depthwise_conv2d", n, d, 4, 4); },
                    {1, 4, 6, 7});
}

TEST(NhwcToNchwPass, Conv2dTranspose) {
  // Paddle's conv2d_transpose filter is [Cin, Cout / groups, kh, kw] in both forms.
  ExpectMatchesNchw(
      "conv2d_transpose",
      [](bool n, const DDim& d) {
        TestModel m;
        m.Input("x", Layout(d, n));
        m.RandomWeight("w", {d[1], 2, 3, 3}, -0.5f, 0.5f);
        auto& op = m.Op("conv2d_transpose", {{"Input", {"x"}}, {"Filter", {"w"}}},
                        {{"Output", {"y"}}});
        SetConvAttrs(&op, {2, 2}, {1, 1}, 1, n);
        op.SetAttr("output_padding", std::vector<int32_t>{1, 0});
        m.Output("y");
        return m;
      },
      {1, 3, 4, 5});
}

TEST(NhwcToNchwPass, Pool2d) {
  for (const std::string type : {"max", "avg"}) {
    ExpectMatchesNchw(
        "pool2d " + type,
        [type](bool n, const DDim& d) {
          TestModel m;
          m.Input("x", Layout(d, n));
          auto& op = m.Op("pool2d", {{"X", {"x"}}}, {{"Out", {"y"}}});
          op.SetAttr("pooling_type", type);
          op.SetAttr("ksize", std::vector<int32_t>{3, 2});
          op.SetAttr("strides", std::vector<int32_t>{2, 1});
          op.SetAttr("paddings", std::vector<int32_t>{1, 0});
          op.SetAttr("data_format", std::string(n ? "NHWC" : "NCHW"));
          m.Output("y");
          return m;
        },
        {2, 3, 7, 6});
  }
}

TEST(NhwcToNchwPass, BatchNormOfRanks2To5) {
  // Paddle's batch_norm in NHWC normalizes the last dim ([N, L, C] for
  // BatchNorm1D's NLC, [N, D, H, W, C] for BatchNorm3D's NDHWC).
  for (const DDim& d : std::vector<DDim>{{2, 5}, {2, 5, 3}, {1, 5, 3, 4}, {1, 3, 2, 3, 4}}) {
    ExpectMatchesNchw(
        "batch_norm rank " + std::to_string(d.size()),
        [](bool n, const DDim& dims) {
          TestModel m;
          m.Input("x", Layout(dims, n));
          AddBatchNorm(&m, "x", "y", dims[1]);
          m.program.blocks[0].ops.back().SetAttr("data_layout", std::string(n ? "NHWC" : "NCHW"));
          m.Output("y");
          return m;
        },
        d);
  }
}

TEST(NhwcToNchwPass, Interpolation) {
  struct Case {
    std::string type;
    std::function<void(cpp::OpDesc*)> attrs;
  };
  const std::vector<Case> cases = {
      {"nearest_interp",
       [](cpp::OpDesc* op) {
         op->SetAttr("out_h", 9);
         op->SetAttr("out_w", 4);
         op->SetAttr("align_corners", false);
       }},
      {"bilinear_interp",
       [](cpp::OpDesc* op) {
         op->SetAttr("out_h", 7);
         op->SetAttr("out_w", 10);
         op->SetAttr("align_corners", true);
       }},
      {"nearest_interp_v2",
       [](cpp::OpDesc* op) {
         op->SetAttr("scale", std::vector<float>{2.f, 3.f});
         op->SetAttr("align_corners", false);
       }},
      {"bilinear_interp_v2",
       [](cpp::OpDesc* op) {
         op->SetAttr("out_h", 8);
         op->SetAttr("out_w", 11);
         op->SetAttr("align_corners", false);
         op->SetAttr("align_mode", 0);
       }},
  };
  for (const Case& c : cases) {
    ExpectMatchesNchw(
        c.type,
        [&c](bool n, const DDim& d) {
          TestModel m;
          m.Input("x", Layout(d, n));
          auto& op = m.Op(c.type, {{"X", {"x"}}}, {{"Out", {"y"}}});
          c.attrs(&op);
          op.SetAttr("data_layout", std::string(n ? "NHWC" : "NCHW"));
          m.Output("y");
          return m;
        },
        {2, 3, 4, 5});
  }
}

TEST(NhwcToNchwPass, GroupNorm) {
  for (const DDim& d : std::vector<DDim>{{2, 6, 3, 4}, {2, 6, 5}}) {
    ExpectMatchesNchw(
        "group_norm rank " + std::to_string(d.size()),
        [](bool n, const DDim& dims) {
          TestModel m;
          m.Input("x", Layout(dims, n));
          m.RandomWeight("s", {dims[1]}, 0.5f, 1.5f);
          m.RandomWeight("b", {dims[1]});
          auto& op = m.Op("group_norm", {{"X", {"x"}}, {"Scale", {"s"}}, {"Bias", {"b"}}},
                          {{"Y", {"y"}}, {"Mean", {"mean"}}, {"Variance", {"var"}}});
          op.SetAttr("groups", 3);
          op.SetAttr("epsilon", 1e-5f);
          op.SetAttr("data_layout", std::string(n ? "NHWC" : "NCHW"));
          m.Output("y");
          return m;
        },
        d);
  }
}

TEST(NhwcToNchwPass, PixelShuffleAndUnshuffle) {
  // Paddle orders the channels c * r * r + i * r + j in both forms.
  ExpectMatchesNchw(
      "pixel_shuffle",
      [](bool n, const DDim& d) {
        TestModel m;
        m.Input("x", Layout(d, n));
        auto& op = m.Op("pixel_shuffle", {{"X", {"x"}}}, {{"Out", {"y"}}});
        op.SetAttr("upscale_factor", 2);
        op.SetAttr("data_format", std::string(n ? "NHWC" : "NCHW"));
        m.Output("y");
        return m;
      },
      {1, 8, 3, 2});
  ExpectMatchesNchw(
      "pixel_unshuffle",
      [](bool n, const DDim& d) {
        TestModel m;
        m.Input("x", Layout(d, n));
        auto& op = m.Op("pixel_unshuffle", {{"X", {"x"}}}, {{"Out", {"y"}}});
        op.SetAttr("downscale_factor", 2);
        op.SetAttr("data_format", std::string(n ? "NHWC" : "NCHW"));
        m.Output("y");
        return m;
      },
      {1, 3, 4, 6});
}

// conv -> add of a per-channel bias (Paddle's NHWC conv bias: axis -1) ->
// batch_norm -> relu -> pool, all NHWC.
TestModel Chain(bool nhwc, const DDim& nchw) {
  TestModel m;
  m.Input("x", Layout(nchw, nhwc));
  m.RandomWeight("w", {6, nchw[1], 3, 3}, -0.5f, 0.5f);
  auto& conv = m.Op("conv2d", {{"Input", {"x"}}, {"Filter", {"w"}}}, {{"Output", {"c"}}});
  SetConvAttrs(&conv, {1, 1}, {1, 1}, 1, nhwc);
  m.RandomWeight("bias", {6});
  m.Op("elementwise_add", {{"X", {"c"}}, {"Y", {"bias"}}}, {{"Out", {"cb"}}})
      .SetAttr("axis", nhwc ? -1 : 1);
  AddBatchNorm(&m, "cb", "bn", 6);
  m.program.blocks[0].ops.back().SetAttr("data_layout", std::string(nhwc ? "NHWC" : "NCHW"));
  m.Op("relu", {{"X", {"bn"}}}, {{"Out", {"r"}}});
  auto& pool = m.Op("pool2d", {{"X", {"r"}}}, {{"Out", {"y"}}});
  pool.SetAttr("pooling_type", std::string("max"));
  pool.SetAttr("ksize", std::vector<int32_t>{2, 2});
  pool.SetAttr("strides", std::vector<int32_t>{2, 2});
  pool.SetAttr("paddings", std::vector<int32_t>{0, 0});
  pool.SetAttr("data_format", std::string(nhwc ? "NHWC" : "NCHW"));
  m.Output("y");
  return m;
}

int CountInProgram(const cpp::ProgramDesc& p, const std::string& type, bool all_blocks) {
  int n = 0;
  for (size_t b = 0; b < (all_blocks ? p.blocks.size() : 1); ++b) {
    for (const auto& op : p.blocks[b].ops) n += op.Type() == type;
  }
  return n;
}

TEST(NhwcToNchwPass, ChainPaysOneTransposeAtEachEndAndStillFuses) {
  ExpectMatchesNchw("chain", Chain, {1, 3, 8, 6});
  const TestModel m = Chain(true, {1, 3, 8, 6});
  for (const Target& t : Targets()) {
    SCOPED_TRACE(t.name);
    auto r = RunOn(m, t, m.RandomInputs());
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    // Subgraph bodies (npu) count too: the transposes may run on the device.
    EXPECT_EQ(CountInProgram(r->program, "transpose2", true), 2);
    EXPECT_EQ(CountInProgram(r->program, "batch_norm", true), 0) << "conv + bn fused";
    EXPECT_EQ(CountInProgram(r->program, "elementwise_add", true), 0) << "bias folded";
    EXPECT_EQ(CountInProgram(r->program, "relu", true), 0) << "conv + relu fused";
  }
  auto host = RunWith(m, AllFusionPasses(), m.RandomInputs());
  ASSERT_TRUE(host.ok()) << host.status().ToString();
  EXPECT_EQ(CountOps(host->op_types, "transpose2"), 2);
}

TEST(NhwcToNchwPass, LeavesTheNchwFormAlone) {
  const TestModel m = Chain(false, {1, 3, 8, 6});
  auto r = RunWith(m, {kPass}, m.RandomInputs());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(CountOps(r->op_types, "transpose2"), 0);
  EXPECT_EQ(r->counters.count("rewritten"), 0u);
}

TEST(NhwcToNchwPass, DisabledTheOpsRefuseNhwcClearly) {
  struct Case {
    std::string op, attr;
    TestModel model;
  };
  std::vector<Case> cases;
  cases.push_back({"conv2d", "data_format", Conv("conv2d", true, {1, 3, 5, 5}, 4, 1)});
  {
    TestModel m;
    m.Input("x", {1, 4, 4, 3});
    auto& op = m.Op("pool2d", {{"X", {"x"}}}, {{"Out", {"y"}}});
    op.SetAttr("pooling_type", std::string("avg"));
    op.SetAttr("ksize", std::vector<int32_t>{2, 2});
    op.SetAttr("data_format", std::string("NHWC"));
    m.Output("y");
    cases.push_back({"pool2d", "data_format", m});
  }
  {
    TestModel m;
    m.Input("x", {1, 4, 4, 3});
    AddBatchNorm(&m, "x", "y", 3);
    m.program.blocks[0].ops.back().SetAttr("data_layout", std::string("NHWC"));
    m.Output("y");
    cases.push_back({"batch_norm", "data_layout", m});
  }
  {
    TestModel m;
    m.Input("x", {1, 4, 4, 8});
    auto& op = m.Op("pixel_shuffle", {{"X", {"x"}}}, {{"Out", {"y"}}});
    op.SetAttr("upscale_factor", 2);
    op.SetAttr("data_format", std::string("NHWC"));
    m.Output("y");
    cases.push_back({"pixel_shuffle", "data_format", m});
  }
  for (const Case& c : cases) {
    for (const Target& t : Targets()) {
      SCOPED_TRACE(c.op + " on " + t.name);
      auto r = RunOn(c.model, t, c.model.RandomInputs(), {kPass});
      ASSERT_FALSE(r.ok());
      const std::string& msg = r.status().message();
      EXPECT_NE(msg.find("op " + c.op), std::string::npos) << msg;
      EXPECT_NE(msg.find(c.attr + " 'NHWC' is not supported (NCHW only)"), std::string::npos)
          << msg;
    }
  }
}

}  // namespace
}  // namespace testing
}  // namespace fusion
}  // namespace mir
}  // namespace lite
