#include "lite/ocr/image.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include "lite/utils/file_util.h"

namespace lite {
namespace ocr {

namespace {

// The next header token of a PNM file (whitespace separated, '#' comments
// to the end of the line); "" at the end of the data.
std::string NextToken(const std::string& data, size_t* pos) {
  while (*pos < data.size()) {
    char c = data[*pos];
    if (c == '#') {
      while (*pos < data.size() && data[*pos] != '\n') ++*pos;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      ++*pos;
    } else {
      break;
    }
  }
  size_t start = *pos;
  while (*pos < data.size() && !std::isspace(static_cast<unsigned char>(data[*pos]))) ++*pos;
  return data.substr(start, *pos - start);
}

bool ParsePositive(const std::string& token, int* out) {
  if (token.empty() || token.size() > 9) return false;
  for (char c : token) {
    if (c < '0' || c > '9') return false;
  }
  *out = std::stoi(token);
  return *out > 0;
}

// Bilinear sample of channel c at (x, y) in pixel-centre coordinates, the
// position clamped to the image.
float Sample(const Image& image, double x, double y, int c) {
  x = std::min(std::max(x, 0.0), image.width - 1.0);
  y = std::min(std::max(y, 0.0), image.height - 1.0);
  int x0 = static_cast<int>(x), y0 = static_cast<int>(y);
  int x1 = std::min(x0 + 1, image.width - 1), y1 = std::min(y0 + 1, image.height - 1);
  double fx = x - x0, fy = y - y0;
  double top = image.at(y0, x0, c) * (1 - fx) + image.at(y0, x1, c) * fx;
  double bottom = image.at(y1, x0, c) * (1 - fx) + image.at(y1, x1, c) * fx;
  return static_cast<float>(top * (1 - fy) + bottom * fy);
}

uint8_t ToByte(float v) {
  return static_cast<uint8_t>(std::min(255.0f, std::max(0.0f, std::round(v))));
}

}  // namespace

StatusOr<Image> ReadPnm(const std::string& path) {
  std::string data;
  RETURN_IF_ERROR(ReadFileToString(path, &data));
  size_t pos = 0;
  std::string magic = NextToken(data, &pos);
  if (magic != "P5" && magic != "P6") {
    return InvalidArgument(path + ": not a binary PGM/PPM file (magic '" + magic +
                           "', expected P5 or P6)");
  }
  Image image;
  int maxval = 0;
  if (!ParsePositive(NextToken(data, &pos), &image.width) ||
      !ParsePositive(NextToken(data, &pos), &image.height) ||
      !ParsePositive(NextToken(data, &pos), &maxval)) {
    return InvalidArgument(path + ": bad PNM header (width, height, maxval)");
  }
  if (maxval != 255) {
    return InvalidArgument(path + ": PNM maxval " + std::to_string(maxval) +
                           " (only 8-bit files, maxval 255, are read)");
  }
  ++pos;  // the single whitespace byte after maxval
  const int in_channels = magic == "P6" ? 3 : 1;
  const size_t count = size_t(image.width) * image.height * in_channels;
  if (pos > data.size() || data.size() - pos < count) {
    return InvalidArgument(path + ": PNM data ends early (" + std::to_string(image.width) + "x" +
                           std::to_string(image.height) + " needs " + std::to_string(count) +
                           " bytes)");
  }
  image.channels = 3;
  image.pixels.resize(size_t(image.width) * image.height * 3);
  const auto* src = reinterpret_cast<const uint8_t*>(data.data() + pos);
  if (in_channels == 3) {
    std::copy(src, src + count, image.pixels.begin());
  } else {
    for (size_t i = 0; i < count; ++i) {
      image.pixels[3 * i] = image.pixels[3 * i + 1] = image.pixels[3 * i + 2] = src[i];
    }
  }
  return image;
}

Status WritePpm(const std::string& path, const Image& image) {
  if (image.channels != 3) return InvalidArgument(path + ": only RGB images are written");
  std::string bytes = "P6\n" + std::to_string(image.width) + " " + std::to_string(image.height) +
                      "\n255\n";
  bytes.append(image.pixels.begin(), image.pixels.end());
  return WriteStringToFile(path, bytes);
}

Image Resize(const Image& image, int width, int height) {
  Image out;
  out.width = width;
  out.height = height;
  out.channels = image.channels;
  out.pixels.resize(size_t(width) * height * image.channels);
  const double sx = double(image.width) / width, sy = double(image.height) / height;
  for (int y = 0; y < height; ++y) {
    const double src_y = (y + 0.5) * sy - 0.5;
    for (int x = 0; x < width; ++x) {
      const double src_x = (x + 0.5) * sx - 0.5;
      for (int c = 0; c < image.channels; ++c) {
        out.pixels[(size_t(y) * width + x) * image.channels + c] =
            ToByte(Sample(image, src_x, src_y, c));
      }
    }
  }
  return out;
}

Image Rotate180(const Image& image) {
  Image out = image;
  const size_t n = size_t(image.width) * image.height;
  for (size_t i = 0; i < n; ++i) {
    std::copy_n(&image.pixels[(n - 1 - i) * image.channels], image.channels,
                &out.pixels[i * image.channels]);
  }
  return out;
}

Image Rotate90(const Image& image) {
  Image out;
  out.width = image.height;
  out.height = image.width;
  out.channels = image.channels;
  out.pixels.resize(image.pixels.size());
  // Output row r, column c shows input row c, column (width - 1 - r).
  for (int r = 0; r < out.height; ++r) {
    for (int c = 0; c < out.width; ++c) {
      std::copy_n(&image.pixels[(size_t(c) * image.width + (image.width - 1 - r)) * image.channels],
                  image.channels, &out.pixels[(size_t(r) * out.width + c) * image.channels]);
    }
  }
  return out;
}

StatusOr<Image> PerspectiveCrop(const Image& image, const Quad& q, int width, int height) {
  if (width <= 0 || height <= 0 || image.width <= 0 || image.height <= 0) {
    return InvalidArgument("perspective crop: sizes must be positive (crop " +
                           std::to_string(width) + "x" + std::to_string(height) + ", image " +
                           std::to_string(image.width) + "x" + std::to_string(image.height) + ")");
  }
  // Unit square -> quad (Heckbert): x = (a u + b v + c) / (g u + h v + 1).
  const double dx1 = q[1].x - q[2].x, dx2 = q[3].x - q[2].x, dx3 = q[0].x - q[1].x + q[2].x - q[3].x;
  const double dy1 = q[1].y - q[2].y, dy2 = q[3].y - q[2].y, dy3 = q[0].y - q[1].y + q[2].y - q[3].y;
  double g = 0, h = 0;
  if (std::abs(dx3) > 1e-12 || std::abs(dy3) > 1e-12) {
    const double den = dx1 * dy2 - dx2 * dy1;
    if (std::abs(den) < 1e-12) return InvalidArgument("perspective crop: degenerate quad");
    g = (dx3 * dy2 - dx2 * dy3) / den;
    h = (dx1 * dy3 - dx3 * dy1) / den;
  }
  const double a = q[1].x - q[0].x + g * q[1].x, b = q[3].x - q[0].x + h * q[3].x, c = q[0].x;
  const double d = q[1].y - q[0].y + g * q[1].y, e = q[3].y - q[0].y + h * q[3].y, f = q[0].y;
  if (std::abs(a * e - b * d) < 1e-12) return InvalidArgument("perspective crop: degenerate quad");
  Image out;
  out.width = width;
  out.height = height;
  out.channels = image.channels;
  out.pixels.resize(size_t(width) * height * image.channels);
  for (int y = 0; y < height; ++y) {
    const double v = double(y) / height;
    for (int x = 0; x < width; ++x) {
      const double u = double(x) / width;
      const double w = g * u + h * v + 1;
      const double src_x = (a * u + b * v + c) / w, src_y = (d * u + e * v + f) / w;
      for (int ch = 0; ch < image.channels; ++ch) {
        out.pixels[(size_t(y) * width + x) * image.channels + ch] =
            ToByte(Sample(image, src_x, src_y, ch));
      }
    }
  }
  return out;
}

void CropSize(const Quad& q, int* width, int* height) {
  auto dist = [](const Point& p, const Point& r) { return std::hypot(p.x - r.x, p.y - r.y); };
  *width = std::max(1, static_cast<int>(std::lround(std::max(dist(q[0], q[1]), dist(q[3], q[2])))));
  *height = std::max(1, static_cast<int>(std::lround(std::max(dist(q[0], q[3]), dist(q[1], q[2])))));
}

}  // namespace ocr
}  // namespace lite
