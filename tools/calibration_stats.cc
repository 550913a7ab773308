#include "tools/calibration_stats.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace lite {
namespace tools {

namespace {

constexpr int kQuantizedBins = 128;  // int8 levels on one side of zero

// KL(p || q) of two unnormalized histograms of the same length. Each is
// normalized, then smoothed: empty bins get kEps and the others give that
// mass back evenly (never below a tiny floor), so a candidate that drops
// mass the reference has is penalized rather than infinite.
double SmoothedKl(std::vector<double> p, std::vector<double> q) {
  constexpr double kEps = 1e-7;
  auto smooth = [](std::vector<double>* h) {
    double total = 0;
    int64_t zeros = 0;
    for (double v : *h) {
      total += v;
      zeros += v == 0;
    }
    if (total <= 0) return false;
    const int64_t nonzeros = static_cast<int64_t>(h->size()) - zeros;
    const double take = kEps * zeros / nonzeros;
    for (double& v : *h) v = v == 0 ? kEps : std::max(v / total - take, kEps * kEps);
    return true;
  };
  if (!smooth(&p) || !smooth(&q)) return std::numeric_limits<double>::infinity();
  double kl = 0;
  for (size_t i = 0; i < p.size(); ++i) kl += p[i] * std::log(p[i] / q[i]);
  return kl;
}

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
  double best_kl = std::numeric_limits<double>::infinity();
  int best_i = n;
  // Candidates from half the range up, as Paddle's PTQ searches: it never
  // clips more than half of the observed range.
  for (int i = (n - 1) / 2; i <= n; ++i) {
    // Reference: the first i bins, everything beyond clipped into the last.
    std::vector<double> p(c.begin(), c.begin() + i);
    double outliers = 0;
    for (int k = i; k < n; ++k) outliers += c[k];
    p[i - 1] += outliers;
    // Candidate: the first i bins merged into 128 levels, each level's count
    // spread back evenly over the bins of its range that held data.
    std::vector<double> q(i, 0.0);
    const double merged = static_cast<double>(i) / kQuantizedBins;
    for (int j = 0; j < kQuantizedBins; ++j) {
      const int start = static_cast<int>(j * merged);
      const int stop = j == kQuantizedBins - 1 ? i : static_cast<int>((j + 1) * merged);
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
    }
    const double kl = SmoothedKl(std::move(p), std::move(q));
    if (kl < best_kl) {
      best_kl = kl;
      best_i = i;
    }
  }
  return static_cast<float>(std::min<double>(best_i * hist.bin_width(), hist.range()));
}

}  // namespace tools
}  // namespace lite
