// Host conv2d_max_pool against conv2d then pool2d (host kernels, run as two
// ops): same dims and values, with the pool's padding and ceil mode, a fused
// activation and batch 2; and the attach error for a pool without ksize.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

struct Case {
  DDim x;
  int64_t oc;
  std::vector<int> pool_pads;
  bool ceil_mode;
};

void SetConv(OpTester* t, const Case& c, bool fused) {
  t->SetInput<float>("Input", "x", c.x, RandomFloats(Product(c.x), 1));
  t->SetInput<float>("Filter", "f", {c.oc, c.x[1], 3, 3}, RandomFloats(c.oc * c.x[1] * 9, 2));
  t->SetInput<float>("Bias", "b", {c.oc}, RandomFloats(c.oc, 3));
  t->SetOutput(fused ? "Out" : "Output", fused ? "y" : "c");
  t->SetAttr("strides", std::vector<int>{1, 1});
  t->SetAttr("paddings", std::vector<int>{1, 1});
  t->SetAttr("fuse_activation", std::string("leaky_relu"));
  t->SetAttr("fuse_alpha", 0.1f);
  if (fused) {
    t->SetAttr("pool_ksize", std::vector<int>{3, 3});
    t->SetAttr("pool_strides", std::vector<int>{2, 2});
    t->SetAttr("pool_paddings", c.pool_pads);
    t->SetAttr("pool_ceil_mode", c.ceil_mode);
  }
}

std::vector<float> TwoOps(const Case& c, DDim* dims) {
  OpTester conv("conv2d");
  SetConv(&conv, c, false);
  EXPECT_TRUE(conv.Run().ok());
  OpTester pool("pool2d");
  const Tensor& cv = conv.Get("c");
  pool.SetInput<float>("X", "c", cv.dims(), conv.GetData<float>("c"));
  pool.SetOutput("Out", "y");
  pool.SetAttr("pooling_type", std::string("max"));
  pool.SetAttr("ksize", std::vector<int>{3, 3});
  pool.SetAttr("strides", std::vector<int>{2, 2});
  pool.SetAttr("paddings", c.pool_pads);
  pool.SetAttr("ceil_mode", c.ceil_mode);
  EXPECT_TRUE(pool.Run().ok());
  *dims = pool.Get("y").dims();
  return pool.GetData<float>("y");
}

TEST(HostConvMaxPool, MatchesConvThenPool) {
  for (const Case& c : std::vector<Case>{{{1, 3, 13, 11}, 8, {0, 0}, false},
                                         {{2, 5, 10, 9}, 6, {1, 1}, true}}) {
    DDim want_dims;
    const std::vector<float> want = TwoOps(c, &want_dims);
    OpTester fused("conv2d_max_pool");
    SetConv(&fused, c, true);
    Status s = fused.Run();
    ASSERT_TRUE(s.ok()) << s.ToString();
    EXPECT_EQ(fused.Get("y").dims(), want_dims);
    EXPECT_EQ(fused.GetData<float>("y"), want);  // the same kernels: bit-identical
  }
}

TEST(HostConvMaxPool, APoolWithoutKsizeIsAnAttachError) {
  OpTester fused("conv2d_max_pool");
  SetConv(&fused, {{1, 3, 8, 8}, 4, {0, 0}, false}, true);
  fused.desc()->RemoveAttr("pool_ksize");
  Status s = fused.Run();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.ToString().find("ksize"), std::string::npos) << s.ToString();
}

}  // namespace
}  // namespace lite
