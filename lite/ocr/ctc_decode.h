// CTC greedy decoding of a text-recognition model's output into text, with
// PaddleOCR's dictionary conventions.
//
// A recogniser with a CTC head (PP-OCR rec) outputs, per text line, a
// [steps, classes] matrix of per-step class probabilities. Greedy decoding
// takes the argmax class of every step, collapses runs of the same class,
// and drops the blank (class 0). Class i > 0 is line i-1 of the dictionary
// file (ppocr_keys_v1.txt and the like: one character per line); with
// use_space_char the last class is " ". The score of a line is the mean of
// the kept steps' maximum probabilities (0 for an empty line), as PaddleOCR
// reports it. Plain values only: the caller owns the probabilities.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lite/utils/status.h"

namespace lite {
namespace ocr {

// The classes of a CTC head: entry 0 is the blank (""), entry i > 0 the
// text of class i.
struct CtcDictionary {
  std::vector<std::string> classes;
  int64_t size() const { return static_cast<int64_t>(classes.size()); }
};

// Builds the class table from dictionary lines (line i -> class i + 1) and,
// with use_space_char, a final " " class.
CtcDictionary MakeCtcDictionary(const std::vector<std::string>& lines, bool use_space_char);

// Reads a dictionary file: one entry per line, "\n" or "\r\n" line ends
// stripped, the last line with or without its end. NotFound naming the path
// when it cannot be read; InvalidArgument when it has no line.
StatusOr<CtcDictionary> LoadCtcDictionary(const std::string& path, bool use_space_char);

struct CtcResult {
  std::string text;
  float score = 0;                // mean of the kept steps' max probability
  std::vector<int64_t> classes;   // the kept classes, in order
};

// Decodes one line of `steps` x `classes` probabilities (row-major).
// InvalidArgument when `classes` differs from the dictionary's size (a model
// and dictionary that do not belong together) or a count is not positive.
StatusOr<CtcResult> CtcGreedyDecode(const float* probs, int64_t steps, int64_t classes,
                                    const CtcDictionary& dict);

}  // namespace ocr
}  // namespace lite
