#include "lite/ocr/preprocess.h"

#include <algorithm>
#include <cmath>

namespace lite {
namespace ocr {

ModelInput DetInput(const Image& image, int limit_side) {
  const double ratio = std::min(1.0, double(limit_side) / std::max(image.width, image.height));
  const int w = std::max(32, static_cast<int>(std::lround(image.width * ratio / 32)) * 32);
  const int h = std::max(32, static_cast<int>(std::lround(image.height * ratio / 32)) * 32);
  const Image resized = Resize(image, w, h);
  static const float kMean[3] = {0.485f, 0.456f, 0.406f};
  static const float kStd[3] = {0.229f, 0.224f, 0.225f};
  ModelInput in;
  in.shape = {1, 3, h, w};
  in.data.resize(size_t(3) * h * w);
  for (int c = 0; c < 3; ++c) {
    float* plane = &in.data[size_t(c) * h * w];
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        plane[y * w + x] = (resized.at(y, x, c) / 255.0f - kMean[c]) / kStd[c];
      }
    }
  }
  in.scale_x = double(w) / image.width;
  in.scale_y = double(h) / image.height;
  return in;
}

ModelInput LineInput(const Image& line, int height, int max_width, int padded_width, int align) {
  int w = std::max(1, static_cast<int>(std::ceil(double(height) * line.width / line.height)));
  if (max_width > 0) w = std::min(w, max_width);
  align = std::max(align, 1);
  const int padded = std::max(padded_width, (w + align - 1) / align * align);
  const Image resized = Resize(line, w, height);
  ModelInput in;
  in.shape = {1, 3, height, padded};
  in.data.assign(size_t(3) * height * padded, 0.0f);
  for (int c = 0; c < 3; ++c) {
    float* plane = &in.data[size_t(c) * height * padded];
    for (int y = 0; y < height; ++y) {
      for (int x = 0; x < w; ++x) plane[y * padded + x] = (resized.at(y, x, c) / 255.0f - 0.5f) / 0.5f;
    }
  }
  return in;
}

}  // namespace ocr
}  // namespace lite
