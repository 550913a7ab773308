// Shared by the NPU end-to-end tests (npu_compiled_test, npu_split_test):
// the generated default model saved once per name under $TEST_TMPDIR, and
// one run of a predictor on a generated 1x3xSxS input. Header only.
#pragma once

#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "lite/api/paddle_api.h"
#include "lite/model_parser/model_saver.h"
#include "tools/default_model.h"
#include "tools/tool_util.h"

namespace npu_test {

inline std::string TempDir() {
  const char* t = std::getenv("TEST_TMPDIR");
  return t ? t : "/tmp";
}

// The default model as a combined model in TempDir()/name (written each call).
inline std::string SaveDefaultModel(const std::string& name) {
  const std::string d = TempDir() + "/" + name;
  auto m = lite::tools::MakeDefaultModel();
  EXPECT_TRUE(lite::tools::MakeDirs(d).ok());
  lite::Status s =
      lite::SaveCombinedModel(m.program, *m.scope, d + "/__model__", d + "/__params__");
  EXPECT_TRUE(s.ok()) << s.ToString();
  return d;
}

// Feeds a deterministic 1x3xSxS input, runs, returns output 0.
inline std::vector<float> RunOnce(paddle::lite_api::PaddlePredictor* p, int size = 32) {
  auto in = p->GetInput(0);
  in->Resize({1, 3, size, size});
  std::vector<float> x = lite::tools::LcgUniform(static_cast<size_t>(3) * size * size, 7, -1, 1);
  in->CopyFromCpu(x.data());
  lite::Status s = p->Run();
  EXPECT_TRUE(s.ok()) << s.ToString();
  auto out = p->GetOutput(0);
  std::vector<float> y(out->numel());
  out->CopyToCpu(y.data());
  return y;
}

}  // namespace npu_test
