// Shape buckets (ConfigBase::set_shape_buckets) on the quickstart's default
// model cut at its first max pool ("pool1.out", H and W half the input's:
// conv 3x3 pad 1 -> batch_norm -> relu -> pool 2x2 stride 2). With even input
// sizes, zero padding at the bottom and right changes nothing inside the
// image (the conv pads with zeros there anyway), so the cropped output must
// equal a run without buckets; the stats must show padded runs, hits and
// the one check run; outputs that cannot be cropped are refused with a
// Status and the predictor stays usable; with a memory budget a padded size
// over it is refused and smaller sizes still run and crop; bad settings fail
// creation.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "lite/api/paddle_api.h"
#include "lite/model_parser/model_saver.h"
#include "lite/utils/memory.h"
#include "tools/default_model.h"

namespace {

using namespace paddle::lite_api;  // NOLINT

// The default model fetching "pool1.out" at column 0 and, with `with_prob`,
// its softmax "prob" (which a padded input changes) at column 1.
CxxConfig PoolModelConfig(bool with_prob) {
  lite::tools::DefaultModel m = lite::tools::MakeDefaultModel();
  auto& ops = m.program.blocks[0].ops;
  for (auto& op : ops) {
    if (op.Type() == "fetch") op.SetInput("X", {"pool1.out"});
  }
  if (with_prob) {
    lite::cpp::OpDesc prob = ops.back();
    prob.SetInput("X", {lite::tools::kDefaultModelOutput});
    prob.SetAttr("col", 1);
    ops.push_back(prob);
  }
  std::string model, params;
  EXPECT_TRUE(lite::SaveCombinedModelToBuffers(m.program, *m.scope, &model, &params).ok());
  CxxConfig config;
  config.set_model_buffer(model.data(), model.size(), params.data(), params.size());
  return config;
}

std::shared_ptr<PaddlePredictor> Create(const CxxConfig& config) {
  auto p = CreatePaddlePredictor<CxxConfig>(config);
  EXPECT_TRUE(p.ok()) << p.status().ToString();
  return p.ok() ? *p : nullptr;
}

struct Out {
  shape_t shape;
  std::vector<float> data;
};

// Runs 1 x 3 x h x w of LCG data; output `col`. *status says how it went.
Out RunAt(PaddlePredictor* p, int64_t h, int64_t w, Status* status, int col = 0) {
  const int64_t n = 3 * h * w;
  auto in = p->GetInput(0);
  in->Resize({1, 3, h, w});
  EXPECT_TRUE(in->CopyFromCpu(lite::tools::LcgUniform(n, 7, -1, 1).data(), n).ok());
  *status = p->Run();
  // The caller's input is put back as it was set.
  EXPECT_EQ(p->GetInput(0)->shape(), (shape_t{1, 3, h, w}));
  if (!status->ok()) return {};
  auto out = p->GetOutput(col);
  Out o{out->shape(), std::vector<float>(out->numel())};
  out->CopyToCpu(o.data.data());
  return o;
}

void ExpectSame(const Out& a, const Out& b) {
  ASSERT_EQ(a.shape, b.shape);
  for (size_t i = 0; i < a.data.size(); ++i) {
    ASSERT_NEAR(a.data[i], b.data[i], 1e-5) << "element " << i;
  }
}

TEST(ShapeBuckets, InferredCropMatchesUnbucketedRuns) {
  auto plain = Create(PoolModelConfig(false));
  CxxConfig config = PoolModelConfig(false);
  config.set_shape_buckets(32);
  auto bucketed = Create(config);
  ASSERT_TRUE(plain && bucketed);
  // 40x48 -> 64x64 (a first padded run: checked by one run at 96x96),
  // 62x34 -> 64x64 (a hit), 96x64 (no padding), 34x90 -> 64x96.
  const std::vector<std::pair<int64_t, int64_t>> sizes = {{40, 48}, {62, 34}, {96, 64},
                                                           {34, 90}, {40, 48}};
  for (const auto& hw : sizes) {
    SCOPED_TRACE(std::to_string(hw.first) + "x" + std::to_string(hw.second));
    Status s1, s2;
    Out a = RunAt(plain.get(), hw.first, hw.second, &s1);
    Out b = RunAt(bucketed.get(), hw.first, hw.second, &s2);
    ASSERT_TRUE(s1.ok()) << s1.ToString();
    ASSERT_TRUE(s2.ok()) << s2.ToString();
    EXPECT_EQ(b.shape, (shape_t{1, 8, hw.first / 2, hw.second / 2}));
    ExpectSame(a, b);
  }
  const MemoryStats st = bucketed->GetMemoryStats();
  EXPECT_EQ(st.bucket_multiple, 32);
  EXPECT_EQ(st.bucket_runs, 5);
  EXPECT_EQ(st.bucket_padded_runs, 4);
  EXPECT_EQ(st.bucket_shapes, 3);  // 64x64, 96x64, 64x96
  EXPECT_EQ(st.bucket_hits, 2);    // 62x34 and the second 40x48
  EXPECT_EQ(st.bucket_check_runs, 1);
  EXPECT_NE(st.ToString().find("buckets of 32: 5 runs, 40.0% hits"), std::string::npos)
      << st.ToString();
  EXPECT_EQ(plain->GetMemoryStats().bucket_multiple, 0);
}

TEST(ShapeBuckets, DeclaredCropAndTheLightPredictor) {
  CxxConfig config = PoolModelConfig(true);
  auto full = Create(config);
  ASSERT_TRUE(full);
  ASSERT_TRUE(full->SaveOptimizedModel(::testing::TempDir() + "/buckets", ModelType::kNaiveBuffer)
                  .ok());
  MobileConfig mc;
  mc.set_model_from_file(::testing::TempDir() + "/buckets.nb");
  auto crops = ParseBucketCrops("pool1.out=1/2");
  ASSERT_TRUE(crops.ok()) << crops.status().ToString();
  mc.set_shape_buckets(64, *crops);
  auto light = CreatePaddlePredictor<MobileConfig>(mc);
  ASSERT_TRUE(light.ok()) << light.status().ToString();
  Status s1, s2;
  Out a = RunAt(full.get(), 50, 70, &s1);
  Out b = RunAt(light->get(), 50, 70, &s2);
  ASSERT_TRUE(s1.ok() && s2.ok()) << s1.ToString() << s2.ToString();
  ExpectSame(a, b);
  const MemoryStats st = (*light)->GetMemoryStats();
  EXPECT_EQ(st.bucket_padded_runs, 1);
  EXPECT_EQ(st.bucket_check_runs, 0);  // declared: nothing to check
  // "prob" is not declared: it comes back as the padded run made it.
  EXPECT_EQ((*light)->GetOutput(1)->shape(), (shape_t{1, 10}));
}

TEST(ShapeBuckets, OutputsThatCannotBeCroppedAreRefused) {
  CxxConfig config = PoolModelConfig(true);
  config.set_shape_buckets(32);
  auto p = Create(config);
  ASSERT_TRUE(p);
  Status s;
  RunAt(p.get(), 40, 48, &s);
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("output 'prob' [1, 10]"), std::string::npos) << s.ToString();
  EXPECT_NE(s.message().find("is not 4-D"), std::string::npos) << s.ToString();
  // The padded run's outputs are cleared.
  EXPECT_EQ(p->GetOutput(0)->data<float>(), nullptr);
  EXPECT_EQ(p->GetOutput(1)->data<float>(), nullptr);
  // Still usable: a size on the bucket needs no padding and runs.
  RunAt(p.get(), 64, 32, &s);
  EXPECT_TRUE(s.ok()) << s.ToString();

