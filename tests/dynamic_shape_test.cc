// Dynamic shapes: one predictor runs ppocr_det_en_PP-OCRv3 at 320x320, then
// 640x640 (compared with the ONNX Runtime reference), then 320x320 again,
// which must reproduce the first 320 run exactly (shapes are re-inferred,
// buffers re-sized, nothing stale survives); on host and on x86 (skipped on
// the aarch64 build, which has no x86 target).
#include <gtest/gtest.h>

#include "lite/api/build_targets.h"
#include "lite/api/paddle_api.h"
#include "lite/model_parser/test_models.h"
#include "tools/reference.h"

namespace {

using paddle::lite_api::CreatePaddlePredictor;
using paddle::lite_api::CxxConfig;

// The 640 reference image downsampled 2x (top-left pixel of each 2x2).
std::vector<float> Downsample(const std::string& bytes, int c, int h, int w) {
  const float* src = reinterpret_cast<const float*>(bytes.data());
  std::vector<float> out(c * (h / 2) * (w / 2));
  for (int k = 0; k < c; ++k)
    for (int y = 0; y < h / 2; ++y)
      for (int x = 0; x < w / 2; ++x)
        out[(k * (h / 2) + y) * (w / 2) + x] = src[(k * h + 2 * y) * w + 2 * x];
  return out;
}

std::vector<float> RunAt(paddle::lite_api::PaddlePredictor* p, const std::vector<float>& img,
                         int64_t size) {
  auto in = p->GetInput(0);
  in->Resize({1, 3, size, size});
  in->CopyFromCpu(img.data());
  auto s = p->Run();
  EXPECT_TRUE(s.ok()) << s.ToString();
  auto out = p->GetOutput(0);
  EXPECT_EQ(out->shape(), (std::vector<int64_t>{1, 1, size, size}));
  std::vector<float> v(out->numel());
  out->CopyToCpu(v.data());
  return v;
}

// On host, and on x86 (whose first conv reads the image in NCHW with its
// own kernel, re-planned per shape like the oneDNN ones).
void Det320Then640Then320(const std::vector<lite::Place>& places) {
  const std::string root = lite::SharedModelsDir();
  if (root.empty()) GTEST_SKIP() << lite::kSharedModelsMissing;
  auto ref = lite::tools::LoadReference(root + "/ppocr_det_en_PP-OCRv3/reference");
  ASSERT_TRUE(ref.ok()) << ref.status().ToString();
  CxxConfig config;
  lite::tools::ConfigureModel(*ref, &config);
  config.set_valid_places(places);
  auto predictor = CreatePaddlePredictor<CxxConfig>(config);
  ASSERT_TRUE(predictor.ok()) << predictor.status().ToString();
  auto* p = predictor->get();

  const auto& x640 = ref->inputs[0].bytes;
  std::vector<float> img640(reinterpret_cast<const float*>(x640.data()),
                            reinterpret_cast<const float*>(x640.data()) + x640.size() / 4);
  std::vector<float> img320 = Downsample(x640, 3, 640, 640);

  std::vector<float> first320 = RunAt(p, img320, 320);
  RunAt(p, img640, 640);
  auto checks = lite::tools::CompareOutputs(*ref, *p);
  ASSERT_TRUE(checks.ok()) << checks.status().ToString();
  for (const auto& c : *checks) {
    std::cout << "640: " << lite::tools::FormatCheck(c) << "\n";
    EXPECT_TRUE(c.passed) << lite::tools::FormatCheck(c);
  }
  std::vector<float> second320 = RunAt(p, img320, 320);
  ASSERT_EQ(first320.size(), second320.size());
  EXPECT_TRUE(first320 == second320) << "320 after 640 differs from the first 320 run";
  // The text page is not blank: some probabilities are high.
  float mx = 0;
  for (float v : first320) mx = std::max(mx, v);
  EXPECT_GT(mx, 0.5f);
}

TEST(DynamicShape, PpocrDet320Then640Then320) {
  Det320Then640Then320({lite::Place(lite::TargetType::kHost)});
}

TEST(DynamicShape, PpocrDet320Then640Then320OnX86) {
  if (!lite::TargetInBuild(lite::TargetType::kX86)) GTEST_SKIP() << "no x86 target in this build";
  Det320Then640Then320(
      {lite::Place(lite::TargetType::kX86), lite::Place(lite::TargetType::kHost)});
}

}  // namespace
