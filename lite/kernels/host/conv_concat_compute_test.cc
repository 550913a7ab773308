// Host conv2d_concat against two conv2d ops and a concat (host kernels, run
// as separate ops): same dims and values, bit for bit, with different kernel
// sizes, activations and batch 2; and the attach error for a conv count that
// does not match the inputs.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

const DDim kX{2, 5, 9, 7};
const int64_t kOc[] = {3, 6};

void SetConv(OpTester* t, int i, const std::string& prefix) {
  const int k = i == 0 ? 1 : 3;
  const std::string s = std::to_string(i);
  t->SetInput<float>("Input", "x", kX, RandomFloats(Product(kX), 1));
  t->SetInput<float>("Filter", "f" + s, {kOc[i], kX[1], k, k},
                     RandomFloats(kOc[i] * kX[1] * k * k, 2 + i));
  t->SetInput<float>("Bias", "b" + s, {kOc[i]}, RandomFloats(kOc[i], 4 + i));
  t->SetAttr(prefix + "strides", std::vector<int>{1, 1});
  t->SetAttr(prefix + "paddings", std::vector<int>{k / 2, k / 2});
  t->SetAttr(prefix + "fuse_activation", std::string(i == 0 ? "relu" : "leaky_relu"));
  t->SetAttr(prefix + "fuse_alpha", 0.1f);
}

TEST(HostConvConcat, MatchesConvsThenConcat) {
  OpTester concat("concat");
  for (int i = 0; i < 2; ++i) {
    OpTester conv("conv2d");
    SetConv(&conv, i, "");
    conv.SetOutput("Output", "y");
    ASSERT_TRUE(conv.Run().ok());
    concat.SetInput<float>("X", "y" + std::to_string(i), conv.Get("y").dims(),
                           conv.GetData<float>("y"));
  }
  concat.SetOutput("Out", "out");
  concat.SetAttr("axis", 1);
  ASSERT_TRUE(concat.Run().ok());

  OpTester fused("conv2d_concat");
  for (int i = 0; i < 2; ++i) SetConv(&fused, i, "conv" + std::to_string(i) + "_");
  fused.SetOutput("Out", "out");
  fused.SetAttr("axis", 1);
  fused.SetAttr("conv_count", 2);
  Status s = fused.Run();
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(fused.Get("out").dims(), concat.Get("out").dims());
  EXPECT_EQ(fused.GetData<float>("out"), concat.GetData<float>("out"));
}

TEST(HostConvConcat, AConvCountThatDoesNotMatchIsAnAttachError) {
  OpTester fused("conv2d_concat");
  for (int i = 0; i < 2; ++i) SetConv(&fused, i, "conv" + std::to_string(i) + "_");
  fused.SetOutput("Out", "out");
  fused.SetAttr("conv_count", 3);
  Status s = fused.Run();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.ToString().find("conv_count"), std::string::npos) << s.ToString();
}

}  // namespace
}  // namespace lite
