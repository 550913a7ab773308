#include "tools/ocr_pipeline.h"

#include <algorithm>
#include <chrono>
#include <numeric>

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
    const std::string& path, const std::vector<Place>& valid_places, int threads,
    const NpuOptions& npu) {
  ModelFlags flags;
  flags.threads = threads;
  flags.valid_places = valid_places;
  flags.npu = npu;
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
  if (options.rec_batch < 1 || !(options.rec_max_padding >= 0)) {
    return InvalidArgument("OCR pipeline: rec_batch " + std::to_string(options.rec_batch) +
                           " must be at least 1 and rec_max_padding " +
                           std::to_string(options.rec_max_padding) + " at least 0");
  }
  if (models.det.empty() || models.rec.empty()) {
    return InvalidArgument("OCR pipeline: both a det and a rec model are needed");
  }
  ASSIGN_OR_RETURN(p->det_, CreateOcrPredictor(models.det, models.valid_places, models.threads, models.npu));
  if (!models.cls.empty()) {
    ASSIGN_OR_RETURN(p->cls_, CreateOcrPredictor(models.cls, models.valid_places, models.threads, models.npu));
  }
  ASSIGN_OR_RETURN(p->rec_, CreateOcrPredictor(models.rec, models.valid_places, models.threads, models.npu));
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
                             std::vector<float>* out, std::vector<int64_t>* shape,
                             double* ms, int* runs) {
  if (observer_) observer_(what, in);
  const auto start = std::chrono::steady_clock::now();
  auto input = predictor->GetInput(0);
  input->Resize(in.shape);
  Status s = input->CopyFromCpu(in.data.data(), static_cast<int64_t>(in.data.size()));
  if (s.ok()) s = predictor->Run();
  if (!s.ok()) return s.WithContext(what + " model");
  auto output = predictor->GetOutput(0);
  *shape = output->shape();
  out->resize(static_cast<size_t>(output->numel()));
  s = output->CopyToCpu(out->data(), static_cast<int64_t>(out->size()));
  *ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  ++*runs;
  return s.ok() ? s : s.WithContext(what + " model output");
}

StatusOr<std::vector<ocr::TextBox>> OcrPipeline::Detect(const ocr::Image& image) {
  const ocr::ModelInput in = ocr::DetInput(image, options_.det_limit_side);
  std::vector<float> map;
  std::vector<int64_t> shape;
  RETURN_IF_ERROR(RunModel(det_.get(), "det", in, &map, &shape, &times_.det_ms, &times_.det_runs));
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
  RETURN_IF_ERROR(RunModel(cls_.get(), "cls", ocr::LineInput(line, 48, 192, 192), &probs, &shape,
                           &times_.cls_ms, &times_.cls_runs));
  if (probs.size() != 2) {
    return InvalidArgument("cls model output " + ShapeText(shape) + ": expected [1, 2] (0, 180)");
  }
  *score = std::max(probs[0], probs[1]);
  return probs[1] > probs[0] && probs[1] > options_.cls_thresh;
}

StatusOr<ocr::CtcResult> OcrPipeline::Recognize(const ocr::Image& line) {
  ASSIGN_OR_RETURN(std::vector<ocr::CtcResult> texts, RecognizeLines({line}));
  return std::move(texts[0]);
}

StatusOr<std::vector<ocr::CtcResult>> OcrPipeline::RecognizeLines(
    const std::vector<ocr::Image>& lines) {
  // Similar widths share a batch, so that little of it is padding.
  std::vector<size_t> order(lines.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return double(lines[a].width) / lines[a].height < double(lines[b].width) / lines[b].height;
  });
  std::vector<ocr::CtcResult> texts(lines.size());
  std::vector<float> probs;
  std::vector<int64_t> shape;
  for (size_t first = 0, n = 0; first < order.size(); first += n) {
    // Each line as alone (height 48, padded to 320 or a multiple of 8), then
    // zero-padded (after normalization, as PaddleOCR pads) to the widest. The
    // attention blocks see the padding, so a line joins a batch only while
    // the batch is at most rec_max_padding wider than the line's own input.
    std::vector<ocr::ModelInput> inputs;
    int64_t width = 0;
    for (n = 0; first + n < order.size() && n < static_cast<size_t>(options_.rec_batch); ++n) {
      ocr::ModelInput in = ocr::LineInput(lines[order[first + n]], 48, 0, 320, 8);
      if (n > 0 && in.shape[3] > inputs[0].shape[3] * (1.0 + options_.rec_max_padding)) break;
      width = std::max(width, in.shape[3]);
      inputs.push_back(std::move(in));
    }
    ocr::ModelInput batch;
    const int64_t plane = 48 * width;
    batch.shape = {static_cast<int64_t>(n), 3, 48, width};
    batch.data.assign(n * 3 * plane, 0.0f);
    for (size_t b = 0; b < n; ++b) {
      const int64_t w = inputs[b].shape[3];
      for (int64_t row = 0; row < 3 * 48; ++row) {
        std::copy_n(&inputs[b].data[row * w], w, &batch.data[b * 3 * plane + row * width]);
      }
    }
    RETURN_IF_ERROR(
        RunModel(rec_.get(), "rec", batch, &probs, &shape, &times_.rec_ms, &times_.rec_runs));
    if (shape.size() != 3 || shape[0] != static_cast<int64_t>(n)) {
      return InvalidArgument("rec model output " + ShapeText(shape) + ": expected [" +
                             std::to_string(n) + ", T, classes]");
    }
    for (size_t b = 0; b < n; ++b) {
      auto result = ocr::CtcGreedyDecode(&probs[b * shape[1] * shape[2]], shape[1], shape[2], dict_);
      if (!result.ok()) return result.status().WithContext("rec model output");
      texts[order[first + b]] = std::move(*result);
    }
  }
  return texts;
}

StatusOr<std::vector<OcrLine>> OcrPipeline::Read(const ocr::Image& image) {
  ASSIGN_OR_RETURN(std::vector<ocr::TextBox> boxes, Detect(image));
  std::vector<OcrLine> lines;
  std::vector<ocr::Image> crops;
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
    crops.push_back(std::move(crop));
    lines.push_back(std::move(line));
  }
  ASSIGN_OR_RETURN(std::vector<ocr::CtcResult> texts, RecognizeLines(crops));
  for (size_t i = 0; i < lines.size(); ++i) {
    lines[i].text = std::move(texts[i].text);
    lines[i].score = texts[i].score;
  }
  return lines;
}

}  // namespace tools
}  // namespace lite
