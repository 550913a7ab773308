// Post-training int8 quantization for tools/opt (--quantize=int8): calibration
// samples, the fp32 runs that collect activation statistics, and the rewrite
// of an fp32 program into the "fake" form PaddleSlim exports, which
// quant_dequant_fuse_pass and the int8 kernels then take as they take a QAT
// model:
//   X -> fake_quantize_dequantize_moving_average_abs_max (InScale: a new
//        one-value weight "<X>.calib_scale" holding the calibrated scale)
//   W -> fake_channel_wise_quantize_dequantize_abs_max (quant_axis 0: the
//        per-output-channel abs-max of the fp32 filter)
//   conv2d / depthwise_conv2d (the quantized X and W)
// Only conv2d and depthwise_conv2d inputs are calibrated: they are the ops
// the fuse pass turns int8 (fc / mul / matmul have no int8 path downstream).
// By default only conv2d: one per-tensor activation scale over the channels
// of a depthwise conv loses too much on MobileNetV3-style backbones (PP-OCRv3
// det: binarized-map IoU 0.91 with depthwise int8, 0.98 without; see
// docs/int8.md, "Post-training quantization").
//
// Calibration folder (--calibration_dir): either a reference folder (a
// meta.json with `inputs`, as in ../shared/models/*/reference: one sample),
// or a folder of `*.bin` files, one sample each (sorted by name), for a model
// with one float32 feed: raw little-endian float32 in C order (NCHW for
// images), no header, of the feed's declared shape (a leading -1 read as 1)
// or of `shape` when given (a reference folder's inputs must then have it).
// The caller owns every program, scope and sample; functions here only read
// what they do not say they change.
#pragma once

#include <string>
#include <vector>

#include "lite/api/paddle_api.h"
#include "lite/base/program_desc.h"
#include "lite/base/scope.h"
#include "tools/calibration_stats.h"

namespace lite {
namespace tools {

struct CalibrationFeed {
  std::string name;
  std::vector<int64_t> shape;
  std::vector<float> data;
};

struct CalibrationSample {
  std::string source;                  // the file or folder it came from
  std::vector<CalibrationFeed> feeds;  // by feed column
};

// Reads `dir` (see above). Errors (missing or empty folder, no .bin file, a
// file whose size does not match the shape, a model with several feeds or a
// feed of unknown extents without `shape`) are InvalidArgument or NotFound
// naming the file or folder.
StatusOr<std::vector<CalibrationSample>> LoadCalibrationSamples(const std::string& dir,
                                                                const cpp::ProgramDesc& program,
                                                                const std::vector<int64_t>& shape);

struct CalibrationOptions {
  CalibrationMethod method = CalibrationMethod::kAbsMax;
  double percentile = 99.99;  // kPercentile
  // Where the fp32 program runs (npu places are dropped: calibration reads
  // float activations).
  std::vector<Place> places{Place(TargetType::kHost)};
  int threads = 1;
  // Which ops to quantize: conv2d and / or depthwise_conv2d (see above).
  std::vector<std::string> op_types{"conv2d"};
};

// InvalidArgument unless `op_types` is a non-empty list of conv2d and
// depthwise_conv2d.
Status CheckQuantizableOpTypes(const std::vector<std::string>& op_types);

struct ActivationScale {
  std::string var;  // a conv input
  float abs_max = 0;
  float scale = 0;  // what `method` picked (<= abs_max)
};

struct OutputValues {
  std::string name;
  std::vector<int64_t> shape;
  std::vector<float> data;
};

struct CalibrationResult {
  std::vector<ActivationScale> scales;                      // in program order
  std::vector<std::vector<OutputValues>> outputs;           // fp32 outputs, by sample
  std::vector<std::vector<OutputValues>> held_out_outputs;  // fp32, by held-out sample
};

// Runs block 0 of `program` in fp32 (its weights copied from `weights`, which
// is only read) over `samples`, collecting abs-max (and for kl / percentile a
// histogram, in a second pass) of the input activation of every op of
// options.op_types.
// `held_out` samples only run for their fp32 outputs (to judge the quantized
// model on inputs it was not calibrated on).
StatusOr<CalibrationResult> Calibrate(const cpp::ProgramDesc& program, const Scope& weights,
                                      const std::vector<CalibrationSample>& samples,
                                      const CalibrationOptions& options,
                                      const std::vector<CalibrationSample>& held_out = {});

// Rewrites the ops of `op_types` in block 0 of `program` into the
// fake-quantized form (see above) and adds the InScale weights to `weights`.
// Returns the number of convs quantized. Activations whose scale is 0 (never
// non-zero on the samples) are left in fp32, with their convs.
StatusOr<int> InsertFakeQuantOps(const std::vector<ActivationScale>& scales,
                                 const std::vector<std::string>& op_types,
                                 cpp::ProgramDesc* program, Scope* weights);

// Accuracy of a quantized model against the fp32 outputs, per output over
// every sample: the largest |int8 - fp32|, and for a [N,1,H,W] map the IoU of
// the maps binarized at 0.3 (lowest and mean over the samples).
struct OutputAccuracy {
  std::string name;
  double max_abs_diff = 0;
  bool is_map = false;
  double min_iou = 1;
  double mean_iou = 1;
};

// Feeds one sample into `predictor` and runs it; returns its outputs.
StatusOr<std::vector<OutputValues>> RunSample(paddle::lite_api::PaddlePredictor* predictor,
                                              const CalibrationSample& sample);

StatusOr<std::vector<OutputAccuracy>> CompareWithFp32(
    paddle::lite_api::PaddlePredictor* quantized, const std::vector<CalibrationSample>& samples,
    const std::vector<std::vector<OutputValues>>& fp32);

// IoU of (a > threshold) and (b > threshold) over n values; 1 when both are
// empty.
double BinaryMapIou(const float* a, const float* b, int64_t n, float threshold);

// "name: max |int8 - fp32| 0.012, IoU(>0.3) min 0.97 mean 0.98 over 4 samples"
std::string FormatAccuracy(const OutputAccuracy& acc, size_t samples);

}  // namespace tools
}  // namespace lite
