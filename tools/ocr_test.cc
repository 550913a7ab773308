// The OCR pipeline on the real PP-OCR models (skips without
// ../shared/models): on x86 (not on the aarch64 build, which has no x86
// target), host, arm and npu (xnnpack, reference, ccodegen)
// the recognizer's reference line matches the reference and decodes to the
// text in its meta.json (functional_ctc), and lines rendered in several
// fonts and sizes (tools/text_lines.py: Latin, digits, Chinese characters)
// read exactly, one at a time and as one padded batch; the README's test
// page read through det -> crop -> cls -> rec (lines in batches) gives
// every line's text, as it does one line at a time (on x86,host, or host on
// aarch64: tools/ocr's default). Model errors name the model.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "lite/api/build_targets.h"
#include "lite/model_parser/test_models.h"
#include "lite/utils/file_util.h"
#include "tools/ocr_pipeline.h"
#include "tools/reference.h"
#include "tools/tool_util.h"

namespace lite {
namespace tools {
namespace {

const std::vector<Place> kX86 = {Place(TargetType::kX86), Place(TargetType::kHost)};
// The pipeline tests' places: x86,host, or host on the aarch64 build.
const std::vector<Place> kCpu = *ParseValidTargets(DefaultCpuTargets());
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
// Debian's CPython (python3-pil, fonts-dejavu-core, fonts-wqy-microhei:
// tools/setup.sh).
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

// One target mix the recognizer runs on; `lines`: how many rendered lines
// it reads (-1: all). ccodegen compiles C for every new input width, so it
// reads one.
struct RecTarget {
  std::string name;
  std::vector<Place> places;
  std::string driver;  // NPU driver, for npu mixes
  int lines = -1;
};

void PrintTo(const RecTarget& t, std::ostream* os) { *os << t.name; }

class OcrRecTargets : public ::testing::TestWithParam<RecTarget> {};

// The reference line (48 x 608) within the reference's tolerance and
// decoded to meta.json's functional_ctc text; the rendered lines (Latin,
// digits, Chinese characters of the dictionary) read exactly. On npu
// mixes every subgraph must run on its driver (strict).
TEST_P(OcrRecTargets, ReferenceAndRenderedLinesReadExactly) {
  const RecTarget& target = GetParam();
  const Status in_build = CheckPlacesInBuild(target.places);
  if (!in_build.ok()) GTEST_SKIP() << in_build.message();
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

  paddle::lite_api::CxxConfig config;
  ConfigureModel(*ref, &config);
  config.set_valid_places(target.places);
  if (!target.driver.empty()) {
    config.set_npu_driver(target.driver);
    config.set_npu_strict(true);
  }
  auto predictor = paddle::lite_api::CreatePaddlePredictor<paddle::lite_api::CxxConfig>(config);
  ASSERT_TRUE(predictor.ok()) << predictor.status().ToString();
  ASSERT_TRUE(FeedInputs(*ref, predictor->get()).ok());
  ASSERT_TRUE((*predictor)->Run().ok());
  auto checks = CompareOutputs(*ref, **predictor);
  ASSERT_TRUE(checks.ok()) << checks.status().ToString();
  for (const auto& c : *checks) {
    std::cout << target.name << ": " << FormatCheck(c) << "\n";
    EXPECT_TRUE(c.passed) << FormatCheck(c);
  }
  auto read = [&](const std::string& what, const std::string& want, float min_score) {
    auto out = (*predictor)->GetOutput(0);
    const auto shape = out->shape();
    ASSERT_EQ(shape.size(), 3u) << what;
    std::vector<float> probs(out->numel());
    ASSERT_TRUE(out->CopyToCpu(probs.data(), out->numel()).ok());
    auto text = ocr::CtcGreedyDecode(probs.data(), shape[1], shape[2], *dict);
    ASSERT_TRUE(text.ok()) << text.status().ToString();
    std::cout << target.name << ": " << what << " \"" << text->text << "\" score "
              << text->score << "\n";
    EXPECT_EQ(text->text, want) << what;
    EXPECT_GT(text->score, min_score) << what;
  };
  read("reference line", expected, 0.9f);

  const std::string lines_dir = RenderLines();
  const auto texts = ReadLines(lines_dir + "/lines.txt");
  ASSERT_GE(texts.size(), 12u);
  // ccodegen's one line: the last, Chinese characters mixed with digits.
  const size_t first = target.lines < 0 ? 0 : texts.size() - target.lines;
  for (size_t i = first; i < texts.size(); ++i) {
    auto line = ocr::ReadPnm(lines_dir + "/line_" + std::to_string(i) + ".ppm");
    ASSERT_TRUE(line.ok()) << line.status().ToString();
    const ocr::ModelInput in = ocr::LineInput(*line, 48, 0, 320, 8);
    auto input = (*predictor)->GetInput(0);
    input->Resize(in.shape);
    ASSERT_TRUE(input->CopyFromCpu(in.data.data(), static_cast<int64_t>(in.data.size())).ok());
    auto run = (*predictor)->Run();
    ASSERT_TRUE(run.ok()) << run.ToString();
    read("line " + std::to_string(i) + " (width " + std::to_string(in.shape[3]) + ")", texts[i], 0.5f);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Targets, OcrRecTargets,
    ::testing::Values(RecTarget{"x86_host", kX86, ""}, RecTarget{"host", kHost, ""},
                      RecTarget{"arm_host", {Place(TargetType::kARM), Place(TargetType::kHost)}, ""},
                      RecTarget{"npu_xnnpack", {Place(TargetType::kNPU), Place(TargetType::kHost)},
                                "xnnpack"},
                      RecTarget{"npu_reference",
                                {Place(TargetType::kNPU), Place(TargetType::kHost)}, "reference"},
                      RecTarget{"npu_ccodegen",
                                {Place(TargetType::kNPU), Place(TargetType::kHost)}, "ccodegen",
                                1}),
    [](const ::testing::TestParamInfo<RecTarget>& info) { return info.param.name; });

// The rendered lines recognized as one padded batch (every line zero-padded
// to the widest) read as they do one at a time.
TEST(OcrRec, PaddedBatchReadsLikeSingleLines) {
  const std::string shared = SharedModelsDir();
  if (shared.empty()) GTEST_SKIP() << kSharedModelsMissing;
  const std::string dir = RenderLines();
  const auto texts = ReadLines(dir + "/lines.txt");
  ASSERT_GE(texts.size(), 12u);
  OcrOptions options;
  options.rec_batch = static_cast<int>(texts.size());
  options.rec_max_padding = 100;  // all in one batch, however wide
  auto pipeline = OcrPipeline::Create(Models(shared, kCpu), options);
  ASSERT_TRUE(pipeline.ok()) << pipeline.status().ToString();
  std::vector<ocr::Image> lines;
  for (size_t i = 0; i < texts.size(); ++i) {
    auto line = ocr::ReadPnm(dir + "/line_" + std::to_string(i) + ".ppm");
    ASSERT_TRUE(line.ok()) << line.status().ToString();
    lines.push_back(*line);
  }
  auto read = (*pipeline)->RecognizeLines(lines);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ((*pipeline)->times().rec_runs, 1);
  ASSERT_EQ(read->size(), texts.size());
  for (size_t i = 0; i < texts.size(); ++i) EXPECT_EQ((*read)[i].text, texts[i]) << "line " << i;
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
  auto pipeline = OcrPipeline::Create(Models(shared, kCpu));
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
  // Lines of similar width were recognized together (fewer runs than
  // lines), and one line per run reads the same.
  EXPECT_LT((*pipeline)->times().rec_runs, static_cast<int>(lines->size()));
  OcrOptions single;
  single.rec_batch = 1;
  auto one_by_one = OcrPipeline::Create(Models(shared, kCpu), single);
  ASSERT_TRUE(one_by_one.ok()) << one_by_one.status().ToString();
  auto singles = (*one_by_one)->Read(*page);
  ASSERT_TRUE(singles.ok()) << singles.status().ToString();
  EXPECT_EQ((*one_by_one)->times().rec_runs, static_cast<int>(lines->size()));
  ASSERT_EQ(singles->size(), lines->size());
  for (size_t i = 0; i < lines->size(); ++i) {
    EXPECT_EQ((*singles)[i].text, (*lines)[i].text) << "line " << i;
  }
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
  auto pipeline = OcrPipeline::Create(Models(shared, kCpu));
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
