// The LoD sequence models (textcnn_seqconv_lod, rna_bilstm_lod) fed a LoD
// other than their reference's: the reference rows cut into more, shorter
// sequences. Run together, every sequence's output rows must equal that
// sequence run alone (sequences are independent), and one predictor that
// first ran the reference LoD and then the new LoD over the same row count
// must give what a fresh predictor gives (LoD changes re-infer shapes and
// output LoD); for the full predictor and the light one on the optimized .nb.
// Needs ../shared/models.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "lite/api/paddle_api.h"
#include "lite/model_parser/test_models.h"
#include "lite/model_parser/test_util.h"
#include "tools/reference.h"

namespace {

using paddle::lite_api::CreatePaddlePredictor;
using paddle::lite_api::CxxConfig;
using paddle::lite_api::MobileConfig;
using paddle::lite_api::ModelType;
using paddle::lite_api::PaddlePredictor;

struct Output {
  std::vector<int64_t> shape;
  std::vector<float> data;
  std::vector<std::vector<uint64_t>> lod;
};

// Feeds rows [begin, end) of every reference input (int64, rows along dim
// 0) with LoD `level` (offsets relative to begin), runs, returns output 0.
Output RunRows(const lite::tools::Reference& ref, PaddlePredictor* p,
               const std::vector<uint64_t>& level, int64_t begin, int64_t end) {
  for (const auto& in : ref.inputs) {
    EXPECT_EQ(in.dtype, "int64") << in.name;
    auto t = p->GetInputByName(in.name);
    EXPECT_TRUE(t.ok()) << t.status().ToString();
    const int64_t width = static_cast<int64_t>(in.bytes.size() / 8) / in.shape[0];
    std::vector<int64_t> shape = in.shape;
    shape[0] = end - begin;
    std::vector<int64_t> rows((end - begin) * width);
    std::memcpy(rows.data(), in.bytes.data() + begin * width * 8, rows.size() * 8);
    (*t)->Resize(shape);
    (*t)->CopyFromCpu(rows.data());
    (*t)->SetLoD({level});
  }
  lite::Status s = p->Run();
  EXPECT_TRUE(s.ok()) << s.ToString();
  auto t = p->GetOutput(0);
  Output out;
  out.shape = t->shape();
  out.lod = t->lod();
  const float* d = t->data<float>();
  if (d) out.data.assign(d, d + t->numel());
  return out;
}

// Output rows of sequence s: its LoD range when the output keeps the LoD,
// else row s (one pooled row per sequence).
std::pair<int64_t, int64_t> SequenceRows(const Output& o, size_t s) {
  if (!o.lod.empty()) return {o.lod.back()[s], o.lod.back()[s + 1]};
  return {static_cast<int64_t>(s), static_cast<int64_t>(s) + 1};
}

class SequenceModels : public ::testing::TestWithParam<std::string> {};

TEST_P(SequenceModels, ShorterSequencesKeepTheirValues) {
  const std::string models = lite::SharedModelsDir();
  if (models.empty()) GTEST_SKIP() << lite::kSharedModelsMissing;
  auto ref = lite::tools::LoadReference(models + "/" + GetParam() + "/reference");
  ASSERT_TRUE(ref.ok()) << ref.status().ToString();
  const int64_t rows = ref->inputs[0].shape[0];
  const std::vector<uint64_t> reference_level = ref->inputs[0].lod.back();
  std::vector<uint64_t> level{0};  // lengths 7, 2, 11, 5, 7, 2, ... cut at `rows`
  const uint64_t lengths[] = {7, 2, 11, 5};
  for (size_t i = 0; level.back() < static_cast<uint64_t>(rows); ++i) {
    level.push_back(std::min<uint64_t>(level.back() + lengths[i % 4], rows));
  }
  ASSERT_GT(level.size(), reference_level.size());

  CxxConfig config;
  lite::tools::ConfigureModel(*ref, &config);
  auto p = CreatePaddlePredictor<CxxConfig>(config);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  auto fresh = CreatePaddlePredictor<CxxConfig>(config);
  ASSERT_TRUE(fresh.ok()) << fresh.status().ToString();
  // The light predictor on the optimized .nb must behave the same.
  const std::string nb = lite::testing_util::MakeTempDir("seq_models_" + GetParam()) + "/model";
  ASSERT_TRUE((*p)->SaveOptimizedModel(nb, ModelType::kNaiveBuffer).ok());
  MobileConfig mobile;
  mobile.set_model_from_file(nb + ".nb");
  auto light = CreatePaddlePredictor<MobileConfig>(mobile);
  ASSERT_TRUE(light.ok()) << light.status().ToString();

  for (PaddlePredictor* pred : {p->get(), light->get()}) {
    SCOPED_TRACE(pred == p->get() ? "full predictor" : "light predictor");
    const Output first = RunRows(*ref, pred, reference_level, 0, rows);
    const Output together = RunRows(*ref, pred, level, 0, rows);
    const Output fresh_out = RunRows(*ref, fresh->get(), level, 0, rows);
    EXPECT_TRUE(first.shape != together.shape || first.lod != together.lod)
        << "the new LoD changed neither the output shape nor its LoD";
    EXPECT_EQ(together.shape, fresh_out.shape);
    EXPECT_EQ(together.lod, fresh_out.lod);
    EXPECT_EQ(together.data, fresh_out.data);
    if (!together.lod.empty()) {
      EXPECT_EQ(together.lod, (std::vector<std::vector<uint64_t>>{level}));
    }

    const int64_t width = together.shape.size() > 1 ? together.shape[1] : 1;
    double max_diff = 0;
    for (size_t s = 0; s + 1 < level.size(); ++s) {
      const Output alone =
          RunRows(*ref, pred, {0, level[s + 1] - level[s]}, level[s], level[s + 1]);
      const auto [b, e] = SequenceRows(together, s);
      ASSERT_EQ(static_cast<int64_t>(alone.data.size()), (e - b) * width) << "sequence " << s;
      for (int64_t i = 0; i < (e - b) * width; ++i) {
        const double diff = std::fabs(alone.data[i] - together.data[b * width + i]);
        max_diff = std::max(max_diff, diff);
        ASSERT_LE(diff, 1e-5) << "sequence " << s << " element " << i;
      }
    }
    std::cout << GetParam() << (pred == p->get() ? " (full): " : " (light): ")
              << level.size() - 1 << " sequences, alone vs together max |diff| " << max_diff
              << "\n";
  }
}

INSTANTIATE_TEST_SUITE_P(SharedModels, SequenceModels,
                         ::testing::Values("textcnn_seqconv_lod", "rna_bilstm_lod"));

}  // namespace
