#include "tools/calibration_stats.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace lite {
namespace tools {

namespace {

constexpr int kLevels = 127;  // int8 levels on one side of zero

}  // namespace

StatusOr<CalibrationMethod> ParseCalibrationMethod(const std::string& name) {
  if (name == "abs_max") return CalibrationMethod::kAbsMax;
  if (name == "kl") return CalibrationMethod::kKl;
  if (name == "percentile") return CalibrationMethod::kPercentile;
  return InvalidArgument("--calibration_method must be abs_max, kl or percentile, got '" + name +
                         "'");
}

const char* CalibrationMethodName(CalibrationMethod method) {
  switch (method) {
    case CalibrationMethod::kAbsMax:
      return "abs_max";
    case CalibrationMethod::kKl:
      return "kl";
    case CalibrationMethod::kPercentile:
      return "percentile";
  }
  return "?";
}

AbsHistogram::AbsHistogram(float range)
    : range_(range), bin_width_(static_cast<double>(range) / kBins), counts_(kBins, 0.0) {}

void AbsHistogram::Add(const float* x, int64_t n) {
  const double inv = bin_width_ > 0 ? 1.0 / bin_width_ : 0;
  for (int64_t i = 0; i < n; ++i) {
    if (x[i] == 0.f) continue;  // exact at any scale (ReLU zeros would swamp the rest)
    const int64_t bin = static_cast<int64_t>(std::fabs(x[i]) * inv);
    counts_[static_cast<size_t>(std::min<int64_t>(bin, kBins - 1))] += 1;
  }
}

float AbsMax(const float* x, int64_t n) {
  float m = 0;
  for (int64_t i = 0; i < n; ++i) m = std::max(m, std::fabs(x[i]));
  return m;
}

float PercentileThreshold(const AbsHistogram& hist, double percentile) {
  const auto& c = hist.counts();
  double total = 0;
  for (double v : c) total += v;
  if (total <= 0) return hist.range();
  const double want = total * percentile / 100.0;
  double seen = 0;
  for (size_t i = 0; i < c.size(); ++i) {
    seen += c[i];
    if (seen >= want) return static_cast<float>((i + 1) * hist.bin_width());
  }
  return hist.range();
}

float KlThreshold(const AbsHistogram& hist) {
  const auto& c = hist.counts();
  const int n = static_cast<int>(c.size());
  double total = 0;
  for (double v : c) total += v;
  if (total <= 0) return hist.range();
  // Suffix sums: the mass a clip at bin i folds into its last bin.
  std::vector<double> above(n + 1, 0.0);
  for (int k = n - 1; k >= 0; --k) above[k] = above[k + 1] + c[k];
  double best_kl = std::numeric_limits<double>::infinity();
  int best_i = -1;
  std::vector<double> q;
  // Candidates from half the range up, as Paddle's PTQ searches: it never
  // clips more than half of the observed range. A clip whose edge bin is
  // empty is skipped (its quantized histogram would miss the clipped mass).
  const int first = (n - 1) / 2;
  for (int i = first; i < n; ++i) {
    if (c[i - 1] == 0) continue;
    // Candidate: the first i bins merged into kLevels levels (the last
    // level takes the remainder), each level's count spread back evenly
    // over the bins of its range that hold data.
    q.assign(i, 0.0);
    double q_total = 0;
    const int per_level = i / kLevels;
    for (int j = 0; j < kLevels; ++j) {
      const int start = j * per_level;
      const int stop = j == kLevels - 1 ? i : start + per_level;
      double sum = 0;
      int nonzero = 0;
      for (int k = start; k < stop; ++k) {
        sum += c[k];
        nonzero += c[k] != 0;
      }
      if (nonzero == 0) continue;
      for (int k = start; k < stop; ++k) {
        if (c[k] != 0) q[k] = sum / nonzero;
      }
      q_total += sum;
    }
    // KL(p || q) with p the first i bins plus the clipped mass in the last,
    // normalized by everything counted; bins where p is empty add nothing
    // and q is never empty where p is not.
    double kl = 0;
    for (int k = 0; k < i; ++k) {
      const double p = k == i - 1 ? c[k] + above[i] : c[k];
      if (p == 0) continue;
      kl += p * std::log((p * q_total) / (q[k] * total));
    }
    kl /= total;
    if (kl < best_kl) {
      best_kl = kl;
      best_i = i;
    }
  }
  if (best_i < 0) {
    // Every candidate edge was empty (data below half the range and a few
    // far outliers): clip at the last bin holding data below the search.
    best_i = first;
    while (best_i > 0 && c[best_i] == 0) --best_i;
  }
  // The middle of the first clipped bin, as Paddle reports it.
  return static_cast<float>(std::min<double>((best_i + 0.5) * hist.bin_width(), hist.range()));
}

}  // namespace tools
}  // namespace lite
