// Shape buckets on the real text detector (ppocr_det_en_PP-OCRv3, x86; host
// on the aarch64 build, which has no x86 target): the
// reference page cut to sizes that are multiples of 32 but not of 64, run
// without buckets and with buckets of 64 (zero padding at the bottom and
// right, the map cropped back). The padding changes the map: the convs near
// the bottom and right edge see zeros (in normalized units: mean gray)
// instead of the conv's own padding, and the neck's squeeze-excitation
// blocks average over the whole padded plane, so every pixel moves a
// little. What must hold: lite/ocr's DB post-processing finds the same
// boxes (same count, each matched to its nearest), corners within kCornerPx, or
// kEdgeCornerPx for a corner near a padded edge (text the cut runs into);
// beyond kMarginPx of the padded edges the binary maps (prob > 0.3) overlap
// with IoU >= kMinIou. The first padded run also makes the inferred crop's
// check run (one bucket further). The stats must show the padded runs and a
// hit, so the test fails when bucketing is off.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iostream>
#include <vector>

#include "lite/api/build_targets.h"
#include "lite/api/paddle_api.h"
#include "lite/model_parser/test_models.h"
#include "lite/ocr/db_postprocess.h"
#include "tools/reference.h"

namespace {

using namespace paddle::lite_api;  // NOLINT

constexpr double kCornerPx = 4.0;      // a DB box corner may move this far
constexpr double kEdgeCornerPx = 6.0;  // one within kMarginPx of a padded edge
constexpr int kMarginPx = 32;         // rows/cols this close to a padded edge are not compared
constexpr double kMinIou = 0.975;     // binary maps (prob > 0.3) elsewhere

// The top-left h x w of the 3 x 640 x 640 reference image.
std::vector<float> Cut(const std::string& bytes, int h, int w) {
  const float* src = reinterpret_cast<const float*>(bytes.data());
  std::vector<float> out(3 * h * w);
  for (int c = 0; c < 3; ++c)
    for (int y = 0; y < h; ++y)
      std::memcpy(&out[(c * h + y) * w], &src[(c * 640 + y) * 640], w * sizeof(float));
  return out;
}

std::vector<float> Map(PaddlePredictor* p, const std::vector<float>& img, int h, int w) {
  auto in = p->GetInput(0);
  in->Resize({1, 3, h, w});
  EXPECT_TRUE(in->CopyFromCpu(img.data(), static_cast<int64_t>(img.size())).ok());
  Status s = p->Run();
  EXPECT_TRUE(s.ok()) << s.ToString();
  if (!s.ok()) return {};
  auto out = p->GetOutput(0);
  EXPECT_EQ(out->shape(), (shape_t{1, 1, h, w}));
  std::vector<float> v(out->numel());
  out->CopyToCpu(v.data());
  return v;
}

TEST(ShapeBucketsDet, SameBoxesAndMapInsideWithBucketsOf64) {
  const std::string root = lite::SharedModelsDir();
  if (root.empty()) GTEST_SKIP() << lite::kSharedModelsMissing;
  auto ref = lite::tools::LoadReference(root + "/ppocr_det_en_PP-OCRv3/reference");
  ASSERT_TRUE(ref.ok()) << ref.status().ToString();
  CxxConfig config;
  lite::tools::ConfigureModel(*ref, &config);
  std::vector<lite::Place> places = {lite::Place(lite::TargetType::kHost)};
  if (lite::TargetInBuild(lite::TargetType::kX86)) {
    places.insert(places.begin(), lite::Place(lite::TargetType::kX86));
  }
  config.set_valid_places(places);
  auto plain = CreatePaddlePredictor<CxxConfig>(config);
  config.set_shape_buckets(64);
  auto bucketed = CreatePaddlePredictor<CxxConfig>(config);
  ASSERT_TRUE(plain.ok() && bucketed.ok());

  // H x W -> bucket: 608x544 -> 640x576, 480x416 -> 512x448, 352x608 ->
  // 384x640, 608x576 -> 640x576 (a hit).
  const std::vector<std::pair<int, int>> sizes = {{608, 544}, {480, 416}, {352, 608}, {608, 576}};
  for (const auto& hw : sizes) {
    const int h = hw.first, w = hw.second;
    SCOPED_TRACE(std::to_string(h) + "x" + std::to_string(w));
    const std::vector<float> img = Cut(ref->inputs[0].bytes, h, w);
    const std::vector<float> a = Map(plain->get(), img, h, w);
    const std::vector<float> b = Map(bucketed->get(), img, h, w);
    ASSERT_EQ(a.size(), b.size());
    ASSERT_FALSE(a.empty());
    const bool pad_h = h % 64 != 0, pad_w = w % 64 != 0;
    // Away from the padded edges: the binary maps (prob > 0.3, the DB
    // threshold) as IoU, the mean absolute difference, and the share of
    // pixels that differ by more than 0.1.
    int64_t both = 0, either = 0, far = 0, off = 0;
    double sum = 0;
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        const bool near = (pad_h && y >= h - kMarginPx) || (pad_w && x >= w - kMarginPx);
        if (near) continue;
        const float va = a[y * w + x], vb = b[y * w + x];
        both += va > 0.3f && vb > 0.3f;
        either += va > 0.3f || vb > 0.3f;
        sum += std::fabs(va - vb);
        off += std::fabs(va - vb) > 0.1f;
        ++far;
      }
    }
    const double iou = either ? static_cast<double>(both) / either : 1.0;
    const double mean = sum / far, share = static_cast<double>(off) / far;
    auto boxes_a = lite::ocr::DbBoxes(a.data(), h, w);
    auto boxes_b = lite::ocr::DbBoxes(b.data(), h, w);
    ASSERT_TRUE(boxes_a.ok() && boxes_b.ok());
    // Each box matched to the other run's box nearest to it (reading order
    // can swap two boxes on one line whose tops moved by a pixel); one to
    // one. Corners within kMarginPx of a padded edge (text the cut runs
    // into) and the others, apart.
    double corner_edge = 0, corner = 0;
    ASSERT_EQ(boxes_a->size(), boxes_b->size());
    std::vector<bool> taken(boxes_b->size(), false);
    for (const auto& box : *boxes_a) {
      auto dist = [&](const lite::ocr::TextBox& other) {
        double d = 0;
        for (int k = 0; k < 4; ++k) {
          d = std::max({d, std::fabs(box.corners[k].x - other.corners[k].x),
                        std::fabs(box.corners[k].y - other.corners[k].y)});
        }
        return d;
      };
      size_t best = 0;
      for (size_t i = 1; i < boxes_b->size(); ++i) {
        if (dist((*boxes_b)[i]) < dist((*boxes_b)[best])) best = i;
      }
      EXPECT_FALSE(taken[best]) << "two boxes match the same one";
      taken[best] = true;
      for (int k = 0; k < 4; ++k) {
        const lite::ocr::Point pa = box.corners[k], pb = (*boxes_b)[best].corners[k];
        const double d = std::max(std::fabs(pa.x - pb.x), std::fabs(pa.y - pb.y));
        const bool near = (pad_h && pa.y >= h - kMarginPx) || (pad_w && pa.x >= w - kMarginPx);
        (near ? corner_edge : corner) = std::max(near ? corner_edge : corner, d);
      }
    }
    std::cout << h << "x" << w << ": " << boxes_a->size() << " boxes, corners within " << corner
              << " px (" << corner_edge << " px near the padded edges); beyond " << kMarginPx << " px of the padded edges: binary IoU " << iou
              << ", mean |diff| " << mean << ", " << 100 * share << "% of pixels off by > 0.1\n";
    EXPECT_GT(boxes_a->size(), 0u);
    EXPECT_LE(corner, kCornerPx);
    EXPECT_LE(corner_edge, kEdgeCornerPx);
    EXPECT_GE(iou, kMinIou);
  }
  const MemoryStats st = (*bucketed)->GetMemoryStats();
  EXPECT_EQ(st.bucket_padded_runs, 4);
  EXPECT_EQ(st.bucket_hits, 1);
  EXPECT_EQ(st.bucket_shapes, 3);
  EXPECT_EQ(st.bucket_check_runs, 1);
}

}  // namespace
