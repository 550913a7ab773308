// x86 per-tensor quantization kernels against the host kernels: bit-equal,
// and per-channel quantize_linear declines x86 (it stays on host).
#include <string>
#include <vector>

#include "lite/kernels/x86/x86_test_util.h"

namespace lite {
namespace {

using x86_test::ExpectX86MatchesHost;

TEST(X86Quant, PerTensorOpsEqualHost) {
  for (int round_type : {0, 1}) {
    const std::string what = "round_type " + std::to_string(round_type);
    ExpectX86MatchesHost("fake_quantize_dequantize_moving_average_abs_max",
                         [round_type](OpTester* t) {
                           t->SetInput<float>("X", "x", {2, 3, 4, 5},
                                              RandomFloats(120, 4, -3.f, 3.f));
                           t->SetInput<float>("InScale", "s", {1}, {2.5f});
                           t->SetOutput("Out", "out");
                           t->SetAttr("round_type", round_type);
                         },
                         {"out"}, what, 0.f);
    for (const char* op : {"quantize_linear", "dequantize_linear"}) {
      ExpectX86MatchesHost(op,
                           [round_type](OpTester* t) {
                             t->SetInput<float>("X", "x", {2, 3, 4, 5},
                                                RandomFloats(120, 5, -150.f, 150.f));
                             t->SetInput<float>("Scale", "s", {1}, {100.f});
                             t->SetOutput("Y", "y");
                             t->SetAttr("quant_axis", -1);
                             t->SetAttr("round_type", round_type);
                           },
                           {"y"}, std::string(op) + " " + what, 0.f);
    }
  }
}

// The float kernel takes per-tensor quantize_linear writing float levels;
// the kInt8 one (conv_resize_add_fuse_pass's) only Output_dtype "int8".
TEST(X86Quant, PerChannelDeclinesX86) {
  const KernelDef* x86 = nullptr;
  const KernelDef* x86_levels = nullptr;
  for (const KernelDef* def : KernelRegistry::Global().Find("quantize_linear")) {
    if (def->place.target != TargetType::kX86) continue;
    (def->place.precision == PrecisionType::kInt8 ? x86_levels : x86) = def;
  }
  ASSERT_NE(x86, nullptr);
  ASSERT_NE(x86_levels, nullptr);
  cpp::OpDesc desc("quantize_linear");
  desc.SetAttr("quant_axis", 1);
  auto no_dims = [](const std::string&) { return DDim(); };
  EXPECT_FALSE(x86->Accepts(desc, no_dims));
  EXPECT_FALSE(x86_levels->Accepts(desc, no_dims));
  desc.SetAttr("quant_axis", -1);
  EXPECT_TRUE(x86->Accepts(desc, no_dims));
  EXPECT_FALSE(x86_levels->Accepts(desc, no_dims));
  desc.SetAttr("Output_dtype", std::string("int8"));
  EXPECT_FALSE(x86->Accepts(desc, no_dims));
  EXPECT_TRUE(x86_levels->Accepts(desc, no_dims));
}

}  // namespace
}  // namespace lite
