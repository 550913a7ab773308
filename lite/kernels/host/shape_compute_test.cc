#include <gtest/gtest.h>

#include <cmath>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

TEST(Shape, Int32DimsOfAnyInput) {
  OpTester t("shape");
  t.SetInput<int64_t>("Input", "x", {2, 3, 4}, std::vector<int64_t>(24, 7));
  t.SetOutput("Out", "out");
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dtype(), DataType::kInt32);
  EXPECT_EQ(t.Get("out").dims(), (DDim{3}));
  EXPECT_EQ(t.GetData<int32_t>("out"), (std::vector<int32_t>{2, 3, 4}));
}

OpTester* NewFill(OpTester* t) {
  t->SetOutput("Out", "out");
  return t;
}

TEST(FillConstant, ValueAttrAndShapeAttr) {
  OpTester t("fill_constant");
  NewFill(&t);
  t.SetAttr("shape", std::vector<int64_t>{2, 3});
  t.SetAttr("value", 1.25f);
  ASSERT_TRUE(t.Run().ok());  // default dtype 5 = fp32
  EXPECT_EQ(t.Get("out").dims(), (DDim{2, 3}));
  EXPECT_EQ(t.Get("out").dtype(), DataType::kFloat32);
  EXPECT_EQ(t.GetData<float>("out"), std::vector<float>(6, 1.25f));
}

TEST(FillConstant, StrValueTakesPrecedenceAndParsesSpecials) {
  struct Case {
    const char* s;
    float want;
  } cases[] = {{"3.5", 3.5f}, {"1e-05", 1e-5f}, {"inf", INFINITY}, {"-inf", -INFINITY}};
  for (const auto& c : cases) {
    OpTester t("fill_constant");
    NewFill(&t);
    t.SetAttr("shape", std::vector<int32_t>{4});
    t.SetAttr("value", 1.0f);
    t.SetAttr("str_value", c.s);
    ASSERT_TRUE(t.Run().ok()) << c.s;
    EXPECT_EQ(t.GetData<float>("out"), std::vector<float>(4, c.want)) << c.s;
  }
  OpTester n("fill_constant");
  NewFill(&n);
  n.SetAttr("shape", std::vector<int32_t>{2});
  n.SetAttr("str_value", "nan");
  ASSERT_TRUE(n.Run().ok());
  for (float v : n.GetData<float>("out")) EXPECT_TRUE(std::isnan(v));

  OpTester bad("fill_constant");
  NewFill(&bad);
  bad.SetAttr("shape", std::vector<int32_t>{2});
  bad.SetAttr("str_value", "abc");
  EXPECT_FALSE(bad.Run().ok());
}

TEST(FillConstant, Int64KeepsExactStrValueAndOtherDtypes) {
  OpTester t("fill_constant");
  NewFill(&t);
  t.SetAttr("shape", std::vector<int32_t>{2});
  t.SetAttr("dtype", 3);
  t.SetAttr("str_value", "9007199254740993");  // not representable as double
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dtype(), DataType::kInt64);
  EXPECT_EQ(t.GetData<int64_t>("out"), (std::vector<int64_t>{9007199254740993LL, 9007199254740993LL}));

  OpTester i("fill_constant");
  NewFill(&i);
  i.SetAttr("shape", std::vector<int32_t>{3});
  i.SetAttr("dtype", 2);
  i.SetAttr("value", -7.0f);
  ASSERT_TRUE(i.Run().ok());
  EXPECT_EQ(i.GetData<int32_t>("out"), (std::vector<int32_t>{-7, -7, -7}));

  OpTester b("fill_constant");
  NewFill(&b);
  b.SetAttr("shape", std::vector<int32_t>{2});
  b.SetAttr("dtype", 0);
  b.SetAttr("value", 1.0f);
  ASSERT_TRUE(b.Run().ok());
  EXPECT_EQ(b.Get("out").dtype(), DataType::kBool);
  EXPECT_EQ(b.GetData<bool>("out"), (std::vector<bool>{true, true}));

  OpTester d("fill_constant");
  NewFill(&d);
  d.SetAttr("shape", std::vector<int32_t>{1});
  d.SetAttr("dtype", 6);
  d.SetAttr("str_value", "0.1");
  ASSERT_TRUE(d.Run().ok());
  EXPECT_EQ(d.GetData<double>("out"), (std::vector<double>{0.1}));
}

TEST(FillConstant, ShapeTensorAndListOverrideAttr) {
  OpTester t("fill_constant");
  NewFill(&t);
  t.SetAttr("shape", std::vector<int32_t>{1});
  t.SetAttr("value", 2.0f);
  Tensor* s = t.SetInput<int64_t>("ShapeTensor", "s", {2}, {2, 3});
  t.SetInput<int32_t>("ShapeTensorList", "l0", {1}, {5});
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dims(), (DDim{2, 3}));
  EXPECT_EQ(t.GetData<float>("out"), std::vector<float>(6, 2.f));
  s->mutable_data<int64_t>()[1] = 4;  // new value, same dims
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dims(), (DDim{2, 4}));

  OpTester l("fill_constant");
  NewFill(&l);
  l.SetAttr("dtype", 3);
  l.SetAttr("str_value", "-4");
  l.SetInput<int32_t>("ShapeTensorList", "l0", {1}, {3});
  l.SetInput<int64_t>("ShapeTensorList", "l1", {1}, {1});
  ASSERT_TRUE(l.Run().ok());
  EXPECT_EQ(l.Get("out").dims(), (DDim{3, 1}));
  EXPECT_EQ(l.GetData<int64_t>("out"), (std::vector<int64_t>{-4, -4, -4}));
}

TEST(FillConstant, ValueTensorOverridesStrValue) {
  OpTester t("fill_constant");
  NewFill(&t);
  t.SetAttr("shape", std::vector<int32_t>{2});
  t.SetAttr("str_value", "5");
  t.SetInput<float>("ValueTensor", "v", {1}, {-0.5f});
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.GetData<float>("out"), (std::vector<float>{-0.5f, -0.5f}));
}

TEST(FillConstant, BadDtypeAndShapeFail) {
  OpTester f16("fill_constant");
  NewFill(&f16);
  f16.SetAttr("shape", std::vector<int32_t>{2});
  f16.SetAttr("dtype", 4);
  Status st = f16.Run();
  EXPECT_EQ(st.code(), StatusCode::kUnimplemented) << st.ToString();

  OpTester neg("fill_constant");
  NewFill(&neg);
  neg.SetAttr("shape", std::vector<int32_t>{2, -1});
  EXPECT_FALSE(neg.Run().ok());
}

TEST(Assign, CopiesAnyDtype) {
  OpTester t("assign");
  t.SetInput<int32_t>("X", "x", {2, 2}, {1, 2, 3, 4});
  t.SetOutput("Out", "out");
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dtype(), DataType::kInt32);
  EXPECT_EQ(t.Get("out").dims(), (DDim{2, 2}));
  EXPECT_EQ(t.GetData<int32_t>("out"), (std::vector<int32_t>{1, 2, 3, 4}));
}

}  // namespace
}  // namespace lite
