// The stand-in models build, load and run, and the x86 target (with host
// fallback) gives host's answers within a tolerance on a small input. On
// aarch64 the comparison is against host alone (no x86 target).
#include <gtest/gtest.h>

#include <cmath>

#include "lite/api/paddle_api.h"
#include "lite/model_parser/model_saver.h"
#include "tools/standin_models.h"
#include "tools/tool_util.h"

namespace {

using namespace paddle::lite_api;  // NOLINT

struct Outputs {
  std::vector<std::vector<float>> values;
  std::vector<std::vector<int64_t>> shapes;
};

Outputs RunStandin(const std::string& name, const std::vector<Place>& places,
            const std::vector<int64_t>& shape, double hi = 1) {
  auto m = lite::tools::MakeStandinModel(name);
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  std::string model, params;
  EXPECT_TRUE(lite::SaveCombinedModelToBuffers(m->program, *m->scope, &model, &params).ok());
  CxxConfig config;
  config.set_model_buffer(model.data(), model.size(), params.data(), params.size());
  config.set_valid_places(places);
  config.set_threads(1);
  auto p = CreatePaddlePredictor<CxxConfig>(config);
  EXPECT_TRUE(p.ok()) << name << ": " << p.status().ToString();
  Outputs out;
  if (!p.ok()) return out;
  auto in = (*p)->GetInput(0);
  in->Resize(shape);
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  const auto x = lite::tools::LcgUniform(static_cast<size_t>(n), 11, 0, hi);
  in->CopyFromCpu(x.data());
  auto s = (*p)->Run();
  EXPECT_TRUE(s.ok()) << name << ": " << s.ToString();
  for (size_t i = 0; i < (*p)->GetOutputNames().size(); ++i) {
    auto t = (*p)->GetOutput(static_cast<int>(i));
    out.shapes.push_back(t->shape());
    out.values.push_back(lite::tools::OutputAsFloats(*t));
  }
  return out;
}

void ExpectClose(const Outputs& want, const Outputs& got, const std::string& what) {
  ASSERT_EQ(got.shapes, want.shapes) << what;
  for (size_t i = 0; i < want.values.size(); ++i) {
    for (size_t k = 0; k < want.values[i].size(); ++k) {
      const float a = want.values[i][k], b = got.values[i][k];
      ASSERT_NEAR(b, a, 1e-4 + 1e-3 * std::fabs(a)) << what << " output " << i << " at " << k;
    }
  }
}

// Host's output is finite and not constant (the weights are not degenerate).
void ExpectInformative(const std::vector<float>& v, const std::string& what) {
  ASSERT_FALSE(v.empty()) << what;
  float lo = v[0], hi = v[0];
  for (float f : v) {
    ASSERT_TRUE(std::isfinite(f)) << what;
    lo = std::min(lo, f), hi = std::max(hi, f);
  }
  EXPECT_GT(hi - lo, 1e-3f) << what;
}

class Standin : public ::testing::TestWithParam<std::string> {};

TEST_P(Standin, BuildsRunsAndTargetsAgree) {
  const std::string name = GetParam();
  const std::vector<int64_t> shape = {1, 3, 64, 96};
  const Outputs host = RunStandin(name, {Place(TargetType::kHost)}, shape);
  ASSERT_FALSE(host.values.empty());
  ExpectInformative(host.values[0], name + " on host");
  if (name == "restoration" || name == "portrait_seg") {
    EXPECT_EQ(host.shapes[0], (std::vector<int64_t>{1, name == "restoration" ? 3 : 2, 64, 96}));
  } else {
    ASSERT_EQ(host.shapes.size(), 2u);
    EXPECT_EQ(host.shapes[0][1], 6);  // label, score, 4 corners
    EXPECT_EQ(host.values[1], (std::vector<float>{static_cast<float>(host.shapes[0][0])}));
  }
  if (name == "portrait_seg") {  // the channel softmax: each pixel's 2 classes sum to 1
    const auto& v = host.values[0];
    const size_t plane = 64 * 96;
    for (size_t k = 0; k < plane; ++k) ASSERT_NEAR(v[k] + v[plane + k], 1.f, 1e-5f);
  }
#if defined(__x86_64__)
  const Outputs x86 = RunStandin(name, {Place(TargetType::kX86), Place(TargetType::kHost)}, shape);
  ExpectClose(host, x86, name + " x86,host against host");
#endif
  // Deterministic bytes: building twice gives the same program and weights.
  std::string m1, p1, m2, p2;
  auto a = lite::tools::MakeStandinModel(name), b = lite::tools::MakeStandinModel(name);
  ASSERT_TRUE(lite::SaveCombinedModelToBuffers(a->program, *a->scope, &m1, &p1).ok());
  ASSERT_TRUE(lite::SaveCombinedModelToBuffers(b->program, *b->scope, &m2, &p2).ok());
  EXPECT_EQ(m1, m2);
  EXPECT_EQ(p1, p2);
}

INSTANTIATE_TEST_SUITE_P(Families, Standin,
                         ::testing::Values("restoration", "face_detector", "portrait_seg"));

// The classic conv nets (tools/standin_classic.h): googlenet at a small map
// (its global pool takes any size), dqn at its fixed 84x84 of 0..255 values.
TEST(Standin, ClassicNetsRunAndTargetsAgree) {
  struct Case {
    std::string name;
    std::vector<int64_t> shape, out;
    double hi;
  };
  for (const Case& c : {Case{"googlenet", {1, 3, 64, 64}, {1, 1000}, 1},
                        Case{"dqn", {1, 4, 84, 84}, {1, 6}, 255}}) {
    const Outputs host = RunStandin(c.name, {Place(TargetType::kHost)}, c.shape, c.hi);
    ASSERT_EQ(host.shapes.size(), 1u) << c.name;
    EXPECT_EQ(host.shapes[0], c.out) << c.name;
    ExpectInformative(host.values[0], c.name + " on host");
    if (c.name == "googlenet") {  // the softmax: the probabilities sum to 1
      double sum = 0;
      for (float v : host.values[0]) sum += v;
      EXPECT_NEAR(sum, 1.0, 1e-4);
    }
#if defined(__x86_64__)
    const Outputs x86 =
        RunStandin(c.name, {Place(TargetType::kX86), Place(TargetType::kHost)}, c.shape, c.hi);
    ExpectClose(host, x86, c.name + " x86,host against host");
#endif
  }
}

TEST(Standin, UnknownNameIsAnError) {
  auto m = lite::tools::MakeStandinModel("nafnet");
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("'nafnet'"), std::string::npos);
  EXPECT_NE(m.status().message().find("restoration"), std::string::npos);
}

}  // namespace
