// The models' input sizes and normalization on small uniform images.
#include "lite/ocr/preprocess.h"

#include <gtest/gtest.h>

namespace lite {
namespace ocr {
namespace {

Image Uniform(int width, int height, uint8_t r, uint8_t g, uint8_t b) {
  Image image;
  image.width = width;
  image.height = height;
  for (int i = 0; i < width * height; ++i) image.pixels.insert(image.pixels.end(), {r, g, b});
  return image;
}

TEST(DetInput, MultiplesOf32AndImageNetNormalization) {
  ModelInput in = DetInput(Uniform(100, 50, 255, 0, 128));
  EXPECT_EQ(in.shape, (std::vector<int64_t>{1, 3, 64, 96}));
  EXPECT_DOUBLE_EQ(in.scale_x, 0.96);
  EXPECT_DOUBLE_EQ(in.scale_y, 64.0 / 50);
  EXPECT_NEAR(in.data[0], (1 - 0.485) / 0.229, 1e-5);                // R plane
  EXPECT_NEAR(in.data[64 * 96], (0 - 0.456) / 0.224, 1e-5);          // G plane
  EXPECT_NEAR(in.data[2 * 64 * 96 + 5], (128 / 255.0 - 0.406) / 0.225, 1e-5);
}

TEST(DetInput, LongSideLimited) {
  ModelInput in = DetInput(Uniform(2000, 1000, 0, 0, 0), 960);
  EXPECT_EQ(in.shape, (std::vector<int64_t>{1, 3, 480, 960}));
}

TEST(LineInput, RecHeight48WidthByAspectPadded) {
  // 100 x 20 -> 48 high, 240 wide, padded to 320 with zeros.
  ModelInput in = LineInput(Uniform(100, 20, 255, 0, 255), 48, 0, 320, 8);
  EXPECT_EQ(in.shape, (std::vector<int64_t>{1, 3, 48, 320}));
  EXPECT_FLOAT_EQ(in.data[239], 1.0f);
  EXPECT_FLOAT_EQ(in.data[240], 0.0f);
  EXPECT_FLOAT_EQ(in.data[48 * 320 + 10], -1.0f);
  // Wider than the padding: rounded up to the alignment.
  ModelInput wide = LineInput(Uniform(603, 48, 0, 0, 0), 48, 0, 320, 8);
  EXPECT_EQ(wide.shape, (std::vector<int64_t>{1, 3, 48, 608}));
}

TEST(LineInput, ClsWidthCapped) {
  ModelInput in = LineInput(Uniform(500, 20, 0, 0, 0), 48, 192, 192);
  EXPECT_EQ(in.shape, (std::vector<int64_t>{1, 3, 48, 192}));
  EXPECT_FLOAT_EQ(in.data[191], -1.0f);
}

}  // namespace
}  // namespace ocr
}  // namespace lite
