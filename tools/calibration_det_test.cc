// The PTQ target on a real model: ppocr_det_en_PP-OCRv3 calibrated (abs_max,
// percentile and kl) on four generated text pages (tools/text_pages.py, seed 1)
// keeps the map binarized at 0.3 within IoU 0.95 of fp32 on four other pages
// (seed 2), every conv2d int8 in the written .nb, run by the light
// predictor on x86. Skips without ../shared/models.
#include <gtest/gtest.h>

#include <cstdlib>

#include "lite/api/optimizer.h"
#include "lite/api/saving.h"
#include "lite/utils/file_util.h"
#include "lite/model_parser/model_loader.h"
#include "lite/model_parser/naive_buffer/naive_buffer.h"
#include "lite/model_parser/test_models.h"
#include "tools/calibration.h"

namespace lite {
namespace tools {
namespace {

const std::vector<Place> kX86 = {Place(TargetType::kX86), Place(TargetType::kHost)};

std::string Tmp() {
  const char* t = std::getenv("TEST_TMPDIR");
  return t ? t : "/tmp";
}

// Pages from tools/text_pages.py (a data file of this test), run by
// Debian's CPython, where tools/setup.sh installs python3-pil.
std::string Pages(int seed, int count) {
  const std::string dir = JoinPath(Tmp(), "pages_" + std::to_string(seed));
  const std::string cmd = "/usr/bin/python3 tools/text_pages.py --out " + dir + " --seed " +
                          std::to_string(seed) + " --count " + std::to_string(count) +
                          " > /dev/null";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd << " (python3-pil: tools/setup.sh)";
  return dir;
}

void CheckMethod(CalibrationMethod method) {
  const std::string dir = SharedModelsDir() + "/ppocr_det_en_PP-OCRv3";
  ModelSource source;
  source.model_file = dir + "/inference.pdmodel";
  source.params_file = dir + "/inference.pdiparams";
  cpp::ProgramDesc program;
  auto root = std::make_shared<Scope>();
  ASSERT_TRUE(LoadModel(source, &program, root.get()).ok());

  auto calib_samples = LoadCalibrationSamples(Pages(1, 4), program, {1, 3, 640, 640});
  ASSERT_TRUE(calib_samples.ok()) << calib_samples.status().ToString();
  auto held_out = LoadCalibrationSamples(Pages(2, 4), program, {1, 3, 640, 640});
  ASSERT_TRUE(held_out.ok()) << held_out.status().ToString();

  CalibrationOptions options;
  options.method = method;
  options.places = kX86;
  auto calib = Calibrate(program, *root, *calib_samples, options, *held_out);
  ASSERT_TRUE(calib.ok()) << calib.status().ToString();
  auto made = InsertFakeQuantOps(calib->scales, options.op_types, &program, root.get());
  ASSERT_TRUE(made.ok()) << made.status().ToString();
  EXPECT_EQ(*made, 57);  // every conv2d; the 15 depthwise convs stay fp32

  OptimizeOptions opt;
  opt.valid_places = kX86;
  auto optimized = OptimizeProgram(program, root.get(), opt);
  ASSERT_TRUE(optimized.ok()) << optimized.status().ToString();
  std::string written;
  ASSERT_TRUE(SaveOptimizedVerified(optimized->program, *root,
                                    JoinPath(Tmp(), CalibrationMethodName(method)),
                                    paddle::lite_api::ModelType::kNaiveBuffer, nullptr, &written)
                  .ok());
  cpp::ProgramDesc loaded;
  Scope loaded_scope;
  ASSERT_TRUE(naive_buffer::LoadFromFile(written, &loaded, &loaded_scope).ok());
  int int8_convs = 0;
  for (const auto& op : loaded.blocks[0].ops) {
    // The head's concat writes int8 levels too (enable_int8): count convs,
    // the FPN's lateral 1x1 convs now inside conv2d_resize_add ops.
    int8_convs += (op.Type() == "conv2d" || op.Type() == "conv2d_resize_add") &&
                  op.GetAttr<bool>("enable_int8", false);
  }
  EXPECT_EQ(int8_convs, 57);

  paddle::lite_api::MobileConfig config;
  config.set_model_from_file(written);
  auto light = paddle::lite_api::CreatePaddlePredictor(config);
  ASSERT_TRUE(light.ok()) << light.status().ToString();
  auto acc = CompareWithFp32(light->get(), *held_out, calib->held_out_outputs);
  ASSERT_TRUE(acc.ok()) << acc.status().ToString();
  ASSERT_EQ(acc->size(), 1u);
  std::cout << CalibrationMethodName(method) << " held-out: " << FormatAccuracy((*acc)[0], 4)
            << "\n";
  EXPECT_TRUE((*acc)[0].is_map);
  EXPECT_GE((*acc)[0].min_iou, 0.95);
}

TEST(CalibrationDet, AbsMaxKeepsTheMapOnHeldOutPages) {
  if (SharedModelsDir().empty()) GTEST_SKIP() << kSharedModelsMissing;
  CheckMethod(CalibrationMethod::kAbsMax);
}

TEST(CalibrationDet, PercentileKeepsTheMapOnHeldOutPages) {
  if (SharedModelsDir().empty()) GTEST_SKIP() << kSharedModelsMissing;
  CheckMethod(CalibrationMethod::kPercentile);
}

TEST(CalibrationDet, KlKeepsTheMapOnHeldOutPages) {
  if (SharedModelsDir().empty()) GTEST_SKIP() << kSharedModelsMissing;
  CheckMethod(CalibrationMethod::kKl);
}

}  // namespace
}  // namespace tools
}  // namespace lite
