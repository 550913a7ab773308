// PNM reading and writing, and the geometry of the OCR crops on images
// whose pixels are linear in x and y (bilinear sampling reproduces such an
// image exactly, so every crop pixel has a known value).
#include "lite/ocr/image.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>

namespace lite {
namespace ocr {
namespace {

// R = x, G = y, B = 7.
Image Ramp(int width, int height) {
  Image image;
  image.width = width;
  image.height = height;
  image.pixels.resize(size_t(width) * height * 3);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      uint8_t* p = &image.pixels[(size_t(y) * width + x) * 3];
      p[0] = static_cast<uint8_t>(x);
      p[1] = static_cast<uint8_t>(y);
      p[2] = 7;
    }
  }
  return image;
}

std::string Temp(const std::string& name) { return ::testing::TempDir() + "/" + name; }

TEST(Pnm, PpmRoundTrip) {
  Image image = Ramp(30, 20);
  ASSERT_TRUE(WritePpm(Temp("ramp.ppm"), image).ok());
  auto back = ReadPnm(Temp("ramp.ppm"));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->width, 30);
  EXPECT_EQ(back->height, 20);
  EXPECT_EQ(back->pixels, image.pixels);
}

TEST(Pnm, PgmWithCommentReadsAsGreyRgb) {
  std::ofstream(Temp("g.pgm"), std::ios::binary) << "P5\n# made by hand\n2 1\n255\n\x10\x80";
  auto image = ReadPnm(Temp("g.pgm"));
  ASSERT_TRUE(image.ok()) << image.status().ToString();
  EXPECT_EQ(image->pixels, (std::vector<uint8_t>{0x10, 0x10, 0x10, 0x80, 0x80, 0x80}));
}

TEST(Pnm, BadFilesNameThePath) {
  std::ofstream(Temp("p.png"), std::ios::binary) << "\x89PNG\r\n";
  auto png = ReadPnm(Temp("p.png"));
  ASSERT_FALSE(png.ok());
  EXPECT_NE(png.status().message().find("p.png"), std::string::npos);
  std::ofstream(Temp("short.ppm"), std::ios::binary) << "P6 4 4 255\nabc";
  auto short_file = ReadPnm(Temp("short.ppm"));
  ASSERT_FALSE(short_file.ok());
  EXPECT_NE(short_file.status().message().find("ends early"), std::string::npos);
  // A header promising a huge image is an error, not an allocation.
  std::ofstream(Temp("huge.ppm"), std::ios::binary) << "P6 999999999 999999999 255\nabc";
  EXPECT_FALSE(ReadPnm(Temp("huge.ppm")).ok());
  std::ofstream(Temp("deep.ppm"), std::ios::binary) << "P6 1 1 65535\nabcdef";
  EXPECT_FALSE(ReadPnm(Temp("deep.ppm")).ok());
  std::ofstream(Temp("neg.ppm"), std::ios::binary) << "P6 -1 1 255\nabc";
  EXPECT_FALSE(ReadPnm(Temp("neg.ppm")).ok());
}

TEST(PerspectiveCrop, AxisAlignedQuadIsAShiftedCopy) {
  Image image = Ramp(200, 100);
  Quad q{Point{10, 20}, Point{110, 20}, Point{110, 60}, Point{10, 60}};
  int w = 0, h = 0;
  CropSize(q, &w, &h);
  EXPECT_EQ(w, 100);
  EXPECT_EQ(h, 40);
  auto crop = PerspectiveCrop(image, q, w, h);
  ASSERT_TRUE(crop.ok());
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      ASSERT_EQ(crop->at(y, x, 0), 10 + x);
      ASSERT_EQ(crop->at(y, x, 1), 20 + y);
      ASSERT_EQ(crop->at(y, x, 2), 7);
    }
  }
}

