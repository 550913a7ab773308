// Stand-in models for three model families the shared models lack (issue
// "fp32 speed beyond OCR"): small programs with the op patterns of the real
// exports and random weights (the tools' LCG, fixed seeds, so the same bytes
// every time), to profile and tune the targets on:
//
//   restoration    NAFNet-style: LayerNorm over channels spelt as reduce_mean /
//                  elementwise_sub / pow / sqrt / elementwise_div, depthwise 3x3
//                  convs, SimpleGate (split + elementwise_mul), channel attention
//                  (global pool2d + 1x1 conv + elementwise_mul), pixel_shuffle
//                  upsampling, residual adds. Input x [-1,3,-1,-1] (H, W even
//                  multiples of 4), output y, the image's size.
//   face_detector  BlazeFace-style: 5x5 depthwise convs, channel padding (pad),
//                  max-pool shortcuts, two heads decoded with slice ops, in-graph
//                  multiclass_nms3. Input x [-1,3,-1,-1] (multiples of 16),
//                  outputs the kept boxes [K,6] and their count per image.
//   face_detector_heads  the same network and weights ending at the heads: the
//                  raw box regression `deltas` [N,M,4] and face `scores`
//                  [N,1,M], without prior_box / box_coder / multiclass_nms3
//                  (no one-op ONNX form), the cut tools/standin_to_onnx.py
//                  converts so ONNX Runtime runs the same network.
//   portrait_seg   PP-HumanSeg-style: strided convs, adaptive avg pools (1, 2, 4)
//                  resized back with bilinear_interp_v2 to sizes read at run time
//                  (shape + slice, as OutSize and as SizeTensor), a channel-axis
//                  softmax. Input x [-1,3,-1,-1] (multiples of 16), output the
//                  2-class probabilities at the input's size.
//
// Spatial extents are declared -1, as in models exported for any image size.
// tools/make_standin_models writes them; docs/performance.md profiles them.
#pragma once

#include <string>
#include <vector>

#include "lite/utils/status.h"
#include "tools/program_builder.h"

namespace lite {
namespace tools {

struct StandinInfo {
  std::string name;
  std::vector<int64_t> shape;  // the input shape the docs profile at
};

// restoration, face_detector, face_detector_heads, portrait_seg, googlenet,
// dqn (tools/standin_classic.h), then the families of tools/standin_families.h
// (vit, yolov3, mobilenetv2).
const std::vector<StandinInfo>& StandinModels();

// The named stand-in; InvalidArgument naming the known ones otherwise.
StatusOr<BuiltProgram> MakeStandinModel(const std::string& name);

// Writes `dir`/NAME/__model__ and __params__ for each stand-in.
Status WriteStandinModels(const std::string& dir);

}  // namespace tools
}  // namespace lite
