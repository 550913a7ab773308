// The float inputs of PaddleOCR's three models, made from an Image as
// PaddleOCR's own predictors make them:
//   det: resized so both sides are multiples of 32 (the longer side at most
//        limit_side), ImageNet mean/std normalization;
//   cls and rec: a text line resized to a fixed height keeping its aspect
//        ratio (width ceil(height * w / h), at most max_width when given),
//        normalized (x/255 - 0.5) / 0.5, zero-padded on the right.
// All are NCHW float32 with N = 1, RGB channel order.
#pragma once

#include <cstdint>
#include <vector>

#include "lite/ocr/image.h"

namespace lite {
namespace ocr {

struct ModelInput {
  std::vector<int64_t> shape;  // [N, 3, H, W]; N = 1 from these helpers
  std::vector<float> data;
  double scale_x = 1, scale_y = 1;  // det: input size / image size
};

// The detector's input; scale_x / scale_y map image pixels to map pixels.
ModelInput DetInput(const Image& image, int limit_side = 960);

// A line at `height` (width by aspect ratio, capped at max_width when > 0),
// padded to `padded_width` when that is larger (a multiple of `align` of the
// content width otherwise). cls: LineInput(line, 48, 192, 192); rec:
// LineInput(line, 48, 0, 320, 8) as PaddleOCR pads a single line to 320.
ModelInput LineInput(const Image& line, int height, int max_width, int padded_width,
                     int align = 1);

}  // namespace ocr
}  // namespace lite
