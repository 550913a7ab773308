// The NN IR operation table: every OperationType described once.
//
// One row per operation: its enum name, the suffix of its C ABI constant
// (LITE_NPU_OP_<suffix> in plugin/lite_npu_driver_abi.h), its text name,
// how many inputs and outputs it takes (-1: no upper bound) and its
// attributes as "name:kind" words (kind int, float, ints or floats). The
// enum (nn_ir.h), OperationTypeName, Model::Validate's arity and attribute
// checks, the ABI's static_asserts (plugin/abi_model.cc) and the drivers'
// support checks all read this table, so a new operation is one row here
// (appended: values are part of the plugin ABI), its ABI constant, its
// semantics at the enum comment in nn_ir.h, and its kernels.
//
// The rows are in enum-value order. Semantics are stated in nn_ir.h.
#pragma once

// X(Enum, AbiSuffix, "name", min_inputs, max_inputs, min_outputs,
//   max_outputs, "attributes")
#define LITE_NPU_OPERATIONS(X)                                                                   \
  X(kConv2D, CONV2D, "conv2d", 2, 3, 1, 1, "strides:ints paddings:ints dilations:ints groups:int") \
  X(kConv2DTranspose, CONV2D_TRANSPOSE, "conv2d_transpose", 2, 3, 1, 1,                          \
    "strides:ints paddings:ints dilations:ints groups:int")                                      \
  X(kPool2D, POOL2D, "pool2d", 1, 1, 1, 1,                                                       \
    "pool_type:int ksize:ints strides:ints paddings:ints exclusive:int")                         \
  X(kFullyConnected, FULLY_CONNECTED, "fully_connected", 2, 3, 1, 1, "")                         \
  X(kAdd, ADD, "add", 2, 2, 1, 1, "")                                                            \
  X(kSub, SUB, "sub", 2, 2, 1, 1, "")                                                            \
  X(kMul, MUL, "mul", 2, 2, 1, 1, "")                                                            \
  X(kDiv, DIV, "div", 2, 2, 1, 1, "")                                                            \
  X(kMax, MAX, "max", 2, 2, 1, 1, "")                                                            \
  X(kMin, MIN, "min", 2, 2, 1, 1, "")                                                            \
  X(kRelu, RELU, "relu", 1, 1, 1, 1, "")                                                         \
  X(kRelu6, RELU6, "relu6", 1, 1, 1, 1, "")                                                      \
  X(kLeakyRelu, LEAKY_RELU, "leaky_relu", 1, 1, 1, 1, "alpha:float")                             \
  X(kSigmoid, SIGMOID, "sigmoid", 1, 1, 1, 1, "")                                                \
  X(kTanh, TANH, "tanh", 1, 1, 1, 1, "")                                                         \
  X(kSwish, SWISH, "swish", 1, 1, 1, 1, "beta:float")                                            \
  X(kHardSwish, HARD_SWISH, "hard_swish", 1, 1, 1, 1, "threshold:float scale:float offset:float") \
  X(kHardSigmoid, HARD_SIGMOID, "hard_sigmoid", 1, 1, 1, 1, "slope:float offset:float")          \
  X(kClip, CLIP, "clip", 1, 1, 1, 1, "min:float max:float")                                      \
  X(kScale, SCALE, "scale", 1, 1, 1, 1, "scale:float bias:float")                                \
  X(kExp, EXP, "exp", 1, 1, 1, 1, "")                                                            \
  X(kAbs, ABS, "abs", 1, 1, 1, 1, "")                                                            \
  X(kPRelu, PRELU, "prelu", 2, 2, 1, 1, "")                                                      \
  X(kSoftmax, SOFTMAX, "softmax", 1, 1, 1, 1, "axis:int")                                        \
  X(kReshape, RESHAPE, "reshape", 1, 1, 1, 1, "")                                                \
  X(kTranspose, TRANSPOSE, "transpose", 1, 1, 1, 1, "perm:ints")                                 \
  X(kConcat, CONCAT, "concat", 1, -1, 1, 1, "axis:int")                                          \
  X(kSplit, SPLIT, "split", 1, 1, 1, -1, "axis:int")                                             \
  X(kSlice, SLICE, "slice", 1, 1, 1, 1, "begins:ints")                                           \
  X(kPad, PAD, "pad", 1, 1, 1, 1, "paddings:ints mode:int value:float")                          \
  X(kResizeNearest, RESIZE_NEAREST, "resize_nearest", 1, 1, 1, 1,                               \
    "align_corners:int align_mode:int ratio_h:float ratio_w:float")                              \
  X(kResizeBilinear, RESIZE_BILINEAR, "resize_bilinear", 1, 1, 1, 1,                             \
    "align_corners:int align_mode:int ratio_h:float ratio_w:float")                              \
  X(kBatchNorm, BATCH_NORM, "batch_norm", 5, 5, 1, 1, "epsilon:float")                          \
  X(kQuantize, QUANTIZE, "quantize", 1, 1, 1, 1, "round_type:int")
