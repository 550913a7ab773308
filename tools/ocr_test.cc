// The OCR pipeline on the real PP-OCR models (skips without
// ../shared/models): the recognizer's reference line decodes to the text in
// its meta.json (functional_ctc) on host and x86; lines rendered in several
// fonts and sizes (tools/text_lines.py) read exactly, one at a time and as
// one padded batch; the README's test page read through det -> crop -> cls
// -> rec gives every line's text. Model errors name the model.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "lite/model_parser/test_models.h"
#include "lite/utils/file_util.h"
#include "tools/ocr_pipeline.h"
#include "tools/reference.h"
#include "tools/tool_util.h"

namespace lite {
namespace tools {
namespace {

const std::vector<Place> kX86 = {Place(TargetType::kX86), Place(TargetType::kHost)};
const std::vector<Place> kHost = {Place(TargetType::kHost)};
constexpr const char* kRec = "ppocr_rec_ch_PP-OCRv4_from_onnx";

std::string Tmp() {
  const char* t = std::getenv("TEST_TMPDIR");
  return t ? t : "/tmp";
}

OcrModels Models(const std::string& shared, const std::vector<Place>& places) {
  OcrModels m;
  m.det = shared + "/ppocr_det_en_PP-OCRv3";
  m.cls = shared + "/ppocr_cls_mobile_v2.0";
  m.rec = shared + "/" + kRec;
  m.valid_places = places;
  return m;
}

// tools/text_lines.py's lines and the test page as PPM files, rendered by
// Debian's CPython (python3-pil, fonts-dejavu-core: tools/setup.sh).
std::string RenderLines() {
  const std::string dir = JoinPath(Tmp(), "text_lines");
  const std::string cmd = "/usr/bin/python3 tools/text_lines.py --out " + dir +
                          " --page examples/python/test_page.png";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd << " (python3-pil: tools/setup.sh)";
  return dir;
}

std::vector<std::string> ReadLines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(OcrRec, ReferenceLineDecodesToItsText) {
  const std::string shared = SharedModelsDir();
  if (shared.empty()) GTEST_SKIP() << kSharedModelsMissing;
  const std::string dir = shared + "/" + kRec + "/reference";
  auto ref = LoadReference(dir);
  ASSERT_TRUE(ref.ok()) << ref.status().ToString();
  std::string meta;
  ASSERT_TRUE(ReadFileToString(dir + "/meta.json", &meta).ok());
  const auto ctc = nlohmann::json::parse(meta).at("functional_ctc");
  const std::string expected = ctc.at("expected_text").get<std::string>();
  auto dict = ocr::LoadCtcDictionary(
      shared + "/" + kRec + "/" + ctc.at("keys_file").get<std::string>(), true);
  ASSERT_TRUE(dict.ok()) << dict.status().ToString();
  ASSERT_EQ(dict->size() - 1, ctc.at("space_index").get<int64_t>());

  for (const auto& places : {kX86, kHost}) {
    paddle::lite_api::CxxConfig config;
    ConfigureModel(*ref, &config);
    config.set_valid_places(places);
    auto predictor = paddle::lite_api::CreatePaddlePredictor<paddle::lite_api::CxxConfig>(config);
    ASSERT_TRUE(predictor.ok()) << predictor.status().ToString();
    ASSERT_TRUE(FeedInputs(*ref, predictor->get()).ok());
    ASSERT_TRUE((*predictor)->Run().ok());
    auto out = (*predictor)->GetOutput(0);
    const auto shape = out->shape();
    ASSERT_EQ(shape.size(), 3u);
    std::vector<float> probs(out->numel());
    ASSERT_TRUE(out->CopyToCpu(probs.data(), out->numel()).ok());
    auto text = ocr::CtcGreedyDecode(probs.data(), shape[1], shape[2], *dict);
    ASSERT_TRUE(text.ok()) << text.status().ToString();
    EXPECT_EQ(text->text, expected) << TargetsText(places);
    EXPECT_GT(text->score, 0.9f);
  }
}

TEST(OcrRec, RenderedLinesReadExactly) {
  const std::string shared = SharedModelsDir();
  if (shared.empty()) GTEST_SKIP() << kSharedModelsMissing;
  const std::string dir = RenderLines();
  const auto texts = ReadLines(dir + "/lines.txt");
  ASSERT_GE(texts.size(), 5u);
  auto pipeline = OcrPipeline::Create(Models(shared, kX86));
  ASSERT_TRUE(pipeline.ok()) << pipeline.status().ToString();
  for (size_t i = 0; i < texts.size(); ++i) {
    auto line = ocr::ReadPnm(dir + "/line_" + std::to_string(i) + ".ppm");
    ASSERT_TRUE(line.ok()) << line.status().ToString();
    auto text = (*pipeline)->Recognize(*line);
    ASSERT_TRUE(text.ok()) << text.status().ToString();
    EXPECT_EQ(text->text, texts[i]);
  }
}

// Lines padded to a common width and run as one batch read as they do one
// at a time (the rec model's batch and width are both dynamic).
TEST(OcrRec, PaddedBatchReadsLikeSingleLines) {
  const std::string shared = SharedModelsDir();
  if (shared.empty()) GTEST_SKIP() << kSharedModelsMissing;
  const std::string dir = RenderLines();
  const auto texts = ReadLines(dir + "/lines.txt");
  ASSERT_GE(texts.size(), 3u);
  auto rec = CreateOcrPredictor(shared + "/" + kRec, kX86, 1);
  ASSERT_TRUE(rec.ok()) << rec.status().ToString();
  auto dict = ocr::LoadCtcDictionary(shared + "/" + kRec + "/ppocr_keys_v1.txt", true);
  ASSERT_TRUE(dict.ok());
  std::vector<ocr::ModelInput> inputs;
  int64_t width = 0;
  for (size_t i = 0; i < texts.size(); ++i) {
    auto line = ocr::ReadPnm(dir + "/line_" + std::to_string(i) + ".ppm");
    ASSERT_TRUE(line.ok());
    inputs.push_back(ocr::LineInput(*line, 48, 0, 320, 8));
    width = std::max(width, inputs.back().shape[3]);
  }
  // Each line zero-padded (after normalization, as PaddleOCR pads) to the
  // widest, stacked into [lines, 3, 48, width].
  const int64_t n = static_cast<int64_t>(inputs.size()), plane = 48 * width;
  std::vector<float> batch(n * 3 * plane, 0.0f);
  for (int64_t b = 0; b < n; ++b) {
    const int64_t w = inputs[b].shape[3];
    for (int64_t row = 0; row < 3 * 48; ++row) {
      std::copy_n(&inputs[b].data[row * w], w, &batch[b * 3 * plane + row * width]);
    }
  }
  auto in = (*rec)->GetInput(0);
  in->Resize({n, 3, 48, width});
  ASSERT_TRUE(in->CopyFromCpu(batch.data(), static_cast<int64_t>(batch.size())).ok());
  ASSERT_TRUE((*rec)->Run().ok());
  auto out = (*rec)->GetOutput(0);
  const auto shape = out->shape();
  ASSERT_EQ(shape.size(), 3u);
  ASSERT_EQ(shape[0], n);
  std::vector<float> probs(out->numel());
  ASSERT_TRUE(out->CopyToCpu(probs.data(), out->numel()).ok());
  for (int64_t b = 0; b < n; ++b) {
    auto text = ocr::CtcGreedyDecode(&probs[b * shape[1] * shape[2]], shape[1], shape[2], *dict);
    ASSERT_TRUE(text.ok()) << text.status().ToString();
    EXPECT_EQ(text->text, texts[b]) << "line " << b << " in a batch of " << n << ", width " << width;
  }
}

// The test page (examples/python/make_test_page.py) holds these lines; the
// wide gap inside the invoice line makes it two boxes, so the page is
// compared as the words of all lines in reading order.
TEST(OcrPipeline, ReadsEveryLineOfTheTestPage) {
  const std::string shared = SharedModelsDir();
  if (shared.empty()) GTEST_SKIP() << kSharedModelsMissing;
  const std::string dir = RenderLines();
  auto page = ocr::ReadPnm(dir + "/page.ppm");
  ASSERT_TRUE(page.ok()) << page.status().ToString();
  auto pipeline = OcrPipeline::Create(Models(shared, kX86));
  ASSERT_TRUE(pipeline.ok()) << pipeline.status().ToString();
  auto lines = (*pipeline)->Read(*page);
  ASSERT_TRUE(lines.ok()) << lines.status().ToString();
  std::string read;
  for (const OcrLine& line : *lines) {
    read += (read.empty() ? "" : " ") + line.text;
    EXPECT_FALSE(line.rotated) << line.text;
    EXPECT_GT(line.score, 0.8f) << line.text;
  }
  EXPECT_EQ(read,
            "Paddle models from Python Detect text lines with PP-OCRv3 and check their "
            "direction. Invoice 2026-11-25 total 42.50 EUR The quick brown fox jumps over the "
            "lazy dog small print: boxes are drawn in red HELLO WORLD line eight");
  // Upside down, the classifier turns every line back and the text is the same.
  auto turned = (*pipeline)->Read(ocr::Rotate180(*page));
  ASSERT_TRUE(turned.ok()) << turned.status().ToString();
  ASSERT_EQ(turned->size(), lines->size());
  for (const OcrLine& line : *turned) EXPECT_TRUE(line.rotated) << line.text;
}

std::vector<std::string> SortedWords(const std::vector<OcrLine>& lines) {
  std::vector<std::string> words;
  for (const OcrLine& line : lines) {
    std::istringstream in(line.text);
    for (std::string w; in >> w;) words.push_back(w);
  }
  std::sort(words.begin(), words.end());
  return words;
}

// Turned by 90 degrees either way, the lines run down the page: their crops
// are tall, turned to lie flat (and by 180 more where the classifier says)
// and read with the same words.
TEST(OcrPipeline, ReadsTheTestPageSideways) {
  const std::string shared = SharedModelsDir();
  if (shared.empty()) GTEST_SKIP() << kSharedModelsMissing;
  auto page = ocr::ReadPnm(RenderLines() + "/page.ppm");
  ASSERT_TRUE(page.ok()) << page.status().ToString();
  auto pipeline = OcrPipeline::Create(Models(shared, kX86));
  ASSERT_TRUE(pipeline.ok()) << pipeline.status().ToString();
  auto upright = (*pipeline)->Read(*page);
  ASSERT_TRUE(upright.ok());
  const ocr::Image left = ocr::Rotate90(*page);
  const ocr::Image right = ocr::Rotate90(ocr::Rotate180(*page));
  for (const ocr::Image* sideways : {&left, &right}) {
    auto lines = (*pipeline)->Read(*sideways);
    ASSERT_TRUE(lines.ok()) << lines.status().ToString();
    EXPECT_EQ(SortedWords(*lines), SortedWords(*upright))
        << (sideways == &left ? "counterclockwise" : "clockwise");
  }
}

TEST(OcrPipeline, MissingModelIsAnErrorNamingIt) {
  OcrModels m;
  m.det = JoinPath(Tmp(), "no_such_det");
  m.rec = JoinPath(Tmp(), "no_such_rec");
  auto pipeline = OcrPipeline::Create(m);
  ASSERT_FALSE(pipeline.ok());
  EXPECT_NE(pipeline.status().message().find("no_such_det"), std::string::npos);
}

}  // namespace
}  // namespace tools
}  // namespace lite
