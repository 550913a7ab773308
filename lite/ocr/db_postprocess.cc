#include "lite/ocr/db_postprocess.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace lite {
namespace ocr {

namespace {

double Cross(const Point& o, const Point& a, const Point& b) {
  return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

// Counter-clockwise hull (Andrew's monotone chain); duplicates removed.
std::vector<Point> ConvexHull(std::vector<Point> pts) {
  std::sort(pts.begin(), pts.end(),
            [](const Point& a, const Point& b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
  pts.erase(std::unique(pts.begin(), pts.end(),
                        [](const Point& a, const Point& b) { return a.x == b.x && a.y == b.y; }),
            pts.end());
  if (pts.size() <= 2) return pts;
  std::vector<Point> hull(2 * pts.size());
  size_t k = 0;
  for (size_t i = 0; i < pts.size(); ++i) {
    while (k >= 2 && Cross(hull[k - 2], hull[k - 1], pts[i]) <= 0) --k;
    hull[k++] = pts[i];
  }
  for (size_t i = pts.size() - 1, lower = k + 1; i-- > 0;) {
    while (k >= lower && Cross(hull[k - 2], hull[k - 1], pts[i]) <= 0) --k;
    hull[k++] = pts[i];
  }
  hull.resize(k - 1);
  return hull;
}

// 8-connected regions of the binary map, each as the pixels that start or
// end a horizontal run (enough for the convex hull of the region).
std::vector<std::vector<Point>> RegionOutlines(const std::vector<uint8_t>& mask, int height,
                                               int width) {
  std::vector<int> label(mask.size(), -1);
  std::vector<std::vector<Point>> regions;
  std::vector<int> stack;
  for (int start = 0; start < height * width; ++start) {
    if (!mask[start] || label[start] >= 0) continue;
    const int id = static_cast<int>(regions.size());
    regions.emplace_back();
    label[start] = id;
    stack.push_back(start);
    while (!stack.empty()) {
      const int p = stack.back();
      stack.pop_back();
      const int y = p / width, x = p % width;
      if (x == 0 || !mask[p - 1] || x == width - 1 || !mask[p + 1]) {
        regions[id].push_back({double(x), double(y)});
      }
      for (int ny = std::max(0, y - 1); ny <= std::min(height - 1, y + 1); ++ny) {
        for (int nx = std::max(0, x - 1); nx <= std::min(width - 1, x + 1); ++nx) {
          const int q = ny * width + nx;
          if (mask[q] && label[q] < 0) {
            label[q] = id;
            stack.push_back(q);
          }
        }
      }
    }
  }
  return regions;
}

// Mean of the map over the pixel centres inside (or on) the convex quad.
float MeanInside(const float* prob, int height, int width, const Quad& quad) {
  double x0 = quad[0].x, x1 = quad[0].x, y0 = quad[0].y, y1 = quad[0].y;
  for (const Point& p : quad) {
    x0 = std::min(x0, p.x), x1 = std::max(x1, p.x);
    y0 = std::min(y0, p.y), y1 = std::max(y1, p.y);
  }
  const int ix0 = std::max(0, int(std::floor(x0))), ix1 = std::min(width - 1, int(std::ceil(x1)));
  const int iy0 = std::max(0, int(std::floor(y0))), iy1 = std::min(height - 1, int(std::ceil(y1)));
  double sum = 0;
  int64_t count = 0;
  constexpr double kOnEdge = 1e-6;  // pixels on the boundary count as inside
  for (int y = iy0; y <= iy1; ++y) {
    for (int x = ix0; x <= ix1; ++x) {
      const Point p{double(x), double(y)};
      bool inside = true;
      for (int i = 0; i < 4 && inside; ++i) {
        const Point& a = quad[i];
        const Point& b = quad[(i + 1) % 4];
        const double len = std::hypot(b.x - a.x, b.y - a.y);
        // Corners run clockwise on screen: inside is on the right (cross >= 0).
        inside = Cross(a, b, p) >= -kOnEdge * std::max(len, 1.0);
      }
      if (inside) {
        sum += prob[size_t(y) * width + x];
        ++count;
      }
    }
  }
  return count ? static_cast<float>(sum / count) : 0.0f;
}

}  // namespace

RotatedRect MinAreaRect(const std::vector<Point>& points) {
  std::vector<Point> hull = ConvexHull(points);
  RotatedRect rect;
  if (hull.size() < 3) {
    double x0 = hull[0].x, x1 = hull[0].x, y0 = hull[0].y, y1 = hull[0].y;
    for (const Point& p : hull) {
      x0 = std::min(x0, p.x), x1 = std::max(x1, p.x);
      y0 = std::min(y0, p.y), y1 = std::max(y1, p.y);
    }
    rect.center = {(x0 + x1) / 2, (y0 + y1) / 2};
    rect.width = x1 - x0;
    rect.height = y1 - y0;
    return rect;
  }
  double best_area = std::numeric_limits<double>::max();
  for (size_t i = 0; i < hull.size(); ++i) {
    const Point& a = hull[i];
    const Point& b = hull[(i + 1) % hull.size()];
    const double len = std::hypot(b.x - a.x, b.y - a.y);
    if (len < 1e-12) continue;
    const Point axis{(b.x - a.x) / len, (b.y - a.y) / len};
    const Point normal{-axis.y, axis.x};
    double lo_a = std::numeric_limits<double>::max(), hi_a = -lo_a, lo_n = lo_a, hi_n = -lo_a;
    for (const Point& p : hull) {
      const double along = p.x * axis.x + p.y * axis.y;
      const double across = p.x * normal.x + p.y * normal.y;
      lo_a = std::min(lo_a, along), hi_a = std::max(hi_a, along);
      lo_n = std::min(lo_n, across), hi_n = std::max(hi_n, across);
    }
    const double area = (hi_a - lo_a) * (hi_n - lo_n);
    if (area < best_area) {
      best_area = area;
      const double mid_a = (hi_a + lo_a) / 2, mid_n = (hi_n + lo_n) / 2;
      rect.center = {mid_a * axis.x + mid_n * normal.x, mid_a * axis.y + mid_n * normal.y};
      rect.width = hi_a - lo_a;
      rect.height = hi_n - lo_n;
      rect.axis = axis;
    }
  }
  // The width axis is the side closest to horizontal, pointing right.
  if (std::abs(rect.axis.x) < std::abs(rect.axis.y)) {
    rect.axis = {-rect.axis.y, rect.axis.x};
    std::swap(rect.width, rect.height);
  }
  if (rect.axis.x < 0) rect.axis = {-rect.axis.x, -rect.axis.y};
  return rect;
}

Quad RectCorners(const RotatedRect& r) {
  const Point w{r.width / 2 * r.axis.x, r.width / 2 * r.axis.y};
  const Point h{-r.height / 2 * r.axis.y, r.height / 2 * r.axis.x};  // along the normal (down)
  const Point& c = r.center;
  return {Point{c.x - w.x - h.x, c.y - w.y - h.y}, Point{c.x + w.x - h.x, c.y + w.y - h.y},
          Point{c.x + w.x + h.x, c.y + w.y + h.y}, Point{c.x - w.x + h.x, c.y - w.y + h.y}};
}

StatusOr<std::vector<TextBox>> DbBoxes(const float* prob, int height, int width,
                                       const DbOptions& options) {
  if (height <= 0 || width <= 0) {
    return InvalidArgument("DB post-processing: map size " + std::to_string(height) + "x" +
                           std::to_string(width) + " (must be positive)");
  }
  if (!(options.unclip_ratio >= 0) || options.min_size < 0) {
    return InvalidArgument("DB post-processing: unclip_ratio and min_size must not be negative");
  }
  std::vector<uint8_t> mask(size_t(height) * width);
  for (size_t i = 0; i < mask.size(); ++i) mask[i] = prob[i] > options.thresh;
  std::vector<TextBox> boxes;
  for (const std::vector<Point>& outline : RegionOutlines(mask, height, width)) {
    RotatedRect rect = MinAreaRect(outline);
    if (std::min(rect.width, rect.height) < options.min_size) continue;
    const float score = MeanInside(prob, height, width, RectCorners(rect));
    if (score < options.box_thresh) continue;
    const double distance =
        rect.width * rect.height * options.unclip_ratio / (2 * (rect.width + rect.height));
    rect.width += 2 * distance;
    rect.height += 2 * distance;
    if (std::min(rect.width, rect.height) < options.min_size + 2) continue;
    boxes.push_back({RectCorners(rect), score});
  }
  auto key = [](const TextBox& b) {
    double top = b.corners[0].y, left = b.corners[0].x;
    for (const Point& p : b.corners) top = std::min(top, p.y), left = std::min(left, p.x);
    return std::make_pair(std::lround(top / 10), left);
  };
  std::stable_sort(boxes.begin(), boxes.end(),
                   [&](const TextBox& a, const TextBox& b) { return key(a) < key(b); });
  return boxes;
}

}  // namespace ocr
}  // namespace lite
