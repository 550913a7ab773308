// PaddleOCR's whole pipeline on the engine: det -> DB boxes -> perspective
// crop of each box (turned by 90 degrees counterclockwise when at least 1.5
// times as tall as wide, as PaddleOCR does) -> direction classifier (turn
// the line by 180 degrees where it says so) -> recognizer (lines of similar
// width in batches) -> CTC decoding with the dictionary. The pre- and
// post-processing are lite/ocr's; this file runs the three predictors
// between them. Used by tools/ocr and its tests.
//
// A model is a directory (inference.pdmodel + inference.pdiparams, or a
// model_dir the full predictor reads; the full predictor optimizes it on
// load) or an optimized .nb file (the light predictor).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "lite/api/paddle_api.h"
#include "lite/backends/npu/npu_options.h"
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
  NpuOptions npu;  // NPU subgraphs (driver, ...) when npu is among valid_places
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
  // Lines recognized per rec run (PaddleOCR's rec_batch_num): sorted by
  // width / height, each batch padded to its widest line's input width.
  int rec_batch = 6;
  // A batch's width is at most this much (a fraction) above its narrowest
  // line's own input width: the recognizer's attention blocks mix the
  // padding into every step, and lines padded far beyond their width lose
  // their spaces.
  double rec_max_padding = 0.1;
};

// Time spent in each model (feeding the input, running, copying the
// output out), summed over the calls since the pipeline was created or
// the times were reset.
struct OcrStageTimes {
  double det_ms = 0, cls_ms = 0, rec_ms = 0;
  int det_runs = 0, cls_runs = 0, rec_runs = 0;
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
  // The texts of straightened lines, in their order, recognized in batches
  // of up to options.rec_batch lines of similar width / height (each batch
  // zero-padded to a common width, as PaddleOCR does, at most
  // options.rec_max_padding wider than its narrowest line's input).
  StatusOr<std::vector<ocr::CtcResult>> RecognizeLines(const std::vector<ocr::Image>& lines);
  // Every line of the image.
  StatusOr<std::vector<OcrLine>> Read(const ocr::Image& image);

  const ocr::CtcDictionary& dictionary() const { return dict_; }
  const OcrStageTimes& times() const { return times_; }
  void ResetTimes() { times_ = OcrStageTimes(); }
  // Called with the model ("det", "cls" or "rec") and its input before each
  // model run (tools/ocr --save_inputs writes them for other runtimes).
  using InputObserver = std::function<void(const std::string& model, const ocr::ModelInput&)>;
  void set_input_observer(InputObserver observer) { observer_ = std::move(observer); }

 private:
  OcrPipeline() = default;
  // Feeds `in` to input 0, runs, and copies output 0 out with its shape;
  // adds the time taken to `*ms` and counts the run in `*runs`.
  Status RunModel(paddle::lite_api::PaddlePredictor* predictor, const std::string& what,
                  const ocr::ModelInput& in, std::vector<float>* out,
                  std::vector<int64_t>* shape, double* ms, int* runs);

  OcrOptions options_;
  std::shared_ptr<paddle::lite_api::PaddlePredictor> det_, cls_, rec_;
  ocr::CtcDictionary dict_;
  OcrStageTimes times_;
  InputObserver observer_;
};

// The predictor for one model path (a directory or an .nb file).
StatusOr<std::shared_ptr<paddle::lite_api::PaddlePredictor>> CreateOcrPredictor(
    const std::string& path, const std::vector<Place>& valid_places, int threads,
    const NpuOptions& npu = NpuOptions());

}  // namespace tools
}  // namespace lite
