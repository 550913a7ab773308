// Functional checks of a reference folder: the rule in meta.json's
// `functional` object that judges what the output means rather than each
// element (the quantized models' references carry one; int8 execution moves
// single elements further than any fp32 tolerance, and a detector's
// probabilities flip 0 <-> 1 at text borders between correct
// implementations). Two kinds exist:
//   argmax:     the argmax over the last dim of every row equals the
//               reference's (`reference_argmax` or computed from the data);
//   binary map: IoU of the maps value > t of engine and reference
//               >= `min_iou_prob_gt_<t>`, and, when given, the fraction of
//               elements with |engine - reference| > d <= `max_frac_abs_diff_gt_<d>`
//               and the mean |engine - reference| <= `max_mean_abs_diff`.
// Used by tools/reference.cc (CompareOutputs applies the rule next to the
// elementwise tolerance: a model with a rule passes when both pass). Plain
// values only; the caller owns the data.
#pragma once

#include <string>
#include <vector>

#include "lite/utils/status.h"

namespace lite {
namespace tools {

struct FunctionalRule {
  enum class Kind { kNone, kArgmax, kBinaryMap };
  Kind kind = Kind::kNone;
  std::string text;                      // meta.json's "rule"
  std::vector<int64_t> reference_argmax; // argmax: may be empty
  double threshold = 0.3;                // binary map: value > threshold
  double min_iou = 1.0;
  double abs_diff_over = 0.1;
  double max_frac_abs_diff = -1;         // < 0: not checked
  double max_mean_abs_diff = -1;         // < 0: not checked
};

struct FunctionalResult {
  bool passed = false;
  std::string summary;  // "argmax [1] == reference [1]" or "iou=0.97 (>= 0.90) ..."
};

// Parses meta.json's `functional` object (its JSON text); Kind::kNone when
// the text is empty. An object of neither kind is an error naming the keys.
StatusOr<FunctionalRule> ParseFunctionalRule(const std::string& json_text);

// Applies `rule` to an output of `n` elements whose last dim is `row`.
FunctionalResult ApplyFunctionalRule(const FunctionalRule& rule, const float* engine,
                                     const float* reference, int64_t n, int64_t row);

}  // namespace tools
}  // namespace lite
