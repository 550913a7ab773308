// masked_select and where_index: outputs sized by the data, against
// reference loops; a second run with other values resizes the output.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

TEST(MaskedSelect, PicksInOrderAndResizesPerRun) {
  const std::vector<float> x = RandomFloats(6, 7);
  OpTester t("masked_select");
  t.SetInput<float>("X", "x", {2, 3}, x);
  Tensor* mask = t.SetInput<bool>("Mask", "m", {2, 3}, {true, false, true, false, false, true});
  t.SetOutput("Y", "y");
  Status st = t.Run();
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(t.Get("y").dims(), (DDim{3}));
  EXPECT_EQ(t.GetData<float>("y"), (std::vector<float>{x[0], x[2], x[5]}));

  for (int i = 0; i < 6; ++i) mask->mutable_data<bool>()[i] = false;
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("y").dims(), (DDim{0}));

  OpTester dims("masked_select");
  dims.SetInput<float>("X", "x", {2, 3}, x);
  dims.SetInput<bool>("Mask", "m", {3, 2}, std::vector<bool>(6, true));
  dims.SetOutput("Y", "y");
  Status s = dims.Run();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("Mask [3, 2] must have the dims of X [2, 3]"), std::string::npos)
      << s.message();
}

TEST(WhereIndex, CoordinatesOfNonZeroForBoolAndFloat) {
  OpTester b("where_index");
  b.SetInput<bool>("Condition", "c", {2, 2, 2},
                   {false, true, false, false, true, false, false, true});
  b.SetOutput("Out", "out");
  ASSERT_TRUE(b.Run().ok());
  EXPECT_EQ(b.Get("out").dims(), (DDim{3, 3}));
  EXPECT_EQ(b.GetData<int64_t>("out"), (std::vector<int64_t>{0, 0, 1, 1, 0, 0, 1, 1, 1}));

  std::vector<float> v = {0.f, -1.f, 0.f, 2.f, 3.f};
  OpTester f("where_index");
  f.SetInput<float>("Condition", "c", {5}, v);
  f.SetOutput("Out", "out");
  ASSERT_TRUE(f.Run().ok());
  std::vector<int64_t> want;
  for (int64_t i = 0; i < 5; ++i) {
    if (v[i] != 0.f) want.push_back(i);
  }
  EXPECT_EQ(f.Get("out").dims(), (DDim{static_cast<int64_t>(want.size()), 1}));
  EXPECT_EQ(f.GetData<int64_t>("out"), want);
}

}  // namespace
}  // namespace lite
