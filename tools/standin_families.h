// Stand-ins for three common Paddle model families the shared models lack,
// built in code with the op types and attributes Paddle's exporters write and
// random weights (the tools' LCG, fixed seeds: the same bytes every time), so
// every target mix can be tried on their op patterns:
//
//   vit          PaddleClas ViT/DeiT-tiny style at 64x64 (patches 16x16/16):
//                flatten_contiguous_range + transpose2 patch tokens, a cls
//                token expand_v2'ed to the run-time batch (shape + slice +
//                fill_constant as expand_shapes_tensor, as dynamic-batch
//                exports write it), position embedding, 2 encoder blocks
//                (layer_norm, matmul_v2 qkv, reshape2/transpose2 heads, slice,
//                matmul_v2 trans_y, scale, softmax, gelu MLP, residual adds),
//                the cls row sliced out, layer_norm, a linear head. Input x
//                [-1,3,64,64], output logits [N,10].
//   yolov3       PaddleDetection YOLOv3 style: conv + batch_norm + leaky_relu
//                blocks with residual adds, two heads (/32 and /16, the second
//                after nearest_interp_v2 x2 and concat), yolo_box on each with
//                ImgSize = cast(im_shape / scale_factor), the boxes and
//                transposed scores concatenated, multiclass_nms3. Inputs
//                im_shape [-1,2], image [-1,3,-1,-1] (multiples of 32),
//                scale_factor [-1,2]; outputs the kept boxes [K,6] and their
//                count per image.
//   mobilenetv2  PaddleClas MobileNetV2 style: conv + batch_norm (not folded)
//                + relu6, inverted residuals with depthwise 3x3 stride 1 and 2
//                and residual adds, adaptive pool2d to 1x1,
//                flatten_contiguous_range, matmul_v2 + elementwise_add. Input
//                x [-1,3,-1,-1], output logits [N,10].
//
// Registered in tools/standin_models.cc's StandinModels().
#pragma once

#include <string>
#include <vector>

#include "lite/utils/status.h"
#include "tools/program_builder.h"

namespace lite {
namespace tools {

// The names above, then tools/standin_families2.h's (ernie, unet, picodet).
const std::vector<std::string>& FamilyStandinNames();

// The named family stand-in; NotFound when `name` is not one of them.
StatusOr<BuiltProgram> MakeFamilyStandin(const std::string& name);

}  // namespace tools
}  // namespace lite
