// ocr: reads the text of an image with PaddleOCR's det, cls and rec models
// (tools/ocr_pipeline.h), one line per text box:
//
//   ocr --image=page.ppm --det_model=DIR|FILE.nb [--cls_model=...]
//       --rec_model=DIR|FILE.nb [--rec_keys=ppocr_keys_v1.txt]
//   0: (38,27) (552,27) (552,78) (38,78) box 0.91 angle 0 (1.00) score 0.99 text "..."
//
// Images are binary PPM/PGM files (convert others with any image tool,
// e.g. PIL's Image.save("page.ppm")).
#include <gflags/gflags.h>

#include <cstdio>

#include "tools/ocr_pipeline.h"
#include "tools/tool_util.h"

DEFINE_string(image, "", "the image: binary PPM (P6) or PGM (P5), 8-bit");
DEFINE_string(det_model, "", "text detector (DB): model directory or .nb");
DEFINE_string(cls_model, "", "text direction classifier: model directory or .nb (empty: none)");
DEFINE_string(rec_model, "", "text recognizer (CTC): model directory or .nb");
DEFINE_string(rec_keys, "", "the recognizer's dictionary (default <rec_model>/ppocr_keys_v1.txt)");
DEFINE_string(valid_targets, "x86,host", "full predictor: host, x86, npu, arm (comma list)");
DEFINE_int32(threads, 1, "threads of each predictor");
DEFINE_int32(det_limit_side, 960, "longest side of the detector's input");
DEFINE_double(box_thresh, 0.6, "minimum DB box score");
DEFINE_double(unclip_ratio, 2.0, "growth of a DB text kernel back to its line (PaddleOCR 3 pipelines: 2.0)");
DEFINE_double(cls_thresh, 0.9, "a line turns by 180 degrees when the classifier's score is above this");

int main(int argc, char** argv) {
  gflags::SetUsageMessage("ocr --image=IMAGE.ppm --det_model=M --rec_model=M [--cls_model=M]");
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  using namespace lite;  // NOLINT
  if (FLAGS_image.empty() || FLAGS_det_model.empty() || FLAGS_rec_model.empty()) {
    return tools::Fail("ocr", InvalidArgument("--image, --det_model and --rec_model are required"));
  }
  auto places = tools::ParseValidTargets(FLAGS_valid_targets);
  if (!places.ok()) return tools::Fail("ocr", places.status());
  tools::OcrModels models;
  models.det = FLAGS_det_model;
  models.cls = FLAGS_cls_model;
  models.rec = FLAGS_rec_model;
  models.keys = FLAGS_rec_keys;
  models.valid_places = *places;
  models.threads = FLAGS_threads;
  tools::OcrOptions options;
  options.det_limit_side = FLAGS_det_limit_side;
  options.db.box_thresh = static_cast<float>(FLAGS_box_thresh);
  options.db.unclip_ratio = static_cast<float>(FLAGS_unclip_ratio);
  options.cls_thresh = static_cast<float>(FLAGS_cls_thresh);

  auto image = ocr::ReadPnm(FLAGS_image);
  if (!image.ok()) return tools::Fail("ocr", image.status());
  auto pipeline = tools::OcrPipeline::Create(models, options);
  if (!pipeline.ok()) return tools::Fail("ocr", pipeline.status());
  auto lines = (*pipeline)->Read(*image);
  if (!lines.ok()) return tools::Fail("ocr", lines.status());
  for (size_t i = 0; i < lines->size(); ++i) {
    const tools::OcrLine& line = (*lines)[i];
    std::printf("%zu:", i);
    for (const ocr::Point& p : line.box) std::printf(" (%.0f,%.0f)", p.x, p.y);
    std::printf(" box %.2f", line.box_score);
    if (!FLAGS_cls_model.empty()) {
      std::printf(" angle %s (%.2f)", line.rotated ? "180" : "0", line.angle_score);
    }
    std::printf(" score %.2f text \"%s\"\n", line.score, line.text.c_str());
  }
  return 0;
}
