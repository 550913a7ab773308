#include "tools/ocr_pipeline.h"

#include <algorithm>

#include "lite/utils/file_util.h"
#include "tools/tool_util.h"

namespace lite {
namespace tools {

namespace {

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

StatusOr<std::shared_ptr<paddle::lite_api::PaddlePredictor>> CreateOcrPredictor(
    const std::string& path, const std::vector<Place>& valid_places, int threads) {
  ModelFlags flags;
  flags.threads = threads;
  flags.valid_places = valid_places;
  if (EndsWith(path, ".nb")) {
    flags.optimized_model = path;
  } else if (IsRegularFile(JoinPath(path, "inference.pdmodel"))) {
    flags.model_file = JoinPath(path, "inference.pdmodel");
    flags.param_file = JoinPath(path, "inference.pdiparams");
  } else if (IsDirectory(path)) {
    flags.model_dir = path;
  } else {
    return NotFound(path + ": neither an .nb file nor a model directory");
  }
  auto predictor = CreatePredictor(flags);
  if (!predictor.ok()) return predictor.status().WithContext(path);
  return predictor;
}

StatusOr<std::unique_ptr<OcrPipeline>> OcrPipeline::Create(const OcrModels& models,
                                                           const OcrOptions& options) {
  std::unique_ptr<OcrPipeline> p(new OcrPipeline());
  p->options_ = options;
  if (models.det.empty() || models.rec.empty()) {
    return InvalidArgument("OCR pipeline: both a det and a rec model are needed");
  }
  ASSIGN_OR_RETURN(p->det_, CreateOcrPredictor(models.det, models.valid_places, models.threads));
  if (!models.cls.empty()) {
    ASSIGN_OR_RETURN(p->cls_, CreateOcrPredictor(models.cls, models.valid_places, models.threads));
  }
  ASSIGN_OR_RETURN(p->rec_, CreateOcrPredictor(models.rec, models.valid_places, models.threads));
  std::string keys = models.keys;
  if (keys.empty()) {
    if (!IsDirectory(models.rec)) {
      return InvalidArgument("OCR pipeline: rec model " + models.rec +
                             " is a file: give its dictionary (ppocr_keys_v1.txt) too");
    }
    keys = JoinPath(models.rec, "ppocr_keys_v1.txt");
  }
  ASSIGN_OR_RETURN(p->dict_, ocr::LoadCtcDictionary(keys, /*use_space_char=*/true));
  return p;
}

Status OcrPipeline::RunModel(paddle::lite_api::PaddlePredictor* predictor,
                             const std::string& what, const ocr::ModelInput& in,
                             std::vector<float>* out, std::vector<int64_t>* shape) {
  auto input = predictor->GetInput(0);
  input->Resize(in.shape);
  Status s = input->CopyFromCpu(in.data.data(), static_cast<int64_t>(in.data.size()));
  if (s.ok()) s = predictor->Run();
  if (!s.ok()) return s.WithContext(what + " model");
  auto output = predictor->GetOutput(0);
  *shape = output->shape();
  out->resize(static_cast<size_t>(output->numel()));
  s = output->CopyToCpu(out->data(), static_cast<int64_t>(out->size()));
  return s.ok() ? s : s.WithContext(what + " model output");
}

StatusOr<std::vector<ocr::TextBox>> OcrPipeline::Detect(const ocr::Image& image) {
  const ocr::ModelInput in = ocr::DetInput(image, options_.det_limit_side);
  std::vector<float> map;
  std::vector<int64_t> shape;
  RETURN_IF_ERROR(RunModel(det_.get(), "det", in, &map, &shape));
  if (shape.size() != 4 || shape[0] != 1 || shape[1] != 1) {
    return InvalidArgument("det model output " + ShapeText(shape) + ": expected [1, 1, H, W]");
  }
  ASSIGN_OR_RETURN(std::vector<ocr::TextBox> boxes,
                   ocr::DbBoxes(map.data(), static_cast<int>(shape[2]),
                                static_cast<int>(shape[3]), options_.db));
  // Map pixels -> image pixels, clipped to the image as PaddleOCR does.
  const double sx = double(shape[3]) / in.shape[3] * in.scale_x;
  const double sy = double(shape[2]) / in.shape[2] * in.scale_y;
  for (ocr::TextBox& box : boxes) {
    for (ocr::Point& p : box.corners) {
      p.x = std::min(std::max(p.x / sx, 0.0), image.width - 1.0);
      p.y = std::min(std::max(p.y / sy, 0.0), image.height - 1.0);
    }
  }
  return boxes;
}

StatusOr<bool> OcrPipeline::IsUpsideDown(const ocr::Image& line, float* score) {
  std::vector<float> probs;
  std::vector<int64_t> shape;
  RETURN_IF_ERROR(RunModel(cls_.get(), "cls", ocr::LineInput(line, 48, 192, 192), &probs, &shape));
  if (probs.size() != 2) {
    return InvalidArgument("cls model output " + ShapeText(shape) + ": expected [1, 2] (0, 180)");
  }
  *score = std::max(probs[0], probs[1]);
  return probs[1] > probs[0] && probs[1] > options_.cls_thresh;
}

StatusOr<ocr::CtcResult> OcrPipeline::Recognize(const ocr::Image& line) {
  std::vector<float> probs;
  std::vector<int64_t> shape;
  RETURN_IF_ERROR(RunModel(rec_.get(), "rec", ocr::LineInput(line, 48, 0, 320, 8), &probs, &shape));
  if (shape.size() != 3 || shape[0] != 1) {
    return InvalidArgument("rec model output " + ShapeText(shape) + ": expected [1, T, classes]");
  }
  auto result = ocr::CtcGreedyDecode(probs.data(), shape[1], shape[2], dict_);
  if (!result.ok()) return result.status().WithContext("rec model output");
  return result;
}

StatusOr<std::vector<OcrLine>> OcrPipeline::Read(const ocr::Image& image) {
  ASSIGN_OR_RETURN(std::vector<ocr::TextBox> boxes, Detect(image));
  std::vector<OcrLine> lines;
  for (const ocr::TextBox& box : boxes) {
    OcrLine line;
    line.box = box.corners;
    line.box_score = box.score;
    int w = 0, h = 0;
    ocr::CropSize(box.corners, &w, &h);
    ASSIGN_OR_RETURN(ocr::Image crop, ocr::PerspectiveCrop(image, box.corners, w, h));
    // A line running down the page: turned to lie along the rec input.
    if (h >= 1.5 * w) crop = ocr::Rotate90(crop);
    if (cls_) {
      ASSIGN_OR_RETURN(line.rotated, IsUpsideDown(crop, &line.angle_score));
      if (line.rotated) crop = ocr::Rotate180(crop);
    }
    ASSIGN_OR_RETURN(ocr::CtcResult text, Recognize(crop));
    line.text = std::move(text.text);
    line.score = text.score;
    lines.push_back(std::move(line));
  }
  return lines;
}

}  // namespace tools
}  // namespace lite
