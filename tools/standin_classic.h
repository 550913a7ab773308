// Stand-ins for two classic conv-net families (issue "fp32 speed beyond
// OCR": GoogLeNet v1 and the DQN Atari net measured against ONNX Runtime),
// built like tools/standin_models.h's: the op patterns of the real exports,
// random weights from the tools' LCG with fixed seeds.
//
//   googlenet  GoogLeNet v1 as PaddleClas writes it: 7x7/2 stem conv, 3x3/2
//              max pools (ceil mode: maps 56, 28, 14, 7 at 224), 1x1 and 3x3
//              convs without bias, nine inception blocks (1x1; 1x1 reduce +
//              3x3; 1x1 reduce + 5x5; 3x3/1 max pool + 1x1 projection;
//              concatenated, one relu), global avg pool2d, dropout (is_test,
//              downgrade_in_infer: the Python API's downscale_in_infer),
//              squeeze2, matmul_v2 + elementwise_add 1024 -> 1000, softmax.
//              Input x [-1, 3, -1, -1], output prob.
//   dqn        the DQN Atari net: x [-1, 4, 84, 84] of 0..255 floats, scale
//              1/255 in the graph, conv 8x8/4 32 + relu, conv 4x4/2 64 +
//              relu, conv 3x3/1 64 + relu (no padding: 20, 9, 7),
//              flatten_contiguous_range, fc 3136 -> 512 + relu, fc 512 -> 6
//              (matmul_v2 + elementwise_add). Output q [N, 6].
#pragma once

#include "tools/program_builder.h"

namespace lite {
namespace tools {

BuiltProgram GoogLeNetStandin();
BuiltProgram DqnStandin();

}  // namespace tools
}  // namespace lite
