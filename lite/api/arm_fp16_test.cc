// ApplyArmFp16's filter rule on a two-conv program: the conv whose filter
// keeps most of its magnitude in half subnormals (|w| < 2^-14) stays float32
// (no enable_fp16, float filter), the other becomes fp16 with a float16
// filter, and the summary counts both; HalfSubnormalShare on crafted values.
#include <cmath>

#include <gtest/gtest.h>

#include "lite/api/arm_fp16.h"
#include "lite/backends/arm/xnnpack_util.h"
#include "lite/core/program.h"

namespace lite {
namespace {

TEST(HalfSubnormalShare, SharesOfTheMagnitudeBelowHalfsSmallestNormal) {
  const float tiny = std::ldexp(1.f, -16);  // a half subnormal
  const float normal = std::ldexp(1.f, -14);  // half's smallest normal
  const std::vector<float> w = {tiny, -tiny, normal, 0.f};
  // flushed 2 * 2^-16 of a total 2 * 2^-16 + 2^-14
  EXPECT_NEAR(HalfSubnormalShare(w.data(), w.size()), 1.0 / 3, 1e-12);
  const std::vector<float> none = {0.5f, -1.f, normal};
  EXPECT_EQ(HalfSubnormalShare(none.data(), none.size()), 0);
  const std::vector<float> zeros = {0.f, 0.f};
  EXPECT_EQ(HalfSubnormalShare(zeros.data(), zeros.size()), 0);
}

cpp::OpDesc ArmConv(const std::string& filter, const std::string& out) {
  cpp::OpDesc op("conv2d");
  op.SetInput("Input", {"x"});
  op.SetInput("Filter", {filter});
  op.SetOutput("Output", {out});
  op.SetAttr(kKernelKeyAttr, std::string("conv2d/def/arm/float/NHWC"));
  return op;
}

void AddFilter(const std::string& name, float value, cpp::BlockDesc* b, Scope* scope) {
  Tensor* t = scope->Var(name)->GetMutableTensor();
  t->Resize(DDim({2, 1, 3, 3}));
  float* d = t->mutable_data<float>();
  for (int64_t i = 0; i < t->numel(); ++i) d[i] = (i % 2 ? -value : value) * (1 + i % 3);
  cpp::VarDesc v;
  v.name = name;
  v.persistable = true;
  b->vars.push_back(v);
}

TEST(ApplyArmFp16, KeepsAFilterOfHalfSubnormalsInFloat32) {
  if (!arm::CheckFp16Arithmetic().ok()) GTEST_SKIP() << "no half arithmetic on this CPU";
  cpp::ProgramDesc program;
  program.blocks.resize(1);
  cpp::BlockDesc& b = program.blocks[0];
  Scope scope;
  AddFilter("w_ok", 0.25f, &b, &scope);
  AddFilter("w_tiny", 1e-5f, &b, &scope);  // below 2^-14 = 6.1e-5
  b.ops = {ArmConv("w_ok", "y0"), ArmConv("w_tiny", "y1")};
  auto summary = ApplyArmFp16(&program, 0, &scope);
  ASSERT_TRUE(summary.ok()) << summary.status().ToString();
  EXPECT_EQ(summary->fp16_convs, 1);
  EXPECT_EQ(summary->kept_f32_subnormal_filter, 1);
  EXPECT_TRUE(b.ops[0].GetAttr<bool>("enable_fp16", false));
  EXPECT_FALSE(b.ops[1].HasAttr("enable_fp16"));
  EXPECT_EQ(scope.FindMutableTensor("w_ok")->dtype(), DataType::kFloat16);
  EXPECT_EQ(b.FindVar("w_ok")->dtype, DataType::kFloat16);
  EXPECT_EQ(scope.FindMutableTensor("w_tiny")->dtype(), DataType::kFloat32);
  EXPECT_EQ(b.FindVar("w_tiny")->dtype, DataType::kFloat32);
}

}  // namespace
}  // namespace lite
