// Tests of the shared-model locator used by the real-model tests.
#include "lite/model_parser/test_models.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include "lite/utils/file_util.h"
#include "lite/model_parser/test_util.h"

namespace lite {
namespace {

TEST(TestModels, RepoRootResolvesToTheSourceTree) {
  std::string root = RepoRootFromRunfiles();
  ASSERT_FALSE(root.empty());
  EXPECT_TRUE(IsRegularFile(root + "/WORKSPACE")) << root;
  EXPECT_TRUE(IsRegularFile(root + "/lite/model_parser/model_loader.h")) << root;
  std::cout << "repo root: " << root << "\nshared models: " << SharedModelsDir()
            << std::endl;
}

TEST(TestModels, EnvironmentOverrideWins) {
  const std::string dir = testing_util::MakeTempDir("fake_models");
  ASSERT_EQ(::setenv("LITE_SHARED_MODELS", dir.c_str(), 1), 0);
  EXPECT_EQ(SharedModelsDir(), dir);
  ASSERT_EQ(::setenv("LITE_SHARED_MODELS", (dir + "/absent").c_str(), 1), 0);
  EXPECT_NE(SharedModelsDir(), dir + "/absent");
  ::unsetenv("LITE_SHARED_MODELS");
}

}  // namespace
}  // namespace lite
