// fill_constant_batch_size_like, fill_any_like and fill_zeros_like: output
// dims, dtype and values against what the attributes ask for.
#include <gtest/gtest.h>

#include <vector>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

TEST(FillConstantBatchSizeLike, TakesTheBatchFromInput) {
  OpTester t("fill_constant_batch_size_like");
  t.SetInput<float>("Input", "in", {5, 3}, std::vector<float>(15, 1.f));
  t.SetOutput("Out", "out");
  t.SetAttr("shape", std::vector<int32_t>{-1, 4});
  t.SetAttr("value", 2.5f);
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dims(), (DDim{5, 4}));
  EXPECT_EQ(t.GetData<float>("out"), std::vector<float>(20, 2.5f));
}

TEST(FillConstantBatchSizeLike, DimIndexesDtypeAndLoD) {
  OpTester t("fill_constant_batch_size_like");
  Tensor* in = t.SetInput<float>("Input", "in", {6, 3}, std::vector<float>(18, 0.f));
  in->set_lod({{0, 2, 6}});
  t.SetOutput("Out", "out");
  t.SetAttr("shape", std::vector<int32_t>{7, 1, -1});
  t.SetAttr("input_dim_idx", 1);
  t.SetAttr("output_dim_idx", 2);
  t.SetAttr("dtype", 3);  // int64
  t.SetAttr("str_value", std::string("9007199254740993"));
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dims(), (DDim{7, 1, 3}));
  EXPECT_EQ(t.GetData<int64_t>("out"), std::vector<int64_t>(21, 9007199254740993LL));

  OpTester seqs("fill_constant_batch_size_like");  // index 0 with a LoD: sequences
  in = seqs.SetInput<float>("Input", "in", {6, 3}, std::vector<float>(18, 0.f));
  in->set_lod({{0, 2, 6}});
  seqs.SetOutput("Out", "out");
  seqs.SetAttr("shape", std::vector<int32_t>{-1, 2});
  ASSERT_TRUE(seqs.Run().ok());
  EXPECT_EQ(seqs.Get("out").dims(), (DDim{2, 2}));
}

TEST(FillConstantBatchSizeLike, BadIndexesAreErrors) {
  OpTester t("fill_constant_batch_size_like");
  t.SetInput<float>("Input", "in", {5, 3}, std::vector<float>(15, 1.f));
  t.SetOutput("Out", "out");
  t.SetAttr("shape", std::vector<int32_t>{-1, 4});
  t.SetAttr("output_dim_idx", 2);
  Status s = t.Run();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("output_dim_idx 2"), std::string::npos) << s.message();
  OpTester u("fill_constant_batch_size_like");
  u.SetInput<float>("Input", "in", {5, 3}, std::vector<float>(15, 1.f));
  u.SetOutput("Out", "out");
  u.SetAttr("shape", std::vector<int32_t>{-1, 4});
  u.SetAttr("input_dim_idx", 2);
  s = u.Run();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("input_dim_idx 2"), std::string::npos) << s.message();
}

TEST(FillAnyLike, ValueAndDtype) {
  OpTester same("fill_any_like");
  same.SetInput<int32_t>("X", "x", {2, 3}, {1, 2, 3, 4, 5, 6});
  same.SetOutput("Out", "out");
  same.SetAttr("value", 7.f);
  ASSERT_TRUE(same.Run().ok());
  EXPECT_EQ(same.Get("out").dims(), (DDim{2, 3}));
  EXPECT_EQ(same.GetData<int32_t>("out"), std::vector<int32_t>(6, 7));

  OpTester other("fill_any_like");
  other.SetInput<int32_t>("X", "x", {3}, {1, 2, 3});
  other.SetOutput("Out", "out");
  other.SetAttr("value", -1.5f);
  other.SetAttr("dtype", 5);  // float32
  ASSERT_TRUE(other.Run().ok());
  EXPECT_EQ(other.Get("out").dtype(), DataType::kFloat32);
  EXPECT_EQ(other.GetData<float>("out"), std::vector<float>(3, -1.5f));

  OpTester zeros("fill_zeros_like");
  zeros.SetInput<float>("X", "x", {2, 2}, {1.f, 2.f, 3.f, 4.f});
  zeros.SetOutput("Out", "out");
  ASSERT_TRUE(zeros.Run().ok());
  EXPECT_EQ(zeros.GetData<float>("out"), std::vector<float>(4, 0.f));

  OpTester bad("fill_any_like");
  bad.SetInput<float>("X", "x", {1}, {1.f});
  bad.SetOutput("Out", "out");
  bad.SetAttr("dtype", 4);  // float16
  EXPECT_EQ(bad.Run().code(), StatusCode::kUnimplemented);
}

}  // namespace
}  // namespace lite
