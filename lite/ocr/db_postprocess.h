// DB (Differentiable Binarization) post-processing: the text boxes of a
// text detector's probability map, as PaddleOCR's DBPostProcess finds them.
//
// The map (one float per pixel, the detector's output at its input size) is
// thresholded; every 8-connected region of the binary map becomes the
// minimum-area rectangle around it (convex hull + rotating calipers). Regions
// whose rectangle is thinner than min_size, or whose mean probability inside
// the rectangle (the box score) is below box_thresh, are dropped; the rest are
// "unclipped": the shrunk text kernel the detector predicts is grown back to
// the whole line by distance = area * unclip_ratio / perimeter on every side
// (the polygon offset DB uses, exact for a rectangle). Boxes come in reading
// order (rows of 10 px from the top, then left to right), in map pixels.
#pragma once

#include <vector>

#include "lite/ocr/image.h"
#include "lite/utils/status.h"

namespace lite {
namespace ocr {

struct DbOptions {
  float thresh = 0.3f;        // binarization threshold of the map
  float box_thresh = 0.6f;    // minimum box score
  float unclip_ratio = 1.5f;  // growth of the kernel back to the line
  int min_size = 3;           // minimum short side (px) before and (+2) after the growth
};

struct TextBox {
  Quad corners;  // top-left, top-right, bottom-right, bottom-left
  float score = 0;
};

// A rotated rectangle: centre, width along `axis` (unit vector, the side
// closest to horizontal, pointing right), height across it.
struct RotatedRect {
  Point center;
  double width = 0, height = 0;
  Point axis{1, 0};
};

// The smallest rectangle holding `points` (at least one).
RotatedRect MinAreaRect(const std::vector<Point>& points);

// The rectangle's corners, top-left first, clockwise on screen (y down).
Quad RectCorners(const RotatedRect& rect);

// The boxes of a height x width map. InvalidArgument when the size is not
// positive or an option is out of range.
StatusOr<std::vector<TextBox>> DbBoxes(const float* prob, int height, int width,
                                       const DbOptions& options = DbOptions());

}  // namespace ocr
}  // namespace lite
