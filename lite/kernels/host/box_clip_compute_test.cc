// box_clip on batched [N, M, 4] boxes and on LoD-split [K, 4] boxes, each
// image with its own (height / scale, width / scale).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

TEST(BoxClip, BatchedAndLodBoxesPerImage) {
  // Image 0: 20 x 30 at scale 2 -> 10 x 15; image 1: 8 x 6 at scale 1.
  const std::vector<float> info = {20.f, 30.f, 2.f, 8.f, 6.f, 1.f};
  const std::vector<float> boxes = {-3.f, 2.f, 20.f, 12.f,  // image 0
                                    1.f, -1.f, 5.f, 7.5f,   // image 0 / 1
                                    4.f, 9.f, 9.f, 3.f};     // image 1
  // Batched: [2, 1, 4] (third box unused) and LoD {0, 2, 3}.
  OpTester b("box_clip");
  b.SetInput<float>("Input", "in", {2, 1, 4}, {boxes.begin(), boxes.begin() + 8});
  b.SetInput<float>("ImInfo", "info", {2, 3}, info);
  b.SetOutput("Output", "out");
  ASSERT_TRUE(b.Run().ok());
  EXPECT_EQ(b.GetData<float>("out"),
            (std::vector<float>{0.f, 2.f, 14.f, 9.f, 1.f, 0.f, 5.f, 7.f}));

  OpTester l("box_clip");
  Tensor* in = l.SetInput<float>("Input", "in", {3, 4}, boxes);
  in->set_lod({{0, 2, 3}});
  l.SetInput<float>("ImInfo", "info", {2, 3}, info);
  l.SetOutput("Output", "out");
  ASSERT_TRUE(l.Run().ok());
  EXPECT_EQ(l.GetData<float>("out"), (std::vector<float>{0.f, 2.f, 14.f, 9.f, 1.f, 0.f, 5.f,
                                                          7.5f, 4.f, 7.f, 5.f, 3.f}));
  EXPECT_EQ(l.Get("out").lod(), in->lod());

  OpTester bad("box_clip");
  bad.SetInput<float>("Input", "in", {3, 4}, boxes);
  bad.SetInput<float>("ImInfo", "info", {2, 3}, info);
  bad.SetOutput("Output", "out");
  Status s = bad.Run();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("does not split into the 2 images"), std::string::npos)
      << s.message();
}

}  // namespace
}  // namespace lite
