// A two-stage detection head built as a model: generate_proposals_v2 ->
// roi_align, the proposals' count known only at run time and passed on as
// RoisNum. The full predictor, and the light predictor on the model it
// saved, must equal the two ops run one by one (OpTester), run after run
// with another image size (another proposal count).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lite/api/paddle_api.h"
#include "lite/core/op_tester.h"
#include "lite/model_parser/model_saver.h"
#include "lite/model_parser/test_util.h"

namespace {

using namespace paddle::lite_api;  // NOLINT

constexpr int64_t kA = 2, kH = 4, kW = 5, kC = 3;

struct Inputs {
  std::vector<float> scores, deltas, im_shape, feat;
};

std::vector<float> Anchors() {
  std::vector<float> v;
  for (int h = 0; h < kH; ++h) {
    for (int w = 0; w < kW; ++w) {
      for (int a = 0; a < kA; ++a) {
        const float cx = 8.f * w + 4.f, cy = 8.f * h + 4.f, s = a ? 8.f : 4.f;
        for (float q : {cx - s, cy - s, cx + s, cy + s}) v.push_back(q);
      }
    }
  }
  return v;
}

void SetProposalAttrs(lite::cpp::OpDesc* d) {
  d->SetAttr("pre_nms_topN", 30);
  d->SetAttr("post_nms_topN", 8);
  d->SetAttr("nms_thresh", 0.6f);
  d->SetAttr("min_size", 2.f);
  d->SetAttr("eta", 1.f);
}

void SetAlignAttrs(lite::cpp::OpDesc* d) {
  d->SetAttr("pooled_height", 2);
  d->SetAttr("pooled_width", 2);
  d->SetAttr("spatial_scale", 0.25f);
  d->SetAttr("sampling_ratio", -1);
  d->SetAttr("aligned", true);
}

std::shared_ptr<PaddlePredictor> MakePredictor() {
  lite::cpp::ProgramDesc prog;
  prog.blocks.resize(1);
  auto& b = prog.blocks[0];
  b.vars.push_back(lite::cpp::FeedFetchListVar("feed", lite::cpp::VarKind::kFeedList));
  b.vars.push_back(lite::cpp::FeedFetchListVar("fetch", lite::cpp::VarKind::kFetchList));
  auto var = [&](const std::string& name, std::vector<int64_t> dims, lite::DataType t,
                 bool persistable) {
    lite::cpp::VarDesc v;
    v.name = name;
    v.dims = std::move(dims);
    v.dtype = t;
    v.persistable = persistable;
    b.vars.push_back(v);
  };
  const auto f32 = lite::DataType::kFloat32;
  var("scores", {1, kA, -1, -1}, f32, false);
  var("deltas", {1, 4 * kA, -1, -1}, f32, false);
  var("im_shape", {1, 2}, f32, false);
  var("feat", {1, kC, -1, -1}, f32, false);
  var("anchors", {kH, kW, kA, 4}, f32, true);
  var("variances", {kH, kW, kA, 4}, f32, true);
  var("rois", {-1, 4}, f32, false);
  var("probs", {-1, 1}, f32, false);
  var("rois_num", {-1}, lite::DataType::kInt32, false);
  var("pooled", {-1, kC, 2, 2}, f32, false);
  int col = 0;
  for (const char* in : {"scores", "deltas", "im_shape", "feat"}) {
    b.ops.emplace_back("feed");
    b.ops.back().SetInput("X", {"feed"});
    b.ops.back().SetOutput("Out", {in});
    b.ops.back().SetAttr("col", col++);
  }
  b.ops.emplace_back("generate_proposals_v2");
  auto& gp = b.ops.back();
  gp.SetInput("Scores", {"scores"});
  gp.SetInput("BboxDeltas", {"deltas"});
  gp.SetInput("ImShape", {"im_shape"});
  gp.SetInput("Anchors", {"anchors"});
  gp.SetInput("Variances", {"variances"});
  gp.SetOutput("RpnRois", {"rois"});
  gp.SetOutput("RpnRoiProbs", {"probs"});
  gp.SetOutput("RpnRoisNum", {"rois_num"});
  SetProposalAttrs(&gp);
  b.ops.emplace_back("roi_align");
  auto& ra = b.ops.back();
  ra.SetInput("X", {"feat"});
  ra.SetInput("ROIs", {"rois"});
  ra.SetInput("RoisNum", {"rois_num"});
  ra.SetOutput("Out", {"pooled"});
  SetAlignAttrs(&ra);
  col = 0;
  for (const char* out : {"pooled", "rois"}) {
    b.ops.emplace_back("fetch");
    b.ops.back().SetInput("X", {out});
    b.ops.back().SetOutput("Out", {"fetch"});
    b.ops.back().SetAttr("col", col++);
  }

  lite::Scope scope;
  const std::vector<float> anchors = Anchors();
  for (const char* name : {"anchors", "variances"}) {
    lite::Tensor* t = scope.Var(name)->GetMutableTensor();
    t->Resize({kH, kW, kA, 4});
    float* p = t->mutable_data<float>();
    for (size_t i = 0; i < anchors.size(); ++i) {
      p[i] = std::string(name) == "anchors" ? anchors[i] : (i % 4 < 2 ? 0.1f : 0.2f);
    }
    t->set_persistable(true);
  }
  std::string model, params;
  EXPECT_TRUE(lite::SaveCombinedModelToBuffers(prog, scope, &model, &params).ok());
  CxxConfig config;
  config.set_model_buffer(model.data(), model.size(), params.data(), params.size());
  auto p = CreatePaddlePredictor<CxxConfig>(config);
  EXPECT_TRUE(p.ok()) << p.status().ToString();
  return p.ok() ? *p : nullptr;
}

Inputs MakeInputs(int64_t feat_h, int64_t feat_w, float im_h, float im_w, uint32_t seed) {
  Inputs in;
  in.scores = lite::RandomFloats(kA * kH * kW, seed, 0.f, 1.f);
  in.deltas = lite::RandomFloats(4 * kA * kH * kW, seed + 1, -0.5f, 0.5f);
  in.im_shape = {im_h, im_w};
  in.feat = lite::RandomFloats(kC * feat_h * feat_w, seed + 2, -1.f, 1.f);
  return in;
}

// The two ops one by one: pooled features and proposals.
void RunOpByOp(const Inputs& in, int64_t feat_h, int64_t feat_w, std::vector<float>* pooled,
               std::vector<float>* rois) {
  lite::OpTester gp("generate_proposals_v2");
  gp.SetInput<float>("Scores", "s", {1, kA, kH, kW}, in.scores);
  gp.SetInput<float>("BboxDeltas", "d", {1, 4 * kA, kH, kW}, in.deltas);
  gp.SetInput<float>("ImShape", "im", {1, 2}, in.im_shape);
  gp.SetInput<float>("Anchors", "an", {kH, kW, kA, 4}, Anchors());
  std::vector<float> var;
  for (int i = 0; i < kH * kW * kA * 4; ++i) var.push_back(i % 4 < 2 ? 0.1f : 0.2f);
  gp.SetInput<float>("Variances", "var", {kH, kW, kA, 4}, var);
  gp.SetOutput("RpnRois", "rois");
  gp.SetOutput("RpnRoiProbs", "probs");
  gp.SetOutput("RpnRoisNum", "num");
  SetProposalAttrs(gp.desc());
  ASSERT_TRUE(gp.Run().ok());
  *rois = gp.GetData<float>("rois");
  lite::OpTester ra("roi_align");
  ra.SetInput<float>("X", "x", {1, kC, feat_h, feat_w}, in.feat);
  ra.SetInput<float>("ROIs", "r", gp.Get("rois").dims(), *rois);
  ra.SetInput<int32_t>("RoisNum", "n", {1}, gp.GetData<int32_t>("num"));
  ra.SetOutput("Out", "out");
  SetAlignAttrs(ra.desc());
  ASSERT_TRUE(ra.Run().ok());
  *pooled = ra.GetData<float>("out");
}

void ExpectMatchesOpByOp(PaddlePredictor* predictor, const std::string& which) {
  struct Size {
    int64_t fh, fw;
    float ih, iw;
  };
  // The second image is smaller: more proposals are clipped and filtered.
  for (const Size& sz : {Size{kH, kW, 16.f, 20.f}, Size{kH, kW, 9.f, 11.f}}) {
    const Inputs in = MakeInputs(sz.fh, sz.fw, sz.ih, sz.iw, 21);
    const std::vector<const std::vector<float>*> data = {&in.scores, &in.deltas, &in.im_shape,
                                                         &in.feat};
    const std::vector<shape_t> shapes = {
        {1, kA, kH, kW}, {1, 4 * kA, kH, kW}, {1, 2}, {1, kC, sz.fh, sz.fw}};
    for (int i = 0; i < 4; ++i) {
      auto t = predictor->GetInput(i);
      t->Resize(shapes[i]);
      t->CopyFromCpu(data[i]->data());
    }
    const Status s = predictor->Run();
    ASSERT_TRUE(s.ok()) << which << ": " << s.ToString();
    std::vector<float> want_pooled, want_rois;
    RunOpByOp(in, sz.fh, sz.fw, &want_pooled, &want_rois);
    ASSERT_GT(want_rois.size(), 4u) << "the case should keep several proposals";
    auto pooled = predictor->GetOutput(0);
    auto rois = predictor->GetOutput(1);
    const int64_t k = static_cast<int64_t>(want_rois.size() / 4);
    EXPECT_EQ(rois->shape(), (shape_t{k, 4})) << which;
    EXPECT_EQ(pooled->shape(), (shape_t{k, kC, 2, 2})) << which;
    std::vector<float> got_pooled(pooled->numel()), got_rois(rois->numel());
    pooled->CopyToCpu(got_pooled.data());
    rois->CopyToCpu(got_rois.data());
    EXPECT_EQ(got_rois, want_rois) << which;
    EXPECT_EQ(got_pooled, want_pooled) << which;
  }
}

TEST(TwoStageDetection, BothPredictorsMatchTheOpsOneByOne) {
  auto full = MakePredictor();
  ASSERT_NE(full, nullptr);
  ExpectMatchesOpByOp(full.get(), "full predictor");
  const std::string dir = lite::testing_util::MakeTempDir("two_stage_detection");
  ASSERT_TRUE(full->SaveOptimizedModel(dir + "/m", ModelType::kNaiveBuffer).ok());
  MobileConfig config;
  config.set_model_from_file(dir + "/m.nb");
  auto light = CreatePaddlePredictor<MobileConfig>(config);
  ASSERT_TRUE(light.ok()) << light.status().ToString();
  ExpectMatchesOpByOp(light->get(), "light predictor");
}

}  // namespace
