// A valid place naming a target the build lacks fails: the aarch64 build
// (--config=aarch64) refuses x86 with a message naming the target and the
// build, from OptimizeProgram (opt, the full predictor) and CxxConfig; the
// x86-64 build accepts x86 and places ops on it. One file for both builds:
// the branch is the compiler's own __aarch64__, not the function under test.
#include <gtest/gtest.h>

#include "lite/api/build_targets.h"
#include "lite/api/optimizer.h"
#include "lite/api/paddle_api.h"
#include "lite/core/program.h"
#include "lite/model_parser/model_saver.h"
#include "tools/default_model.h"

namespace lite {
namespace {

constexpr char kRefused[] =
    "valid place x86 is not available in this build (aarch64: built without the x86 target); "
    "use arm,host or host";

std::vector<Place> X86Host() { return {Place(TargetType::kX86), Place(TargetType::kHost)}; }

TEST(BuildTargets, HostNpuArmAreInEveryBuild) {
  EXPECT_TRUE(TargetInBuild(TargetType::kHost));
  EXPECT_TRUE(TargetInBuild(TargetType::kNPU));
  EXPECT_TRUE(TargetInBuild(TargetType::kARM));
  Status s = CheckPlacesInBuild(
      {Place(TargetType::kNPU), Place(TargetType::kARM), Place(TargetType::kHost)});
  EXPECT_TRUE(s.ok()) << s.ToString();
}

TEST(BuildTargets, OptimizeProgramOnX86Places) {
  tools::DefaultModel m = tools::MakeDefaultModel();
  OptimizeOptions options;
  options.valid_places = X86Host();
  auto optimized = OptimizeProgram(m.program, m.scope.get(), options);
#if defined(__aarch64__)
  EXPECT_FALSE(TargetInBuild(TargetType::kX86));
  ASSERT_FALSE(optimized.ok());
  EXPECT_EQ(optimized.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(optimized.status().message(), kRefused);
#else
  EXPECT_TRUE(TargetInBuild(TargetType::kX86));
  ASSERT_TRUE(optimized.ok()) << optimized.status().ToString();
  int on_x86 = 0;
  for (const cpp::OpDesc& op : optimized->program.blocks[0].ops) {
    on_x86 += op.GetAttr<std::string>(kKernelKeyAttr, "").find("/x86/") != std::string::npos;
  }
  EXPECT_GT(on_x86, 0) << "x86 accepted but no op placed on it";
#endif
}

TEST(BuildTargets, CxxConfigOnX86Places) {
  tools::DefaultModel m = tools::MakeDefaultModel();
  std::string model, params;
  ASSERT_TRUE(SaveCombinedModelToBuffers(m.program, *m.scope, &model, &params).ok());
  paddle::lite_api::CxxConfig config;
  config.set_model_buffer(model.data(), model.size(), params.data(), params.size());
  config.set_valid_places(X86Host());
  auto predictor = paddle::lite_api::CreatePaddlePredictor<paddle::lite_api::CxxConfig>(config);
#if defined(__aarch64__)
  ASSERT_FALSE(predictor.ok());
  EXPECT_NE(predictor.status().message().find(kRefused), std::string::npos)
      << predictor.status().ToString();
#else
  EXPECT_TRUE(predictor.ok()) << predictor.status().ToString();
#endif
}

}  // namespace
}  // namespace lite
