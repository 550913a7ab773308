// Activation statistics of post-training quantization and the three ways to
// pick a symmetric int8 scale from them (tools/opt --calibration_method):
//   abs_max:    the largest |x| seen;
//   percentile: the upper edge of the histogram bin where the cumulative
//               share of |x| reaches `percentile` (99.99 by default), so
//               rare outliers are clipped;
//   kl:         entropy calibration as Paddle's PTQ does it: the clip
//               threshold whose histogram of |x| merged into the 127 levels
//               of one side of the int8 grid has the smallest KL divergence
//               from the clipped reference histogram (unsmoothed: bins the
//               reference leaves empty add nothing), searched from half the
//               range up; the threshold is the middle of the first clipped
//               bin.
// An AbsHistogram counts the non-zero |x| in kBins equal bins over [0,
// range] (exact zeros, e.g. after ReLU, are exact at any scale and would
// swamp the rest); values above the range land in the last bin. Plain
// values, owned by the caller; used by tools/calibration.cc.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lite/utils/status.h"

namespace lite {
namespace tools {

enum class CalibrationMethod { kAbsMax, kKl, kPercentile };

// "abs_max", "kl" or "percentile"; anything else is InvalidArgument.
StatusOr<CalibrationMethod> ParseCalibrationMethod(const std::string& name);
const char* CalibrationMethodName(CalibrationMethod method);

class AbsHistogram {
 public:
  static constexpr int kBins = 2048;
  // `range` > 0: the largest |x| the data will hold (its abs-max).
  explicit AbsHistogram(float range);
  void Add(const float* x, int64_t n);

  float range() const { return range_; }
  double bin_width() const { return bin_width_; }
  const std::vector<double>& counts() const { return counts_; }

 private:
  float range_;
  double bin_width_;
  std::vector<double> counts_;
};

// Largest |x| of n values (0 for none).
float AbsMax(const float* x, int64_t n);

// The threshold below which `percentile` percent (0 < p <= 100) of the
// counted values lie: the upper edge of the bin where the share is reached.
float PercentileThreshold(const AbsHistogram& hist, double percentile);

// The entropy-calibration threshold (see above), never above hist.range().
float KlThreshold(const AbsHistogram& hist);

}  // namespace tools
}  // namespace lite
