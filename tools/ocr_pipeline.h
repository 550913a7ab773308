// PaddleOCR's whole pipeline on the engine: det -> DB boxes -> perspective
// crop of each box (turned by 90 degrees counterclockwise when at least 1.5
// times as tall as wide, as PaddleOCR does) -> direction classifier (turn the line by 180 degrees
// where it says so) -> recognizer -> CTC decoding with the dictionary. The
// pre- and post-processing are lite/ocr's; this file runs the three
// predictors between them. Used by tools/ocr and its tests.
//
// A model is a directory (inference.pdmodel + inference.pdiparams, or a
// model_dir the full predictor reads; the full predictor optimizes it on
// load) or an optimized .nb file (the light predictor).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "lite/api/paddle_api.h"
#include "lite/ocr/ctc_decode.h"
#include "lite/ocr/db_postprocess.h"
#include "lite/ocr/image.h"
#include "lite/ocr/preprocess.h"

namespace lite {
namespace tools {

struct OcrModels {
  std::string det;
  std::string cls;   // empty: no direction classifier, every line read as it is
  std::string rec;
  std::string keys;  // empty: <rec>/ppocr_keys_v1.txt when rec is a directory
  std::vector<Place> valid_places{Place(TargetType::kHost)};  // full predictor
  int threads = 1;
};

struct OcrOptions {
  OcrOptions() { db.unclip_ratio = 2.0f; }
  // DB with PaddleOCR 3's pipeline unclip ratio (2.0, not DBPostProcess's
  // 1.5): the smaller boxes cut ascenders and descenders, and the
  // recognizer then drops the spaces between words.
  ocr::DbOptions db;
  int det_limit_side = 960;  // longest side of the detector's input
  float cls_thresh = 0.9f;   // a line turns when "180" scores above this
};

struct OcrLine {
  ocr::Quad box;           // in image pixels
  float box_score = 0;
  bool rotated = false;    // the classifier turned the crop by 180 degrees
  float angle_score = 0;   // the classifier's top probability (0 without one)
  std::string text;
  float score = 0;         // CTC score of the text
};

class OcrPipeline {
 public:
  // Loads the models and the dictionary. Errors name the model or file.
  static StatusOr<std::unique_ptr<OcrPipeline>> Create(const OcrModels& models,
                                                       const OcrOptions& options = OcrOptions());

  // The text boxes of an image, in image pixels, reading order.
  StatusOr<std::vector<ocr::TextBox>> Detect(const ocr::Image& image);
  // Whether a straightened line is upside down, and the top probability.
  StatusOr<bool> IsUpsideDown(const ocr::Image& line, float* score);
  // The text of a straightened line.
  StatusOr<ocr::CtcResult> Recognize(const ocr::Image& line);
  // Every line of the image.
  StatusOr<std::vector<OcrLine>> Read(const ocr::Image& image);

  const ocr::CtcDictionary& dictionary() const { return dict_; }

 private:
  OcrPipeline() = default;
  // Feeds `in` to input 0, runs, and copies output 0 out with its shape.
  Status RunModel(paddle::lite_api::PaddlePredictor* predictor, const std::string& what,
                  const ocr::ModelInput& in, std::vector<float>* out,
                  std::vector<int64_t>* shape);

  OcrOptions options_;
  std::shared_ptr<paddle::lite_api::PaddlePredictor> det_, cls_, rec_;
  ocr::CtcDictionary dict_;
};

// The predictor for one model path (a directory or an .nb file).
StatusOr<std::shared_ptr<paddle::lite_api::PaddlePredictor>> CreateOcrPredictor(
    const std::string& path, const std::vector<Place>& valid_places, int threads);

}  // namespace tools
}  // namespace lite
