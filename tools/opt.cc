// opt: the offline optimizer. Loads a Paddle model, runs the pass pipeline
// for the valid targets, and writes the optimized model (naive_buffer .nb for
// the light predictor, or a protobuf __model__/__params__ directory). Also
// lists ops, kernels and target support, and renders every pass that changed
// the graph as DOT (+ SVG when graphviz is installed).
//
//   opt --model_dir=DIR --optimize_out=out/model [--optimize_out_type=naive_buffer]
//       [--valid_targets=npu,host] [--visualize_dir=out/vis]
//       [--visualize_mode=changed|all|<pass name>]
//       [--quantize=int8 --calibration_dir=DIR [--calibration_method=abs_max|kl|percentile]
//        [--calibration_shape=1,3,H,W]]   (post-training int8, see tools/calibration.h)
//   opt --print_all_ops | --display_kernels | --print_supported_ops --valid_targets=npu
//
// The input program passes the predictors' validator before any pass; the
// output appears under its name only after it loaded back into a runtime
// (written to a temporary name first), so a failing model leaves no output.
// --print_model_ops exits 1 when the model has ops no valid target runs.
//
// Exit 0 on success; otherwise one line "opt: error: <reason>" and exit 1.
//
// The flags and their handling live in opt_main.cc (shared with the Python
// module's `paddle_lite_opt` console script).
#include "tools/opt_main.h"

int main(int argc, char** argv) { return lite::tools::OptMain(argc, argv); }
