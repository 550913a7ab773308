// increment, select_input / select_output and the tensor array ops through
// their host kernels, against the values the semantics give directly.
// (while and conditional_block run sub-blocks: tests/control_flow_test.)
#include <gtest/gtest.h>

#include <vector>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

TEST(Increment, AddsStepInPlaceForEachDtype) {
  OpTester f("increment");
  f.SetInput<float>("X", "x", {1}, {2.5f});
  f.SetOutput("Out", "x");  // in place, as loops write their counter
  f.SetAttr("step", -0.5f);
  ASSERT_TRUE(f.Run().ok());
  EXPECT_EQ(f.GetData<float>("x"), std::vector<float>{2.f});
  ASSERT_TRUE(f.Run().ok());
  EXPECT_EQ(f.GetData<float>("x"), std::vector<float>{1.5f});

  OpTester i("increment");
  i.SetInput<int64_t>("X", "i", {1}, {41});
  i.SetOutput("Out", "o");
  ASSERT_TRUE(i.Run().ok());  // default step 1
  EXPECT_EQ(i.GetData<int64_t>("o"), std::vector<int64_t>{42});
  EXPECT_EQ(i.GetData<int64_t>("i"), std::vector<int64_t>{41});
}

TEST(Increment, MoreThanOneElementIsAnError) {
  OpTester t("increment");
  t.SetInput<int32_t>("X", "i", {2}, {1, 2});
  t.SetOutput("Out", "o");
  EXPECT_FALSE(t.Run().ok());
}

TEST(SelectInput, CopiesTheMaskedChoice) {
  for (int32_t m : {0, 1}) {
    OpTester t("select_input");
    t.SetInput<float>("X", "a", {2}, {1, 2});
    t.SetInput<float>("X", "b", {3}, {7, 8, 9});
    t.SetInput<int32_t>("Mask", "mask", {1}, {m});
    t.SetOutput("Out", "out");
    ASSERT_TRUE(t.Run().ok());
    const std::vector<float> want = m == 0 ? std::vector<float>{1, 2}
                                           : std::vector<float>{7, 8, 9};
    EXPECT_EQ(t.GetData<float>("out"), want);
  }
}

TEST(SelectInput, MaskOutOfRangeOrUnwrittenChoiceIsAnError) {
  OpTester t("select_input");
  t.SetInput<float>("X", "a", {1}, {1});
  t.SetInput<int32_t>("Mask", "mask", {1}, {2});
  t.SetOutput("Out", "out");
  EXPECT_FALSE(t.Run().ok());

  OpTester u("select_input");
  u.SetInput<float>("X", "a", {1}, {1});
  u.scope()->Var("never_written")->GetMutableTensor()->Resize({1});
  u.desc()->SetInput("X", {"a", "never_written"});
  u.SetInput<int32_t>("Mask", "mask", {1}, {1});
  u.SetOutput("Out", "out");
  Status s = u.Run();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("no data"), std::string::npos) << s.ToString();
}

TEST(SelectOutput, WritesOnlyTheMaskedOutput) {
  OpTester t("select_output");
  t.SetInput<float>("X", "x", {2}, {3, 4});
  t.SetInput<int64_t>("Mask", "mask", {1}, {1});
  t.SetOutput("Out", "o0");
  t.SetOutput("Out", "o1");
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.GetData<float>("o1"), (std::vector<float>{3, 4}));
  EXPECT_FALSE(t.Get("o0").IsInitialized());
}

TEST(TensorArray, WriteReadAndLength) {
  OpTester w("write_to_array");
  Tensor* x = w.SetInput<float>("X", "x", {2}, {1, 2});
  Tensor* i = w.SetInput<int64_t>("I", "i", {1}, {2});
  w.SetOutput("Out", "arr");
  ASSERT_TRUE(w.Run().ok());
  const auto& arr = w.scope()->FindVar("arr")->GetTensorList();
  ASSERT_EQ(arr.size(), 3u);  // grown to I + 1
  EXPECT_FALSE(arr[0].IsInitialized());
  x->mutable_data<float>()[0] = 5;  // the element is a copy
  EXPECT_EQ(arr[2].data<float>()[0], 1.f);
  i->mutable_data<int64_t>()[0] = 0;
  ASSERT_TRUE(w.Run().ok());
  ASSERT_EQ(arr.size(), 3u);
  EXPECT_EQ(arr[0].data<float>()[0], 5.f);

  OpTester r("read_from_array");
  *r.scope()->Var("arr")->GetMutableTensorList() = arr;
  r.desc()->SetInput("X", {"arr"});
  Tensor* ri = r.SetInput<int32_t>("I", "i", {1}, {2});
  r.SetOutput("Out", "out");
  ASSERT_TRUE(r.Run().ok());
  EXPECT_EQ(r.GetData<float>("out"), (std::vector<float>{1, 2}));
  ri->mutable_data<int32_t>()[0] = 3;
  Status s = r.Run();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("past the end"), std::string::npos) << s.ToString();

  OpTester n("lod_array_length");
  *n.scope()->Var("arr")->GetMutableTensorList() = arr;
  n.desc()->SetInput("X", {"arr"});
  n.SetOutput("Out", "len");
  ASSERT_TRUE(n.Run().ok());
  EXPECT_EQ(n.GetData<int64_t>("len"), std::vector<int64_t>{3});
}

TEST(TensorArray, NegativeIndexIsAnError) {
  OpTester w("write_to_array");
  w.SetInput<float>("X", "x", {1}, {1});
  w.SetInput<int64_t>("I", "i", {1}, {-1});
  w.SetOutput("Out", "arr");
  EXPECT_FALSE(w.Run().ok());
}

}  // namespace
}  // namespace lite
