#include "lite/ocr/ctc_decode.h"

#include "lite/utils/file_util.h"

namespace lite {
namespace ocr {

CtcDictionary MakeCtcDictionary(const std::vector<std::string>& lines, bool use_space_char) {
  CtcDictionary dict;
  dict.classes.reserve(lines.size() + 2);
  dict.classes.emplace_back();  // blank
  dict.classes.insert(dict.classes.end(), lines.begin(), lines.end());
  if (use_space_char) dict.classes.emplace_back(" ");
  return dict;
}

StatusOr<CtcDictionary> LoadCtcDictionary(const std::string& path, bool use_space_char) {
  std::string text;
  Status read = ReadFileToString(path, &text);
  if (!read.ok()) return NotFound("CTC dictionary " + path + ": " + read.message());
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
    start = end + 1;
  }
  if (lines.empty()) return InvalidArgument("CTC dictionary " + path + " has no line");
  return MakeCtcDictionary(lines, use_space_char);
}

StatusOr<CtcResult> CtcGreedyDecode(const float* probs, int64_t steps, int64_t classes,
                                    const CtcDictionary& dict) {
  if (steps <= 0 || classes <= 0) {
    return InvalidArgument("CTC decode: " + std::to_string(steps) + " steps x " +
                           std::to_string(classes) + " classes (both must be positive)");
  }
  if (classes != dict.size()) {
    return InvalidArgument("CTC decode: the model has " + std::to_string(classes) +
                           " classes but the dictionary gives " + std::to_string(dict.size()) +
                           " (blank, its lines and the space class when used)");
  }
  CtcResult result;
  double score_sum = 0;
  int64_t previous = -1;
  for (int64_t t = 0; t < steps; ++t) {
    const float* row = probs + t * classes;
    int64_t best = 0;
    for (int64_t c = 1; c < classes; ++c) {
      if (row[c] > row[best]) best = c;
    }
    if (best != 0 && best != previous) {
      result.classes.push_back(best);
      result.text += dict.classes[best];
      score_sum += row[best];
    }
    previous = best;
  }
  if (!result.classes.empty()) {
    result.score = static_cast<float>(score_sum / result.classes.size());
  }
  return result;
}

}  // namespace ocr
}  // namespace lite
