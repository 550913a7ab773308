// DB post-processing on synthetic probability maps with known boxes: an
// axis-aligned kernel, a tilted one, and regions dropped for size or score;
// the minimum-area rectangle of known point sets.
#include "lite/ocr/db_postprocess.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace lite {
namespace ocr {
namespace {

constexpr int kH = 200, kW = 300;

void Fill(std::vector<float>* map, int y0, int y1, int x0, int x1, float v) {
  for (int y = y0; y < y1; ++y) std::fill(&(*map)[y * kW + x0], &(*map)[y * kW + x1], v);
}

// Pixels whose centre lies in the rectangle (centre, size, angle in radians).
void FillRotated(std::vector<float>* map, Point c, double w, double h, double angle, float v) {
  const double ca = std::cos(angle), sa = std::sin(angle);
  for (int y = 0; y < kH; ++y) {
    for (int x = 0; x < kW; ++x) {
      const double dx = x - c.x, dy = y - c.y;
      if (std::abs(dx * ca + dy * sa) <= w / 2 && std::abs(-dx * sa + dy * ca) <= h / 2) {
        (*map)[y * kW + x] = v;
      }
    }
  }
}

TEST(MinAreaRect, TiltedPointSet) {
  // The corners of a 40 x 10 rectangle turned by 30 degrees, and its centre.
  RotatedRect truth;
  truth.center = {50, 60};
  truth.width = 40;
  truth.height = 10;
  truth.axis = {std::cos(M_PI / 6), std::sin(M_PI / 6)};
  Quad q = RectCorners(truth);
  std::vector<Point> pts(q.begin(), q.end());
  pts.push_back(truth.center);
  RotatedRect r = MinAreaRect(pts);
  EXPECT_NEAR(r.width, 40, 1e-9);
  EXPECT_NEAR(r.height, 10, 1e-9);
  EXPECT_NEAR(r.center.x, 50, 1e-9);
  EXPECT_NEAR(r.center.y, 60, 1e-9);
  EXPECT_NEAR(std::atan2(r.axis.y, r.axis.x), M_PI / 6, 1e-9);
}

TEST(MinAreaRect, UprightRectangleKeepsWidthHorizontal) {
  // Taller than wide: the width axis still points right, the size follows.
  RotatedRect r = MinAreaRect({{0, 0}, {4, 0}, {4, 30}, {0, 30}});
  EXPECT_NEAR(r.axis.x, 1, 1e-12);
  EXPECT_NEAR(r.width, 4, 1e-9);
  EXPECT_NEAR(r.height, 30, 1e-9);
  Quad q = RectCorners(r);
  EXPECT_NEAR(q[0].x, 0, 1e-9);
  EXPECT_NEAR(q[0].y, 0, 1e-9);
  EXPECT_NEAR(q[2].x, 4, 1e-9);
  EXPECT_NEAR(q[2].y, 30, 1e-9);
}

TEST(DbBoxes, KnownBoxesOnASyntheticMap) {
  std::vector<float> map(kH * kW, 0.0f);
  Fill(&map, 40, 60, 50, 150, 0.9f);    // 100 x 20 kernel, axis-aligned
  FillRotated(&map, {200, 140}, 80, 16, M_PI / 6, 0.8f);
  Fill(&map, 150, 152, 10, 12, 0.9f);   // too small: dropped
  Fill(&map, 10, 30, 200, 290, 0.4f);   // above thresh, below box_thresh: dropped
  auto boxes = DbBoxes(map.data(), kH, kW);
  ASSERT_TRUE(boxes.ok()) << boxes.status().ToString();
  ASSERT_EQ(boxes->size(), 2u);
  const TextBox& flat = (*boxes)[0];
  const TextBox& tilted = (*boxes)[1];
  // Pixel centres span 99 x 19; unclip grows each side by
  // 99 * 19 * 1.5 / (2 * (99 + 19)) = 11.953.
  const double d = 99.0 * 19 * 1.5 / (2 * (99 + 19));
  EXPECT_NEAR(flat.score, 0.9f, 1e-5);
  EXPECT_NEAR(flat.corners[0].x, 50 - d, 1e-6);
  EXPECT_NEAR(flat.corners[0].y, 40 - d, 1e-6);
  EXPECT_NEAR(flat.corners[2].x, 149 + d, 1e-6);
  EXPECT_NEAR(flat.corners[2].y, 59 + d, 1e-6);
  EXPECT_GT(tilted.score, 0.75f);
  const Point dir{tilted.corners[1].x - tilted.corners[0].x,
                  tilted.corners[1].y - tilted.corners[0].y};
  EXPECT_NEAR(std::atan2(dir.y, dir.x) * 180 / M_PI, 30, 2);
  // Centre of the tilted box stays where it was drawn.
  double cx = 0, cy = 0;
  for (const Point& p : tilted.corners) cx += p.x / 4, cy += p.y / 4;
  EXPECT_NEAR(cx, 200, 1.0);
  EXPECT_NEAR(cy, 140, 1.0);
}

TEST(DbBoxes, DiagonalPixelsAreOneRegion) {
  // A 45-degree stroke of single pixels (8-connected only) is one box.
  std::vector<float> map(kH * kW, 0.0f);
  for (int i = 0; i < 60; ++i) {
    for (int k = 0; k < 6; ++k) map[(50 + i) * kW + 50 + i + k] = 0.9f;
  }
  DbOptions options;
  options.box_thresh = 0.3f;
  auto boxes = DbBoxes(map.data(), kH, kW, options);
  ASSERT_TRUE(boxes.ok());
  EXPECT_EQ(boxes->size(), 1u);
}

TEST(DbBoxes, BoxesInReadingOrder) {
  std::vector<float> map(kH * kW, 0.0f);
  Fill(&map, 120, 140, 20, 80, 0.9f);   // second row
  Fill(&map, 20, 40, 150, 250, 0.9f);   // first row, right
  Fill(&map, 22, 40, 20, 100, 0.9f);    // first row, left
  auto boxes = DbBoxes(map.data(), kH, kW);
  ASSERT_TRUE(boxes.ok());
  ASSERT_EQ(boxes->size(), 3u);
  EXPECT_LT((*boxes)[0].corners[0].x, 50);
  EXPECT_GT((*boxes)[1].corners[0].x, 100);
  EXPECT_GT((*boxes)[2].corners[0].y, 80);
}

TEST(DbBoxes, EmptyMapAndBadSize) {
  std::vector<float> map(kH * kW, 0.0f);
  auto none = DbBoxes(map.data(), kH, kW);
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
  EXPECT_FALSE(DbBoxes(map.data(), 0, kW).ok());
}

}  // namespace
}  // namespace ocr
}  // namespace lite
