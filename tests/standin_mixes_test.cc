// The family stand-ins (tools/standin_families.h: vit, yolov3, mobilenetv2,
// ernie, unet, picodet) on every target mix (tests/target_mixes.h, plus
// arm,host): the full predictor and the light predictor (after saving .nb)
// give the host full predictor's outputs within a tolerance. The detectors'
// kept boxes are compared as a set per image (NMS leaves them in score order,
// which near-equal scores may swap): each host row must match one row of the
// same image and label within the tolerance, and the per-image counts must be
// equal. unet's arg_max labels must equal host's wherever host's top two
// probabilities are further apart than the tolerance (a near tie may go
// either way), and its probabilities match within the tolerance. Each predictor runs twice (another shape or batch the second time).
// Not strict: an op a device refuses runs on host. One test case per mix, so
// a failure names its mix; small inputs, so it stays fast. Mixes outside the
// build (x86 on aarch64) skip.
#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "lite/api/build_targets.h"
#include "lite/api/paddle_api.h"
#include "lite/model_parser/model_saver.h"
#include "tests/target_mixes.h"
#include "tests/test_util.h"
#include "tools/standin_families.h"
#include "tools/tool_util.h"

namespace {

using lite::test_util::Mix;
using paddle::lite_api::CreatePaddlePredictor;
using paddle::lite_api::CxxConfig;
using paddle::lite_api::DataType;
using paddle::lite_api::MobileConfig;
using paddle::lite_api::PaddlePredictor;
using paddle::lite_api::Place;
using paddle::lite_api::TargetType;

struct Input {
  std::vector<int64_t> shape;
  std::vector<float> values;
  std::vector<int64_t> ids;  // int64 inputs (ernie's) instead of values
};

// Each predictor runs twice, on two input sets, so a second shape (or
// batch) on a warm predictor is covered too.
constexpr int kRuns = 2;

// The inputs of a stand-in's run `run`, by feed name: vit a batch of 2 then 1
// (its cls token follows the run-time batch), yolov3 one 64x96 image then a
// batch of two 96x64 ones (resized by 0.5), mobilenetv2 64x64 then 96x96,
// ernie 2 sequences of 8 tokens then 1 of 16 (each ending in pads, id 0),
// unet 32x48 then a batch of two 48x32, picodet one 64x64 image then two.
std::map<std::string, Input> Inputs(const std::string& model, int run) {
  auto image = [run](std::vector<int64_t> shape) {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return Input{shape, lite::tools::LcgUniform(static_cast<size_t>(n), 21 + run, 0, 1), {}};
  };
  if (model == "vit") return {{"x", image({run == 0 ? 2 : 1, 3, 64, 64})}};
  if (model == "ernie") {
    const int64_t batch = run == 0 ? 2 : 1, len = run == 0 ? 8 : 16;
    Input ids{{batch, len}, {}, {}}, types{{batch, len}, {}, {}};
    const auto r = lite::tools::LcgUniform(static_cast<size_t>(batch * len), 31 + run, 1, 63);
    for (int64_t i = 0; i < batch; ++i) {
      for (int64_t t = 0; t < len; ++t) {
        const bool pad = t >= len - 2 - i - run * 3;
        ids.ids.push_back(pad ? 0 : static_cast<int64_t>(r[static_cast<size_t>(i * len + t)]));
        types.ids.push_back(t >= len / 2 ? 1 : 0);
      }
    }
    return {{"input_ids", ids}, {"token_type_ids", types}};
  }
  if (model == "unet") {
    return {{"x", run == 0 ? image({1, 3, 32, 48}) : image({2, 3, 48, 32})}};
  }
  if (model == "picodet") {
    if (run == 0) {
      return {{"image", image({1, 3, 64, 64})}, {"scale_factor", Input{{1, 2}, {0.5f, 0.5f}, {}}}};
    }
    return {{"image", image({2, 3, 64, 64})},
            {"scale_factor", Input{{2, 2}, {0.5f, 0.25f, 1.f, 1.f}, {}}}};
  }
  if (model == "yolov3") {
    if (run == 0) {
      return {{"image", image({1, 3, 64, 96})},
              {"im_shape", Input{{1, 2}, {64.f, 96.f}, {}}},
              {"scale_factor", Input{{1, 2}, {0.5f, 0.5f}, {}}}};
    }
    return {{"image", image({2, 3, 96, 64})},
            {"im_shape", Input{{2, 2}, {96.f, 64.f, 96.f, 64.f}, {}}},
            {"scale_factor", Input{{2, 2}, {0.5f, 0.5f, 0.5f, 0.5f}, {}}}};
  }
  return {{"x", image({1, 3, run == 0 ? 64 : 96, run == 0 ? 64 : 96})}};
}

struct Outputs {
  std::vector<std::vector<int64_t>> shapes;
  std::vector<std::vector<float>> values;  // int32 / int64 outputs widened
};

bool IsDetector(const std::string& model) { return model == "yolov3" || model == "picodet"; }

// Feeds the model's inputs, runs, and reads every output; failures are
// reported as test failures and give empty outputs.
Outputs RunModel(PaddlePredictor* p, const std::string& model, int run,
                 const std::string& what) {
  Outputs out;
  for (const auto& [name, in] : Inputs(model, run)) {
    auto t = p->GetInputByName(name);
    if (!t.ok()) {
      ADD_FAILURE() << what << ": " << t.status().ToString();
      return out;
    }
    (*t)->Resize(in.shape);
    if (in.ids.empty()) {
      (*t)->CopyFromCpu(in.values.data());
    } else {
      (*t)->CopyFromCpu(in.ids.data());
    }
  }
  const auto s = p->Run();
  if (!s.ok()) {
    ADD_FAILURE() << what << ": " << s.ToString();
    return out;
  }
  for (size_t i = 0; i < p->GetOutputNames().size(); ++i) {
    auto t = p->GetOutput(static_cast<int>(i));
    out.shapes.push_back(t->shape());
    out.values.push_back(lite::tools::OutputAsFloats(*t));
  }
  return out;
}

bool Close(float want, float got) { return std::fabs(got - want) <= 1e-3f + 1e-3f * std::fabs(want); }

void ExpectClose(const Outputs& want, const Outputs& got, const std::string& what) {
  ASSERT_EQ(got.shapes, want.shapes) << what;
  for (size_t i = 0; i < want.values.size(); ++i) {
    for (size_t k = 0; k < want.values[i].size(); ++k) {
      ASSERT_TRUE(Close(want.values[i][k], got.values[i][k]))
          << what << " output " << i << " at " << k << ": " << got.values[i][k] << " vs host "
          << want.values[i][k];
    }
  }
}

// unet's labels [N, 1, H, W] (output 0) against host's wherever host's
// probabilities [N, C, H, W] (output 1) do not nearly tie between host's
// label and the one got, and each label the argmax of its own predictor's
// probabilities; the probabilities within the tolerance.
void ExpectSameLabels(const Outputs& want, const Outputs& got, const std::string& what) {
  ASSERT_EQ(got.shapes, want.shapes) << what;
  Outputs probs_want{{want.shapes[1]}, {want.values[1]}};
  Outputs probs_got{{got.shapes[1]}, {got.values[1]}};
  ExpectClose(probs_want, probs_got, what + " probabilities");
  const int64_t c = want.shapes[1][1], hw = want.shapes[1][2] * want.shapes[1][3];
  const auto& p = want.values[1];
  for (size_t i = 0; i < want.values[0].size(); ++i) {
    const int64_t n = static_cast<int64_t>(i) / hw, at = static_cast<int64_t>(i) % hw;
    const auto w = static_cast<int64_t>(want.values[0][i]), g = static_cast<int64_t>(got.values[0][i]);
    ASSERT_TRUE(g >= 0 && g < c) << what << " label " << g << " at " << i;
    for (int64_t k = 0; k < c; ++k) {  // the label got is its own probabilities' argmax
      ASSERT_GE(got.values[1][static_cast<size_t>((n * c + g) * hw + at)],
                got.values[1][static_cast<size_t>((n * c + k) * hw + at)])
          << what << " label " << g << " at " << i << " is not the most probable";
    }
    if (g == w) continue;
    const float pw = p[static_cast<size_t>((n * c + w) * hw + at)];
    const float pg = p[static_cast<size_t>((n * c + g) * hw + at)];
    ASSERT_TRUE(Close(pw, pg)) << what << " label at " << i << ": " << g << " vs host " << w
                               << " (host probabilities " << pg << " vs " << pw << ")";
  }
}

// The detectors' [K, 6] boxes (label, score, x1, y1, x2, y2) as a set per image
// (rows of image i follow those of images before it), and the per-image
// counts equal.
void ExpectSameBoxes(const Outputs& want, const Outputs& got, const std::string& what) {
  ASSERT_EQ(got.shapes, want.shapes) << what;
  ASSERT_EQ(got.values[1], want.values[1]) << what << ": boxes per image";
  const auto& w = want.values[0];
  const auto& g = got.values[0];
  size_t begin = 0;
  for (size_t image = 0; image < want.values[1].size(); ++image) {
    const size_t end = begin + static_cast<size_t>(want.values[1][image]);
    std::vector<bool> used(end, false);
    for (size_t r = begin; r < end; ++r) {
      bool found = false;
      for (size_t c = begin; c < end && !found; ++c) {
        if (used[c] || g[c * 6] != w[r * 6]) continue;
        bool same = true;
        for (int k = 1; k < 6 && same; ++k) same = Close(w[r * 6 + k], g[c * 6 + k]);
        if (same) used[c] = found = true;
      }
      ASSERT_TRUE(found) << what << ": image " << image << ", host box " << r << " (label "
                         << w[r * 6] << ", score " << w[r * 6 + 1] << ") has no match";
    }
    begin = end;
  }
}

struct Buffers {
  std::string model, params;
};

const Buffers& ModelBuffers(const std::string& model) {
  static std::map<std::string, Buffers> cache;
  auto it = cache.find(model);
  if (it != cache.end()) return it->second;
  Buffers b;
  auto m = lite::tools::MakeFamilyStandin(model);
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  if (m.ok()) {
    EXPECT_TRUE(lite::SaveCombinedModelToBuffers(m->program, *m->scope, &b.model, &b.params).ok());
  }
  return cache[model] = b;
}

lite::StatusOr<std::shared_ptr<PaddlePredictor>> Full(const std::string& model, const Mix& mix) {
  const Buffers& b = ModelBuffers(model);
  CxxConfig config;
  config.set_model_buffer(b.model.data(), b.model.size(), b.params.data(), b.params.size());
  std::vector<Place> places;
  for (TargetType t : mix.targets) places.push_back(Place(t));
  config.set_valid_places(places);
  config.set_threads(1);
  if (!mix.driver.empty()) config.set_npu_driver(mix.driver);
  if (mix.plugin) config.set_npu_driver_paths({lite::test_util::SamplePluginDir("standin_plugin")});
  return CreatePaddlePredictor<CxxConfig>(config);
}

// Host's answers (one per run), computed once per model, and checked to be
// informative: logits that differ, boxes kept.
const std::vector<Outputs>& HostOutputs(const std::string& model) {
  static std::map<std::string, std::vector<Outputs>> cache;
  auto it = cache.find(model);
  if (it != cache.end()) return it->second;
  std::vector<Outputs> outs(kRuns);
  auto p = Full(model, Mix{"host", {TargetType::kHost}, ""});
  EXPECT_TRUE(p.ok()) << model << " on host: " << p.status().ToString();
  for (int run = 0; run < kRuns && p.ok(); ++run) {
    outs[run] = RunModel(p->get(), model, run, model + " host");
    if (outs[run].values.empty()) continue;
    const auto& v = outs[run].values[0];
    if (IsDetector(model)) {
      EXPECT_GT(v.size(), 6u) << model << " kept no boxes on host";
    } else {
      EXPECT_GT(*std::max_element(v.begin(), v.end()) - *std::min_element(v.begin(), v.end()),
                1e-2f)
          << model << " gives constant logits on host";
    }
  }
  return cache[model] = outs;
}

// Both runs of `p` against host's.
void ExpectMatchesHost(const std::string& model, PaddlePredictor* p, const std::string& what) {
  for (int run = 0; run < kRuns; ++run) {
    const Outputs& host = HostOutputs(model)[run];
    ASSERT_FALSE(host.values.empty()) << model << " did not run on host";
    const std::string w = what + " run " + std::to_string(run);
    const Outputs got = RunModel(p, model, run, w);
    if (IsDetector(model)) {
      ExpectSameBoxes(host, got, w);
    } else if (model == "unet") {
      ExpectSameLabels(host, got, w);
    } else {
      ExpectClose(host, got, w);
    }
  }
}

// One model on one mix, full then light.
void CheckModel(const std::string& model, const Mix& mix) {
  auto full = Full(model, mix);
  ASSERT_TRUE(full.ok()) << full.status().ToString();
  ExpectMatchesHost(model, full->get(), model + " full");

  const std::string nb = lite::test_util::TempDir() + "/" + model + "_" + mix.name + ".nb";
  const auto saved = (*full)->SaveOptimizedModel(nb, paddle::lite_api::ModelType::kNaiveBuffer);
  ASSERT_TRUE(saved.ok()) << saved.ToString();
  MobileConfig mc;
  mc.set_model_from_file(nb);
  mc.set_threads(1);
  if (mix.plugin) mc.set_npu_driver_paths({lite::test_util::SamplePluginDir("standin_plugin")});
  auto light = CreatePaddlePredictor<MobileConfig>(mc);
  ASSERT_TRUE(light.ok()) << light.status().ToString();
  ExpectMatchesHost(model, light->get(), model + " light");
}

class StandinMixes : public ::testing::TestWithParam<Mix> {};

TEST_P(StandinMixes, EveryFamilyMatchesHostFullAndLight) {
  const Mix& mix = GetParam();
  std::vector<Place> places;
  for (TargetType t : mix.targets) places.push_back(Place(t));
  const lite::Status in_build = lite::CheckPlacesInBuild(places);
  if (!in_build.ok()) GTEST_SKIP() << in_build.message();
  for (const std::string& model : lite::tools::FamilyStandinNames()) {
    SCOPED_TRACE(model + " on " + mix.name);
    CheckModel(model, mix);
  }
}

std::vector<Mix> AllMixes() {
  std::vector<Mix> mixes = lite::test_util::ReadmeMixes();
  mixes.push_back(lite::test_util::ArmMix());
  return mixes;
}

INSTANTIATE_TEST_SUITE_P(Mixes, StandinMixes, ::testing::ValuesIn(AllMixes()),
                         lite::test_util::PrintMix);

}  // namespace