TEST(PerspectiveCrop, TiltedRectangleStraightened) {
  Image image = Ramp(200, 150);
  const double a = M_PI / 9, ca = std::cos(a), sa = std::sin(a);
  const Point o{40, 30};
  auto at = [&](double u, double v) { return Point{o.x + u * ca - v * sa, o.y + u * sa + v * ca}; };
  Quad q{at(0, 0), at(120, 0), at(120, 30), at(0, 30)};
  auto crop = PerspectiveCrop(image, q, 120, 30);
  ASSERT_TRUE(crop.ok());
  for (int v = 0; v < 30; ++v) {
    for (int u = 0; u < 120; ++u) {
      const Point p = at(u, v);
      ASSERT_NEAR(crop->at(v, u, 0), p.x, 0.51) << u << "," << v;
      ASSERT_NEAR(crop->at(v, u, 1), p.y, 0.51) << u << "," << v;
    }
  }
}

TEST(PerspectiveCrop, TrapezoidCornersAndMidpoint) {
  Image image = Ramp(250, 200);
  Quad q{Point{50, 40}, Point{150, 30}, Point{170, 120}, Point{30, 110}};
  auto crop = PerspectiveCrop(image, q, 64, 32);
  ASSERT_TRUE(crop.ok());
  EXPECT_EQ(crop->at(0, 0, 0), 50);
  EXPECT_EQ(crop->at(0, 0, 1), 40);
  // A projective map sends the square's centre to the diagonals' crossing.
  // Diagonals (50,40)-(170,120) and (150,30)-(30,110): 50 + 120 t =
  // 150 - 120 s and 40 + 80 t = 30 + 80 s give t + s = 5/6, t - s = -1/8,
  // t = 17/48: they cross at (92.5, 68.3).
  EXPECT_NEAR(crop->at(16, 32, 0), 50 + 120 * (17.0 / 48), 0.51);
  EXPECT_NEAR(crop->at(16, 32, 1), 40 + 80 * (17.0 / 48), 0.51);
}

TEST(PerspectiveCrop, DegenerateQuadIsAnError) {
  Image image = Ramp(50, 50);
  Quad line{Point{0, 0}, Point{10, 10}, Point{20, 20}, Point{30, 30}};
  EXPECT_FALSE(PerspectiveCrop(image, line, 10, 10).ok());
  Quad ok{Point{0, 0}, Point{10, 0}, Point{10, 10}, Point{0, 10}};
  EXPECT_FALSE(PerspectiveCrop(image, ok, 0, 10).ok());
}

TEST(Rotate180, ReversesPixels) {
  Image image = Ramp(5, 3);
  Image r = Rotate180(image);
  EXPECT_EQ(r.at(0, 0, 0), 4);
  EXPECT_EQ(r.at(0, 0, 1), 2);
  EXPECT_EQ(r.at(2, 4, 0), 0);
  EXPECT_EQ(Rotate180(r).pixels, image.pixels);
}

TEST(Rotate90, CounterclockwiseLikeNumpyRot90) {
  Image image = Ramp(5, 3);  // R = x, G = y
  Image r = Rotate90(image);
  EXPECT_EQ(r.width, 3);
  EXPECT_EQ(r.height, 5);
  // The top-right corner (x 4, y 0) comes to the top-left.
  EXPECT_EQ(r.at(0, 0, 0), 4);
  EXPECT_EQ(r.at(0, 0, 1), 0);
  // The bottom-left corner (x 0, y 2) goes to the bottom-right.
  EXPECT_EQ(r.at(4, 2, 0), 0);
  EXPECT_EQ(r.at(4, 2, 1), 2);
  EXPECT_EQ(Rotate90(r).pixels, Rotate180(image).pixels);  // two turns
  EXPECT_EQ(Rotate90(Rotate90(Rotate90(r))).pixels, image.pixels);  // four
}

TEST(Resize, HalvingARampAveragesPairs) {
  Image image = Ramp(40, 20);
  Image half = Resize(image, 20, 10);
  // Output x samples source x = 2x + 0.5: R = 2x + 0.5, rounded to even-ish.
  for (int x = 0; x < 20; ++x) EXPECT_NEAR(half.at(3, x, 0), 2 * x + 0.5, 0.51);
  EXPECT_EQ(half.at(3, 3, 2), 7);
}

}  // namespace
}  // namespace ocr
}  // namespace lite
