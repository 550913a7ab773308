// ocr: reads the text of an image with PaddleOCR's det, cls and rec models
// (tools/ocr_pipeline.h), one line per text box:
//
//   ocr --image=page.ppm --det_model=DIR|FILE.nb [--cls_model=...]
//       --rec_model=DIR|FILE.nb [--rec_keys=ppocr_keys_v1.txt]
//       [--valid_targets=npu,host --npu_driver=xnnpack ...] [--rec_batch=6]
//   0: (38,27) (552,27) (552,78) (38,78) box 0.91 angle 0 (1.00) score 0.99 text "..."
//
// Images are binary PPM/PGM files (convert others with any image tool,
// e.g. PIL's Image.save("page.ppm")).
//
// --repeats=N reads the image N more times and prints, as one JSON line, the
// median time per read of each model (det, cls, rec: input, run, output);
// --save_inputs=DIR writes every model input of the first read as raw
// float32 files with DIR/inputs.json ([{"model","file","shape"}] in run
// order), so that another runtime can run the same models on the same
// inputs (tools/ocr_page_ort.js, tools/ocr_page_ab.sh).
#include <gflags/gflags.h>

#include <sys/stat.h>

#include <cstdio>

#include <nlohmann/json.hpp>

#include "lite/utils/file_util.h"
#include "tools/npu_flags.h"
#include "tools/ocr_pipeline.h"
#include "tools/tool_util.h"

DEFINE_string(image, "", "the image: binary PPM (P6) or PGM (P5), 8-bit");
DEFINE_string(det_model, "", "text detector (DB): model directory or .nb");
DEFINE_string(cls_model, "", "text direction classifier: model directory or .nb (empty: none)");
DEFINE_string(rec_model, "", "text recognizer (CTC): model directory or .nb");
DEFINE_string(rec_keys, "", "the recognizer's dictionary (default <rec_model>/ppocr_keys_v1.txt)");
DEFINE_string(valid_targets, lite::tools::DefaultCpuTargets(),
              "full predictor: host, x86, npu, arm (comma list; default x86,host, host on aarch64)");
DEFINE_int32(threads, 1, "threads of each predictor");
DEFINE_int32(det_limit_side, 960, "longest side of the detector's input");
DEFINE_double(box_thresh, 0.6, "minimum DB box score");
DEFINE_double(unclip_ratio, 2.0, "growth of a DB text kernel back to its line (PaddleOCR 3 pipelines: 2.0)");
DEFINE_double(cls_thresh, 0.9, "a line turns by 180 degrees when the classifier's score is above this");
DEFINE_int32(rec_batch, 6, "lines per recognizer run (PaddleOCR's rec_batch_num)");
DEFINE_double(rec_max_padding, 0.1, "a rec batch is at most this fraction wider than its narrowest line");
DEFINE_int32(repeats, 0, "read the image this many more times and print per-model median times");
DEFINE_string(save_inputs, "", "write every model input of the first read to this directory");

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
  const bool light = FLAGS_rec_model.size() > 3 &&
                     FLAGS_rec_model.compare(FLAGS_rec_model.size() - 3, 3, ".nb") == 0;
  auto npu = tools::NpuOptionsFromFlags(*places, light);
  if (!npu.ok()) return tools::Fail("ocr", npu.status());
  models.npu = *npu;
  tools::OcrOptions options;
  options.det_limit_side = FLAGS_det_limit_side;
  options.db.box_thresh = static_cast<float>(FLAGS_box_thresh);
  options.db.unclip_ratio = static_cast<float>(FLAGS_unclip_ratio);
  options.cls_thresh = static_cast<float>(FLAGS_cls_thresh);
  options.rec_batch = FLAGS_rec_batch;
  options.rec_max_padding = FLAGS_rec_max_padding;
  if (FLAGS_repeats < 0) return tools::Fail("ocr", InvalidArgument("--repeats must be >= 0"));

  auto image = ocr::ReadPnm(FLAGS_image);
  if (!image.ok()) return tools::Fail("ocr", image.status());
  auto pipeline = tools::OcrPipeline::Create(models, options);
  if (!pipeline.ok()) return tools::Fail("ocr", pipeline.status());
  nlohmann::json saved = nlohmann::json::array();
  Status write;  // the first failed write of --save_inputs
  if (!FLAGS_save_inputs.empty()) {
    ::mkdir(FLAGS_save_inputs.c_str(), 0755);
    if (!IsDirectory(FLAGS_save_inputs)) {
      return tools::Fail("ocr", InvalidArgument("--save_inputs: cannot create " + FLAGS_save_inputs));
    }
    (*pipeline)->set_input_observer(
        [&saved, &write](const std::string& model, const ocr::ModelInput& in) {
          const std::string file = model + "_" + std::to_string(saved.size()) + ".bin";
          Status s = WriteStringToFile(
              JoinPath(FLAGS_save_inputs, file),
              std::string(reinterpret_cast<const char*>(in.data.data()), in.data.size() * sizeof(float)));
          if (write.ok()) write = s;
          saved.push_back({{"model", model}, {"file", file}, {"shape", in.shape}});
        });
  }
  auto lines = (*pipeline)->Read(*image);
  if (!lines.ok()) return tools::Fail("ocr", lines.status());
  if (!FLAGS_save_inputs.empty()) {
    (*pipeline)->set_input_observer(nullptr);
    const std::string list = JoinPath(FLAGS_save_inputs, "inputs.json");
    if (write.ok()) write = WriteStringToFile(list, saved.dump(1) + "\n");
    if (!write.ok()) return tools::Fail("ocr", write.WithContext("--save_inputs"));
  }
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
  if (FLAGS_repeats > 0) {
    std::vector<double> det, cls, rec, total;
    for (int r = 0; r < FLAGS_repeats; ++r) {
      (*pipeline)->ResetTimes();
      auto again = (*pipeline)->Read(*image);
      if (!again.ok()) return tools::Fail("ocr", again.status());
      const tools::OcrStageTimes& t = (*pipeline)->times();
      det.push_back(t.det_ms);
      cls.push_back(t.cls_ms);
      rec.push_back(t.rec_ms);
      total.push_back(t.det_ms + t.cls_ms + t.rec_ms);
    }
    const tools::OcrStageTimes& t = (*pipeline)->times();
    std::printf("{\"det_ms\":%.3f,\"cls_ms\":%.3f,\"rec_ms\":%.3f,\"median_ms\":%.3f,"
                "\"lines\":%zu,\"cls_runs\":%d,\"rec_runs\":%d,\"repeats\":%d}\n",
                tools::Summarize(det).median, tools::Summarize(cls).median,
                tools::Summarize(rec).median, tools::Summarize(total).median, lines->size(), t.cls_runs,
                t.rec_runs, FLAGS_repeats);
  }
  return 0;
}
