// Shapes inferred at load (InferShapeAheadStep, lite/core/program.h) stop at
// an extent an earlier op leaves unknown: range over fill_constant values
// gives [-1] before the first run, and the matmul_v2 after it must not be
// rejected at load for "mismatched inner dims 8 vs -1" (PP-PicoDet's
// distribution projection exports this way). The model loads and runs.
#include <gtest/gtest.h>

#include "lite/api/paddle_api.h"
#include "lite/model_parser/model_saver.h"
#include "tools/program_builder.h"
#include "tools/tool_util.h"

namespace {

using namespace paddle::lite_api;  // NOLINT

lite::tools::BuiltProgram RangeThenMatMul() {
  lite::tools::ProgramBuilder b(1);
  b.Feed("x", {-1, 4, 8});
  const char* names[] = {"start", "end", "step"};
  const float values[] = {0.f, 8.f, 1.f};
  for (int i = 0; i < 3; ++i) {
    b.Activation(names[i], {1});
    auto& fill = b.Op("fill_constant");
    fill.SetOutput("Out", {names[i]});
    fill.SetAttr("shape", std::vector<int64_t>{1});
    fill.SetAttr("dtype", 5);  // float32
    fill.SetAttr("value", values[i]);
    fill.SetAttr("str_value", std::string(""));
    fill.SetAttr("force_cpu", false);
  }
  b.Activation("bins", {8});
  auto& range = b.Op("range");
  range.SetInput("Start", {"start"});
  range.SetInput("End", {"end"});
  range.SetInput("Step", {"step"});
  range.SetOutput("Out", {"bins"});
  b.Activation("y", {-1, 4});
  auto& mm = b.Op("matmul_v2");
  mm.SetInput("X", {"x"});
  mm.SetInput("Y", {"bins"});
  mm.SetOutput("Out", {"y"});
  mm.SetAttr("trans_x", false);
  mm.SetAttr("trans_y", false);
  b.Fetch("y");
  return b.Finish();
}

TEST(ShapeAhead, UnknownExtentFromRangeLoadsAndRuns) {
  auto m = RangeThenMatMul();
  std::string model, params;
  ASSERT_TRUE(lite::SaveCombinedModelToBuffers(m.program, *m.scope, &model, &params).ok());
  CxxConfig config;
  config.set_model_buffer(model.data(), model.size(), params.data(), params.size());
  config.set_valid_places({Place(TargetType::kHost)});
  auto p = CreatePaddlePredictor<CxxConfig>(config);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  const std::vector<float> x = lite::tools::LcgUniform(2 * 4 * 8, 3, -1, 1);
  auto in = (*p)->GetInput(0);
  in->Resize({2, 4, 8});
  in->CopyFromCpu(x.data());
  ASSERT_TRUE((*p)->Run().ok());
  auto out = (*p)->GetOutput(0);
  ASSERT_EQ(out->shape(), (std::vector<int64_t>{2, 4}));
  const std::vector<float> y = lite::tools::OutputAsFloats(*out);
  for (int r = 0; r < 8; ++r) {
    float want = 0;
    for (int k = 0; k < 8; ++k) want += x[static_cast<size_t>(r * 8 + k)] * static_cast<float>(k);
    EXPECT_NEAR(y[static_cast<size_t>(r)], want, 1e-4f) << "row " << r;
  }
}

}  // namespace
