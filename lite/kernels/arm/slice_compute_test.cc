// arm slice (strided copy) against the host kernel, bit for bit: SVTR's q /
// k / v split (axis 0 of a rank-5 tensor, decrease_axis), windows on inner
// and several axes with negative starts / ends, and StartsTensor /
// EndsTensor read at run time.
#include <string>
#include <vector>

#include "lite/kernels/arm/arm_test_util.h"

namespace lite {
namespace {

void ExpectSlice(const DDim& in, const std::vector<int64_t>& axes,
                 const std::vector<int64_t>& starts, const std::vector<int64_t>& ends,
                 const std::vector<int64_t>& decrease) {
  auto setup = [=](OpTester* t) {
    t->SetInput<float>("Input", "x", in, RandomFloats(Product(in), 51, -3.f, 3.f));
    t->SetOutput("Out", "out");
    t->SetAttr("axes", axes);
    t->SetAttr("starts", starts);
    t->SetAttr("ends", ends);
    if (!decrease.empty()) t->SetAttr("decrease_axis", decrease);
  };
  arm_test::ExpectArmMatchesHost("slice", setup, {"out"},
                                 DimsToString(in) + " axes " + DimsToString(axes) + " starts " +
                                     DimsToString(starts),
                                 0.f);
}

TEST(ArmSlice, QkvSplitMatchesHost) {
  for (int64_t i = 0; i < 3; ++i) ExpectSlice({3, 1, 4, 7, 6}, {0}, {i}, {i + 1}, {0});
}

TEST(ArmSlice, InnerAndNegativeWindowsMatchHost) {
  ExpectSlice({2, 5, 6, 7}, {3}, {1}, {-2}, {});
  ExpectSlice({2, 5, 6, 7}, {1, 2}, {-4, 2}, {4, 100}, {});
  ExpectSlice({4, 9}, {0, 1}, {1, 3}, {2, 8}, {0});
}

TEST(ArmSlice, RunTimeBoundsMatchHost) {
  // StartsTensor and EndsTensor on the last axis of a rank-3 tensor: the
  // window is resolved from their values at each run.
  for (int32_t end : {9, -1}) {
    auto setup = [end](OpTester* t) {
      t->SetInput<float>("Input", "x", {2, 6, 9}, RandomFloats(108, 52, -3.f, 3.f));
      t->SetInput<int32_t>("StartsTensor", "starts", {1}, {2});
      t->SetInput<int32_t>("EndsTensor", "ends", {1}, {end});
      t->SetOutput("Out", "out");
      t->SetAttr("axes", std::vector<int64_t>{2});
      t->SetAttr("starts", std::vector<int64_t>{0});
      t->SetAttr("ends", std::vector<int64_t>{1});
    };
    arm_test::ExpectArmMatchesHost("slice", setup, {"out"}, "ends " + std::to_string(end), 0.f);
  }
}

}  // namespace
}  // namespace lite