  // A crop to a fractional extent: 42 x 1/2 is whole, 42x41's W is not.
  CxxConfig one = PoolModelConfig(false);
  one.set_shape_buckets(32);
  auto q = Create(one);
  ASSERT_TRUE(q);
  RunAt(q.get(), 42, 40, &s);
  ASSERT_TRUE(s.ok()) << s.ToString();
  RunAt(q.get(), 42, 41, &s);
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("crop its W to 41 x 1/2, not a whole number"), std::string::npos)
      << s.ToString();
  RunAt(q.get(), 42, 40, &s);
  EXPECT_TRUE(s.ok()) << s.ToString();
}

// Buckets and a budget together: the budget sees the padded input. 2000 x
// 2000 pads to 2016 x 2016 (49 MB as input, its first conv's output 130 MB),
// over a limit of what the process holds plus 96 MB: refused, the caller's
// input left as set (RunAt checks it); then smaller sizes run and crop to
// the same outputs as a predictor with neither option.
TEST(ShapeBuckets, WithABudgetAPaddedSizeOverItIsRefusedAndSmallerOnesStillRun) {
  auto plain = Create(PoolModelConfig(false));
  CxxConfig config = PoolModelConfig(false);
  config.set_shape_buckets(32);
  const int limit_mb = static_cast<int>(lite::ProcessRssBytes() / (1024 * 1024)) + 96;
  config.set_memory_limit_mb(limit_mb);
  auto bucketed = Create(config);
  ASSERT_TRUE(plain && bucketed);
  Status s1, s2;
  ExpectSame(RunAt(plain.get(), 40, 48, &s1), RunAt(bucketed.get(), 40, 48, &s2));
  ASSERT_TRUE(s1.ok() && s2.ok()) << s1.ToString() << s2.ToString();
  RunAt(bucketed.get(), 2000, 2000, &s2);
  ASSERT_FALSE(s2.ok()) << "a 2016 x 2016 run fit under " << limit_mb << " MB";
  EXPECT_EQ(s2.code(), lite::StatusCode::kInvalidArgument) << s2.ToString();
  EXPECT_NE(s2.message().find("[1, 3, 2016, 2016]"), std::string::npos) << s2.ToString();
  EXPECT_NE(s2.message().find("set_memory_limit_mb"), std::string::npos) << s2.ToString();
  EXPECT_EQ(bucketed->GetMemoryStats().budget_refusals, 1);
  for (const auto& hw : std::vector<std::pair<int64_t, int64_t>>{{62, 34}, {40, 48}}) {
    Out a = RunAt(plain.get(), hw.first, hw.second, &s1);
    Out b = RunAt(bucketed.get(), hw.first, hw.second, &s2);
    ASSERT_TRUE(s1.ok() && s2.ok()) << s1.ToString() << s2.ToString();
    EXPECT_EQ(b.shape, (shape_t{1, 8, hw.first / 2, hw.second / 2}));
    ExpectSame(a, b);
  }
}

TEST(ShapeBuckets, BadSettingsFailCreation) {
  CxxConfig config = PoolModelConfig(false);
  config.set_shape_buckets(-64);
  auto p = CreatePaddlePredictor<CxxConfig>(config);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("multiple = -64 is negative"), std::string::npos)
      << p.status().ToString();
  config.set_shape_buckets(64, {{"nope", 1, 1}});
  p = CreatePaddlePredictor<CxxConfig>(config);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), StatusCode::kNotFound);
  EXPECT_NE(p.status().message().find("no output named 'nope' to crop (outputs: pool1.out)"),
            std::string::npos)
      << p.status().ToString();
  EXPECT_FALSE(ParseBucketCrops("a=0/1").ok());
  EXPECT_FALSE(ParseBucketCrops("=1").ok());
  auto ok = ParseBucketCrops("a,b=1/4,c=2");
  ASSERT_TRUE(ok.ok());
  ASSERT_EQ(ok->size(), 3u);
  EXPECT_EQ((*ok)[1].num, 1);
  EXPECT_EQ((*ok)[1].den, 4);
  EXPECT_EQ((*ok)[2].num, 2);
}

}  // namespace
