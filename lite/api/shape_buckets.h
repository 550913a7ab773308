// ShapeBucketer: the predictor's side of ConfigBase::set_shape_buckets
// (docs/memory.md). Before a run it rounds the H and W of the one 4-D (NCHW)
// feed up to a multiple of the bucket, zero-padding the data at the bottom
// and right in a tensor of its own (the caller's tensor is put back after
// the run, untouched); after the run it crops the outputs back to what the
// caller's size gives.
//
// Which outputs to crop and by what scale: declared (BucketCrop: H and W are
// the input's times num/den; other outputs are returned as the padded run
// made them), or inferred: every output must be 4-D, and for each padded dim
// its extent must be the input's times one ratio on two runs of different
// extents (say 640 -> 640 and 704 -> 704). A padded run with no earlier run
// to compare asks the predictor for one more run, the input padded one
// bucket further (a size any model taking the buckets takes; det takes only
// multiples of 32), and then crops the first run's outputs. A crop
// that is not well defined (an output that is not 4-D, a ratio that differs
// between runs, a cropped extent that is not whole) refuses the run with
// FailedPrecondition naming the output; the predictor stays usable.
//
// One per PredictorRuntime; used from the thread that runs it.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "lite/api/paddle_api.h"
#include "lite/base/tensor.h"

namespace lite {

class ShapeBucketer {
 public:
  // InvalidArgument for a negative multiple, NotFound for a crop naming no
  // output (listing them), InvalidArgument for a scale that is not positive.
  static Status Validate(const paddle::lite_api::ShapeBuckets& options,
                         const std::vector<std::string>& outputs);
  ShapeBucketer(const paddle::lite_api::ShapeBuckets& options,
                std::vector<std::string> inputs, std::vector<std::string> outputs);

  bool enabled() const { return options_.multiple > 0; }
  const paddle::lite_api::ShapeBuckets& options() const { return options_; }

  // Swaps a zero-padded copy of the 4-D feed into `feeds` when its H or W
  // is not a multiple of the bucket; counts the run and whether it hit.
  // FailedPrecondition when the feeds hold no or several 4-D tensors, or an
  // output is bound to caller memory (a crop cannot write into it).
  Status Pad(std::vector<Tensor>* feeds, const std::vector<Tensor>& fetches);
  // After the run, ok or not: puts the caller's feed back; on success crops
  // the outputs (see above). *check_run is set when the inferred crop needs
  // one more run: the outputs are kept aside, the feed is padded one bucket
  // further, and the predictor runs once more and then calls Checked.
  Status Finish(std::vector<Tensor>* feeds, std::vector<Tensor>* fetches, bool ok,
                bool* check_run);
  // After that extra run (ok or not): puts the caller's feed back, learns
  // the ratios from it, and crops the first run's outputs, which it puts
  // back; refuses if a ratio differs.
  Status Checked(std::vector<Tensor>* feeds, std::vector<Tensor>* fetches, bool ok);

  void Fill(paddle::lite_api::MemoryStats* stats) const;

 private:
  // One output dim's observations: the first (input extent -> output
  // extent), whether a later one at another input extent agreed (confirmed)
  // or not (broken, for good).
  struct DimRatio {
    int64_t in = 0, out = 0;
    bool confirmed = false, broken = false;
  };
  // Records every 4-D output's H and W against the input's of a run.
  void Observe(int64_t h, int64_t w, const std::vector<Tensor>& fetches);
  // Swaps a copy of the 4-D feed zero-padded to hp x wp into `feeds`.
  void PadTo(std::vector<Tensor>* feeds, int64_t hp, int64_t wp);
  // Puts the caller's feed back when a padded copy is in its place.
  void Restore(std::vector<Tensor>* feeds);
  // Crops the outputs of a padded run (see above); *check_run when an
  // inferred ratio is still unchecked (nothing cropped then).
  Status CropAll(std::vector<Tensor>* fetches, bool* check_run);
  // Crops a 4-D output to rows x cols (its top-left corner), in place.
  static void Crop(Tensor* t, int64_t rows, int64_t cols);

  paddle::lite_api::ShapeBuckets options_;
  std::vector<std::string> inputs_, outputs_;
  std::vector<DimRatio> ratios_;  // 2 per output: H, W
  // The run in flight.
  int feed_ = -1;        // column of the 4-D feed
  bool padded_ = false;  // its copy is in the feed list, the caller's in saved_
  Tensor saved_;
  std::vector<Tensor> saved_outputs_;  // the padded run's, during a check run
  int64_t h_ = 0, w_ = 0, hb_ = 0, wb_ = 0;
  // Counters.
  std::set<std::string> seen_;  // bucketed shapes run so far
  int64_t runs_ = 0, hits_ = 0, padded_runs_ = 0, check_runs_ = 0;
};

}  // namespace lite
