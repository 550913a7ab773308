#include "tools/functional_check.h"

#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

namespace lite {
namespace tools {

namespace {

using json = nlohmann::json;

// The number after `prefix` in a key like "min_iou_prob_gt_0.3".
bool SuffixNumber(const std::string& key, const std::string& prefix, double* out) {
  if (key.compare(0, prefix.size(), prefix) != 0) return false;
  try {
    *out = std::stod(key.substr(prefix.size()));
  } catch (const std::exception&) {
    return false;
  }
  return true;
}

std::vector<int64_t> RowArgmax(const float* v, int64_t n, int64_t row) {
  std::vector<int64_t> out;
  for (int64_t r = 0; r + row <= n; r += row) {
    int64_t best = 0;
    for (int64_t i = 1; i < row; ++i) {
      if (v[r + i] > v[r + best]) best = i;
    }
    out.push_back(best);
  }
  return out;
}

std::string ListText(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

FunctionalResult CheckArgmax(const FunctionalRule& rule, const float* engine,
                             const float* reference, int64_t n, int64_t row) {
  const std::vector<int64_t> got = RowArgmax(engine, n, row);
  const std::vector<int64_t> want =
      rule.reference_argmax.empty() ? RowArgmax(reference, n, row) : rule.reference_argmax;
  FunctionalResult r;
  r.passed = got == want;
  r.summary = "argmax " + ListText(got) + (r.passed ? " == " : " != ") + "reference " +
              ListText(want);
  return r;
}

FunctionalResult CheckBinaryMap(const FunctionalRule& rule, const float* engine,
                                const float* reference, int64_t n) {
  int64_t both = 0, either = 0, far = 0;
  double abs_sum = 0;
  for (int64_t i = 0; i < n; ++i) {
    const bool e = engine[i] > rule.threshold;
    const bool r = reference[i] > rule.threshold;
    both += e && r;
    either += e || r;
    const double d = std::fabs(static_cast<double>(engine[i]) - reference[i]);
    far += d > rule.abs_diff_over;
    abs_sum += d;
  }
  const double iou = either == 0 ? 1.0 : static_cast<double>(both) / either;
  const double frac = n ? static_cast<double>(far) / n : 0.0;
  const double mean = n ? abs_sum / n : 0.0;
  FunctionalResult r;
  r.passed = iou >= rule.min_iou && (rule.max_frac_abs_diff < 0 || frac <= rule.max_frac_abs_diff) &&
             (rule.max_mean_abs_diff < 0 || mean <= rule.max_mean_abs_diff);
  char buf[256];
  std::snprintf(buf, sizeof(buf), "iou(>%g)=%.4f (min %.4f)  frac |d|>%g=%.5f (max %g)  mean |d|=%.5f (max %g)",
                rule.threshold, iou, rule.min_iou, rule.abs_diff_over, frac,
                rule.max_frac_abs_diff, mean, rule.max_mean_abs_diff);
  r.summary = buf;
  return r;
}

}  // namespace

StatusOr<FunctionalRule> ParseFunctionalRule(const std::string& json_text) {
  FunctionalRule rule;
  if (json_text.empty()) return rule;
  try {
    const json j = json::parse(json_text);
    rule.text = j.value("rule", "");
    std::string keys;
    for (auto it = j.begin(); it != j.end(); ++it) {
      const std::string& key = it.key();
      keys += (keys.empty() ? "" : ", ") + key;
      double t = 0;
      if (key == "reference_argmax") {
        rule.kind = FunctionalRule::Kind::kArgmax;
        rule.reference_argmax = it->get<std::vector<int64_t>>();
      } else if (SuffixNumber(key, "min_iou_prob_gt_", &t)) {
        rule.kind = FunctionalRule::Kind::kBinaryMap;
        rule.threshold = t;
        rule.min_iou = it->get<double>();
      } else if (SuffixNumber(key, "max_frac_abs_diff_gt_", &t)) {
        rule.abs_diff_over = t;
        rule.max_frac_abs_diff = it->get<double>();
      } else if (key == "max_mean_abs_diff") {
        rule.max_mean_abs_diff = it->get<double>();
      }
    }
    if (rule.kind == FunctionalRule::Kind::kNone) {
      return Unimplemented("functional rule with keys {" + keys +
                           "}: neither reference_argmax nor min_iou_prob_gt_<t>");
    }
  } catch (const json::exception& e) {
    return InvalidArgument(std::string("functional rule: ") + e.what());
  }
  return rule;
}

FunctionalResult ApplyFunctionalRule(const FunctionalRule& rule, const float* engine,
                                     const float* reference, int64_t n, int64_t row) {
  switch (rule.kind) {
    case FunctionalRule::Kind::kArgmax:
      return CheckArgmax(rule, engine, reference, n, row > 0 ? row : n);
    case FunctionalRule::Kind::kBinaryMap:
      return CheckBinaryMap(rule, engine, reference, n);
    case FunctionalRule::Kind::kNone:
      break;
  }
  return {true, ""};
}

}  // namespace tools
}  // namespace lite
