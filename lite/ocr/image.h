// The 8-bit images of the OCR pipeline and the geometry on them: binary PNM
// files (P5 grey / P6 RGB, the formats that need no image library), bilinear
// resize, 180-degree rotation and the perspective crop that straightens a
// detected text quadrilateral into an upright line image.
//
// An Image owns its pixels, interleaved rows of `channels` bytes per pixel
// (1 or 3; PGM files are read as 3 equal channels so every stage sees RGB).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "lite/utils/status.h"

namespace lite {
namespace ocr {

struct Image {
  int width = 0;
  int height = 0;
  int channels = 3;
  std::vector<uint8_t> pixels;  // height * width * channels
  uint8_t at(int y, int x, int c) const { return pixels[(size_t(y) * width + x) * channels + c]; }
};

struct Point {
  double x = 0;
  double y = 0;
};

// Corners top-left, top-right, bottom-right, bottom-left (y down).
using Quad = std::array<Point, 4>;

// Reads a binary PGM (P5) or PPM (P6) file with maxval 255 as an RGB image.
// InvalidArgument naming the path for any other content or a short file.
StatusOr<Image> ReadPnm(const std::string& path);

// Writes a binary PPM (P6) of an RGB image.
Status WritePpm(const std::string& path, const Image& image);

// Bilinear resize (pixel centres aligned, edges clamped) to width x height.
Image Resize(const Image& image, int width, int height);

// The image turned by 180 degrees.
Image Rotate180(const Image& image);

// The image turned by 90 degrees counterclockwise (numpy's rot90): PaddleOCR
// turns a crop so when it is at least 1.5 times as tall as wide (a line
// running down the page).
Image Rotate90(const Image& image);

// Maps the output rectangle width x height onto `quad` by the perspective
// transform that sends its corners (0,0), (w,0), (w,h), (0,h) to the quad's,
// and samples the image bilinearly there (outside: the nearest edge pixel).
// InvalidArgument when the size is not positive or the quad is degenerate.
StatusOr<Image> PerspectiveCrop(const Image& image, const Quad& quad, int width, int height);

// The crop size PaddleOCR uses for a detected box: the longer of each pair
// of opposite sides, rounded, at least 1.
void CropSize(const Quad& quad, int* width, int* height);

}  // namespace ocr
}  // namespace lite
