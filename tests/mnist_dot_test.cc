// The DOT picture of mnist_mlp_fluid2018 after type_target_cast_pass (kernels picked and placed) renders
// with Graphviz, and two predictors built from the same model give the same
// DOT bytes. Needs ../shared/models (skips without it).
#include <cstdlib>
#include <fstream>

#include <gtest/gtest.h>

#include "lite/api/paddle_api.h"
#include "lite/model_parser/test_models.h"

namespace {

using paddle::lite_api::CreatePaddlePredictor;
using paddle::lite_api::CxxConfig;
using paddle::lite_api::DotDump;

std::string DotAfterGenerate(const std::string& model_dir) {
  CxxConfig config;
  config.set_model_dir(model_dir);
  config.set_dot_dump(DotDump::kNamedPass, "type_target_cast_pass");
  auto p = CreatePaddlePredictor<CxxConfig>(config);
  EXPECT_TRUE(p.ok()) << p.status().ToString();
  if (!p.ok()) return "";
  for (const auto& d : (*p)->GetPassDots()) {
    if (d.pass == "type_target_cast_pass") return d.dot;
  }
  return "";
}

TEST(MnistDot, RendersWithGraphvizAndIsDeterministic) {
  const std::string root = lite::SharedModelsDir();
  if (root.empty()) GTEST_SKIP() << lite::kSharedModelsMissing;
  const std::string dir = root + "/mnist_mlp_fluid2018";
  std::string dot = DotAfterGenerate(dir);
  ASSERT_FALSE(dot.empty());
  EXPECT_EQ(dot, DotAfterGenerate(dir));
  for (const char* op : {"fc", "tanh", "softmax", "feed", "fetch"}) {
    EXPECT_NE(dot.find(std::string("label=\"") + op), std::string::npos) << op;
  }
  if (std::system("command -v dot > /dev/null 2>&1") != 0) {
    GTEST_SKIP() << "graphviz 'dot' not installed";
  }
  const char* tmp = std::getenv("TEST_TMPDIR");
  std::string base = std::string(tmp ? tmp : "/tmp") + "/mnist";
  std::ofstream(base + ".dot") << dot;
  ASSERT_EQ(std::system(("dot -Tsvg " + base + ".dot -o " + base + ".svg").c_str()), 0);
  std::ifstream svg(base + ".svg");
  std::string text((std::istreambuf_iterator<char>(svg)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("<svg"), std::string::npos);
  EXPECT_NE(text.find("softmax"), std::string::npos);
}

}  // namespace
